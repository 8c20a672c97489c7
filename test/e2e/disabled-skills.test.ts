import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { matchesSkillPattern, skillFilterFrom, whyDisabled } from "../../src/skill-filter.js";
import { runIn } from "../audit/support.js";
import {
  type Harness,
  resultText,
  skillMd,
  startHarness,
  textBlocks,
  toolResults,
} from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";
import { tmpTree } from "../support/tmp-tree.js";

const BIN = fileURLToPath(new URL("../../dist/bin/main.js", import.meta.url));

let e: Harness | undefined;
afterEach(async () => {
  await e?.close();
  e = undefined;
});

const skills = {
  "project/.claude/skills/keep/SKILL.md": skillMd("description: Kept skill", "KEEP-BODY"),
  "project/.claude/skills/secret/SKILL.md": skillMd("description: Secret skill", "SECRET-BODY"),
  "project/.claude/skills/tools-a/SKILL.md": skillMd("description: Tool A", "TOOLS-A-BODY"),
  "project/.claude/skills/runner/SKILL.md": skillMd(
    "description: Runs in a fork\ncontext: fork",
    "Do the forked task.",
  ),
};
const settings = JSON.stringify({ skills: { disabled: ["secret", "tools-*"] } });

describe("skill patterns", () => {
  it("match whole names; * and ? are wildcards that cross : and __", () => {
    expect(matchesSkillPattern("plugin:*", "plugin:review")).toBe(true);
    expect(matchesSkillPattern("plugin:*", "other:review")).toBe(false);
    expect(matchesSkillPattern("mcp__srv__*", "mcp__srv__notes")).toBe(true);
    expect(matchesSkillPattern("greet", "greeting")).toBe(false);
    expect(matchesSkillPattern("/greet", "greet")).toBe(true);
    expect(matchesSkillPattern("gr?et", "greet")).toBe(true);
    expect(matchesSkillPattern("a.b", "axb")).toBe(false);
  });

  it("--no-skills, then settings files (traced to their file), then --skills", () => {
    const filter = skillFilterFrom(
      [{ path: "/u/settings.json", settings: { skills: { disabled: ["old-*"] } } }],
      { only: ["keep", "old-x"], disabled: ["nope"] },
    );
    expect(whyDisabled("nope", filter)).toEqual({ kind: "flag", flag: "--no-skills", pattern: "nope" });
    expect(whyDisabled("old-x", filter)).toEqual({
      kind: "setting",
      path: "/u/settings.json",
      pattern: "old-*",
    });
    expect(whyDisabled("other", filter)).toEqual({ kind: "flag", flag: "--skills", only: ["keep", "old-x"] });
    expect(whyDisabled("keep", filter)).toBeUndefined();
  });
});

describe("disabled skills in a session (settings skills.disabled)", () => {
  it("are not listed, a Skill call gets an error naming the settings file, the fork's listing leaves them out", async () => {
    e = await startHarness({
      files: { ...skills, "project/.claude/settings.local.json": settings },
      turns: [
        toolTurn("Skill", { skill: "secret" }, { id: "toolu_secret", match: { agentId: null } }),
        toolTurn("Skill", { skill: "runner" }, { id: "toolu_runner", match: { agentId: null } }),
        textTurn("fork done", { agentId: "*" }),
        textTurn("all done", { agentId: null }),
      ],
      session: { allowedTools: ["Skill"] },
    });
    await e.send("go");
    const listing = textBlocks(e.body(0).messages[0]?.content ?? "").join("\n");
    expect(listing).toContain("- keep: Kept skill");
    expect(listing).not.toContain("secret");
    expect(listing).not.toContain("tools-a");
    const [result] = toolResults(e.body(1));
    expect(result?.is_error).toBe(true);
    const text = result ? resultText(result) : "";
    expect(text).toContain('Skill "secret" is disabled in this session');
    expect(text).toContain(
      `skills.disabled "secret" in ${e.tree.path("project/.claude/settings.local.json")}`,
    );
    expect(text).not.toContain("SECRET-BODY");
    const [fork] = e.forkRequests();
    const forkBody = fork?.body as { messages: { content: { type: string; text?: string }[] }[] };
    const forkFirst = (forkBody.messages[0]?.content ?? []).map((b) => b.text ?? "").join("\n");
    expect(forkFirst).toContain("- keep: Kept skill");
    expect(forkFirst).not.toContain("secret");
  });

  it("a typed /name gets a clear reply and no model request", async () => {
    e = await startHarness({
      files: { ...skills, "project/.claude/settings.json": settings },
      turns: [textTurn("should not be asked")],
    });
    const events = await e.send("/tools-a now");
    const text = events.flatMap((ev) => (ev.type === "text_delta" ? [ev.text] : [])).join("");
    expect(text).toContain('Skill "tools-a" is disabled in this session');
    expect(text).toContain('skills.disabled "tools-*"');
    expect(e.bodies()).toHaveLength(0);
  });

  it("the engine option `skills.only` (library form of --skills) disables every other skill", async () => {
    e = await startHarness({
      files: skills,
      engine: { skills: { only: ["keep"] } },
      turns: [toolTurn("Skill", { skill: "secret" }, { id: "toolu_1" }), textTurn("ok")],
    });
    await e.send("go");
    const listing = textBlocks(e.body(0).messages[0]?.content ?? "").join("\n");
    expect(listing).toContain("- keep");
    expect(listing).not.toContain("runner");
    const [result] = toolResults(e.body(1));
    expect(result && resultText(result)).toContain("--skills keep");
  });
});

