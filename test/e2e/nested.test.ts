import { afterEach, describe, expect, it } from "vitest";
import {
  type Harness,
  INIT_ENTRY,
  LISTING_HEADER,
  lastUser,
  listingBlock,
  plainBlocks,
  resultText,
  skillMd,
  startHarness,
  textBlocks,
  toolResults,
} from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";
import type { TreeEntry } from "../support/tmp-tree.js";

const TREE: Record<string, TreeEntry> = {
  "project/.gitignore": "packages/ignored/\n",
  "project/.claude/skills/deploy/SKILL.md": skillMd("description: Deploys the whole app", "ROOT-DEPLOY"),
  "project/packages/web/.claude/skills/web-build/SKILL.md": skillMd(
    "description: Builds the web package",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a skill placeholder, substituted by the engine
    "WEB-BUILD in ${CLAUDE_SKILL_DIR}",
  ),
  "project/packages/web/.claude/skills/deploy/SKILL.md": skillMd(
    "description: Deploys the web package",
    "WEB-DEPLOY",
  ),
  "project/packages/web/src/x.ts": "export const x = 1;\n",
  "project/packages/ignored/.claude/skills/secret/SKILL.md": skillMd(
    "description: Must stay hidden",
    "SECRET",
  ),
  "project/packages/ignored/src/y.ts": "export const y = 1;\n",
  "project/node_modules/x/.claude/skills/nm-skill/SKILL.md": skillMd("description: From a dependency", "NM"),
  "project/node_modules/x/index.js": "module.exports = 1;\n",
};

const WEB_ROOT = "packages/web/.claude/skills";
const ANNOTATION = `(from ${WEB_ROOT} — applies when working on files under packages/web/)`;
const SCOPED =
  '(scoped to packages/web/ — use this instead of the unscoped "deploy" skill when the files being changed are under packages/web/)';
/** SPEC §14.10: the names, then the listing header and the entries, by name. */
const ANNOUNCEMENT = [
  "<system-reminder>",
  `New skills discovered in ${WEB_ROOT}, now available via the Skill tool:`,
  "- packages/web:deploy",
  "- web-build",
  "",
  LISTING_HEADER,
  "",
  `- packages/web:deploy: Deploys the web package ${SCOPED}`,
  `- web-build: Builds the web package ${ANNOTATION}`,
  "</system-reminder>",
].join("\n");

let e: Harness | undefined;
afterEach(async () => {
  await e?.close();
  e = undefined;
});

describe("nested skill discovery in a session (SPEC §9)", () => {
  it("a Read below packages/web announces its skills dir, byte-exact, and they become invocable", async () => {
    e = await startHarness({
      files: TREE,
      turns: [
        toolTurn("Skill", { skill: "web-build" }, { id: "toolu_early" }),
        toolTurn("Read", { path: "packages/web/src/x.ts" }),
        toolTurn("Skill", { skill: "web-build" }, { id: "toolu_build" }),
        toolTurn("Skill", { skill: "packages/web:deploy" }, { id: "toolu_web_deploy" }),
        toolTurn("Skill", { skill: "deploy" }, { id: "toolu_root_deploy" }),
        textTurn("done"),
      ],
    });
    await e.send("build the web package");
    expect(textBlocks(lastUser(e.body(0)).content)[0]).toBe(
      listingBlock("- deploy: Deploys the whole app", INIT_ENTRY),
    );
    const [early] = toolResults(e.body(1));
    expect(early && resultText(early)).toBe("<tool_use_error>Unknown skill: web-build</tool_use_error>");

    const afterRead = plainBlocks(lastUser(e.body(2)).content);
    expect(afterRead[0]?.type).toBe("tool_result");
    // The announcement alone: the listing delta does not repeat the announced names.
    expect(afterRead.slice(1)).toEqual([{ type: "text", text: ANNOUNCEMENT }]);

    const [build] = toolResults(e.body(3));
    expect(build && resultText(build)).toBe("Launching skill: web-build");
    const webDir = e.tree.path("project/packages/web/.claude/skills/web-build");
    expect(textBlocks(lastUser(e.body(3)).content)).toContain(
      `Base directory for this skill: ${webDir}\n\nWEB-BUILD in ${webDir}`,
    );
    // The clashing nested skill answers to `packages/web:deploy`; the bare name keeps the root skill.
    expect(textBlocks(lastUser(e.body(4)).content).join("\n")).toContain("WEB-DEPLOY");
    const root = textBlocks(lastUser(e.body(5)).content).join("\n");
    expect(root).toContain("ROOT-DEPLOY");
    expect(root).not.toContain("WEB-DEPLOY");
    // Nothing is announced twice.
    const all = JSON.stringify(e.body(5).messages);
    expect(all.split("New skills discovered in").length - 1).toBe(1);
  });

  it("a git-ignored package and node_modules are never searched, even when read", async () => {
    e = await startHarness({
      files: TREE,
      turns: [
        toolTurn("Read", { path: "packages/ignored/src/y.ts" }),
        toolTurn("Read", { path: "node_modules/x/index.js" }),
        toolTurn("Skill", { skill: "secret" }, { id: "toolu_secret" }),
        toolTurn("Skill", { skill: "nm-skill" }, { id: "toolu_nm" }),
        textTurn("done"),
      ],
    });
    await e.send("look around");
    for (const index of [1, 2]) {
      const blocks = plainBlocks(lastUser(e.body(index)).content);
      expect(blocks.map((b) => b.type)).toEqual(["tool_result"]);
      expect(blocks[0] && resultText(blocks[0])).not.toMatch(/^<tool_use_error>/);
    }
    const [secret] = toolResults(e.body(3));
    expect(secret && resultText(secret)).toBe("<tool_use_error>Unknown skill: secret</tool_use_error>");
    const [nm] = toolResults(e.body(4));
    expect(nm && resultText(nm)).toBe("<tool_use_error>Unknown skill: nm-skill</tool_use_error>");
    expect(JSON.stringify(e.bodies())).not.toContain("New skills discovered");
  });
});