describe("doctor and list report disabled skills", () => {
  it("doctor --json has a disabled section naming the file; doctor text too; list --json marks them", async () => {
    const tree = await tmpTree({
      ...skills,
      "project/.git": { dir: true },
      "home/.claude/settings.json": settings,
    });
    try {
      const doctor = await runIn(tree, ["doctor", "--json", "--no-skills", "keep"]);
      expect(doctor.code).toBe(0);
      const report = JSON.parse(doctor.stdout) as {
        disabled: { name: string; reason: string; by: Record<string, unknown> }[];
      };
      expect(report.disabled.map((d) => [d.name, d.reason])).toEqual([
        ["keep", '--no-skills "keep"'],
        ["secret", `skills.disabled "secret" in ${tree.path("home/.claude/settings.json")}`],
        ["tools-a", `skills.disabled "tools-*" in ${tree.path("home/.claude/settings.json")}`],
      ]);
      expect(report.disabled[1]?.by).toMatchObject({ kind: "setting", setting: "skills.disabled" });
      const text = await runIn(tree, ["doctor"]);
      expect(text.stdout).toContain("Disabled (2)");
      expect(text.stdout).toContain(
        `by skills.disabled "secret" in ${tree.path("home/.claude/settings.json")}`,
      );
      const list = await runIn(tree, ["list", "--json"]);
      const listed = JSON.parse(list.stdout) as { name: string; disabled?: { reason: string } }[];
      const mine = listed.filter((s) => ["keep", "secret", "tools-a", "runner"].includes(s.name));
      expect(mine.map((s) => [s.name, s.disabled === undefined])).toEqual([
        ["keep", true],
        ["runner", true],
        ["secret", false],
        ["tools-a", false],
      ]);
    } finally {
      await tree.cleanup();
    }
  });

  it("a plugin:* glob disables a plugin's skills; the reason names the settings file", async () => {
    const tree = await tmpTree({
      "project/.git": { dir: true },
      "project/.claude/settings.json": JSON.stringify({ skills: { disabled: ["plug:*"] } }),
      "project/.claude/skills/keep/SKILL.md": skillMd("description: Kept skill", "KEEP-BODY"),
      "plug/.claude-plugin/plugin.json": JSON.stringify({ name: "plug", version: "1.0.0" }),
      "plug/skills/hello/SKILL.md": skillMd("description: Plugin hello", "HELLO"),
      "plug/skills/bye/SKILL.md": skillMd("description: Plugin bye", "BYE"),
    });
    try {
      const doctor = await runIn(tree, ["doctor", "--json", "--plugin-dir", tree.path("plug")]);
      const report = JSON.parse(doctor.stdout) as { disabled: { name: string; reason: string }[] };
      const settingsFile = tree.path("project/.claude/settings.json");
      expect(report.disabled).toEqual([
        expect.objectContaining({ name: "plug:bye", reason: `skills.disabled "plug:*" in ${settingsFile}` }),
        expect.objectContaining({
          name: "plug:hello",
          reason: `skills.disabled "plug:*" in ${settingsFile}`,
        }),
      ]);
    } finally {
      await tree.cleanup();
    }
  });

  it("the bin takes --skills and --no-skills (comma lists, globs)", async () => {
    const tree = await tmpTree({ ...skills, "project/.git": { dir: true }, "home/.keep": "" });
    try {
      const run = (extra: string[]) =>
        execa(
          process.execPath,
          [BIN, "list", "--json", "--cwd", tree.path("project"), "--home", tree.path("home"), ...extra],
          { env: { SKILLWRIGHT_MANAGED_DIR: tree.path("managed") }, reject: false },
        );
      const enabled = async (extra: string[]) => {
        const result = await run(extra);
        expect(result.exitCode, result.stderr).toBe(0);
        return (JSON.parse(result.stdout) as { name: string; source: string; disabled?: unknown }[])
          .filter((s) => s.source === "project" && s.disabled === undefined)
          .map((s) => s.name);
      };
      expect(await enabled(["--no-skills", "secret,tools-*"])).toEqual(["keep", "runner"]);
      expect(await enabled(["--skills", "keep", "--skills", "run*"])).toEqual(["keep", "runner"]);
    } finally {
      await tree.cleanup();
    }
  });
});
