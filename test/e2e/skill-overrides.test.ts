/**
 * `skillOverrides` (issue #42 item 1) on the shipped bin against the scripted model server: Claude Code's four
 * states in user, project and local settings, keyed by plain and plugin-namespaced names, as the listing, the
 * Skill tool, SkillSearch, `list`, `doctor` and the interactive `/skills` see them.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import { overrideOf, skillFilterFrom, whyDisabled } from "../../src/skill-filter.js";
import { cli, cliWithModel, json } from "../cli/run-cli.js";
import {
  lastUser,
  type RequestBody,
  resultText,
  skillMd,
  textBlocks,
  toolResults,
} from "../support/harness.js";
import { runSteps } from "../support/interactive-steps.js";
import { startTestModel, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree, under } from "../support/tmp-tree.js";

const SKILLS = ".claude/skills";
const project = {
  ".git": { dir: true },
  [`${SKILLS}/plain/SKILL.md`]: skillMd("description: Plain skill shown in full", "PLAIN-BODY"),
  [`${SKILLS}/terse/SKILL.md`]: skillMd("description: TERSE-DESCRIPTION words", "TERSE-BODY"),
  [`${SKILLS}/people-only/SKILL.md`]: skillMd("description: TYPED-DESCRIPTION for people", "TYPED-BODY"),
  [`${SKILLS}/vanish-me/SKILL.md`]: skillMd("description: GONE-DESCRIPTION", "GONE-BODY"),
  [`${SKILLS}/legacy-off/SKILL.md`]: skillMd("description: LEGACY-DESCRIPTION", "LEGACY-BODY"),
  [`${SKILLS}/back-on/SKILL.md`]: skillMd("description: Switched back on by a later file", "BACK-BODY"),
  // User settings say `terse` is off; the project's file (higher precedence) says name-only, and wins.
  ".claude/settings.json": JSON.stringify({
    skillOverrides: { terse: "name-only", "people-only": "user-invocable-only", "plug:hello": "name-only" },
    skills: { disabled: ["legacy-off", "back-on"] },
  }),
  ".claude/settings.local.json": JSON.stringify({ skillOverrides: { "vanish-me": "off", "back-on": "on" } }),
} as const;

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({
    "home/.claude/settings.json": JSON.stringify({ skillOverrides: { terse: "off", "plug:*": "off" } }),
    ...under("home/repo", project),
    ...under("home/small", project),
    "home/small/.claude/settings.json": JSON.stringify({
      skillListingBudget: 40,
      skillOverrides: { terse: "name-only", "people-only": "user-invocable-only" },
    }),
    "plug/.claude-plugin/plugin.json": JSON.stringify({ name: "plug", version: "1.0.0" }),
    "plug/skills/hello/SKILL.md": skillMd("description: PLUGIN-HELLO-DESCRIPTION", "HELLO"),
    "plug/skills/bye/SKILL.md": skillMd("description: Plugin bye", "BYE"),
  });
});
afterAll(() => tree.cleanup());

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function run(prompt: string, turns: ScriptTurnInput[], cwd = "home/repo") {
  model = await startTestModel(turns);
  return cliWithModel(
    tree,
    model,
    ["-p", prompt, "--allowedTools", "Skill", "--plugin-dir", tree.path("plug")],
    cwd,
  );
}

describe("skillOverrides: the filter (pure)", () => {
  it("the highest-precedence file decides; an exact key beats a glob in one file; `on` lifts skills.disabled", () => {
    const filter = skillFilterFrom([
      {
        path: "/u",
        settings: { skillOverrides: { "a:*": "off", b: "name-only" }, skills: { disabled: ["c"] } },
      },
      {
        path: "/p",
        settings: { skillOverrides: { "a:*": "name-only", "a:x": "user-invocable-only", c: "on" } },
      },
    ]);
    expect(overrideOf("a:x", filter)).toEqual({ state: "user-invocable-only", path: "/p", key: "a:x" });
    expect(overrideOf("a:y", filter)).toEqual({ state: "name-only", path: "/p", key: "a:*" });
    expect(overrideOf("b", filter)).toEqual({ state: "name-only", path: "/u", key: "b" });
    expect(whyDisabled("c", filter)).toBeUndefined();
    const lower = skillFilterFrom([
      { path: "/u", settings: { skillOverrides: { c: "on" } } },
      { path: "/p", settings: { skills: { disabled: ["c"] } } },
    ]);
    expect(whyDisabled("c", lower)).toEqual({ kind: "setting", path: "/p", pattern: "c" });
  });
});

describe("skillOverrides on dist/bin", () => {
  it("the listing: name-only without its description, user-invocable-only and off absent from every request", async () => {
    const { result, bodies } = await run("hello there", [
      toolTurn("Skill", { skill: "terse" }, { match: { lastUserTextIncludes: "hello there" } }),
      textTurn("Done.", { hasToolResultFor: "Skill" }),
    ]);
    expect(result.stderr).toBe("");
    expect(result.stdout.trim()).toBe("Done.");
    const listing = textBlocks(bodies[0]?.messages[0]?.content ?? "").join("\n");
    expect(listing).toContain("\n- plain: Plain skill shown in full");
    expect(listing).toMatch(/\n- terse\n/);
    expect(listing).toMatch(/\n- plug:hello(\n|$)/);
    // The user's `plug:*` off still holds for the plugin's other skill.
    expect(listing).not.toContain("plug:bye");
    expect(listing).toContain("\n- back-on: Switched back on by a later file");
    const everything = JSON.stringify(bodies);
    for (const hidden of [
      "TERSE-DESCRIPTION",
      "PLUGIN-HELLO-DESCRIPTION",
      "people-only",
      "TYPED-",
      "vanish-me",
      "GONE-",
    ]) {
      expect(everything).not.toContain(hidden);
    }
    expect(everything).not.toContain("legacy-off");
    // A name-only skill is still callable by its name.
    const [launched] = toolResults(bodies[1] as RequestBody);
    expect(launched && resultText(launched)).toBe("Launching skill: terse");
    expect(textBlocks(lastUser(bodies[1] as RequestBody).content).join("\n")).toContain("TERSE-BODY");
  });

  it("a user-invocable-only skill runs from a typed /name; the model calling it gets Unknown skill", async () => {
    const typed = await run("/people-only now", [
      textTurn("Typed ran.", { lastUserTextIncludes: "TYPED-BODY" }),
    ]);
    expect(typed.result.stdout.trim()).toBe("Typed ran.");
    const listing = textBlocks(typed.bodies[0]?.messages[0]?.content ?? "").join("\n");
    expect(listing).not.toContain("- people-only");
    const called = await run("go", [
      toolTurn("Skill", { skill: "people-only" }, { match: { lastUserTextIncludes: "go" } }),
      textTurn("Refused.", { hasToolResultFor: "Skill" }),
    ]);
    const [refusal] = toolResults(called.bodies[1] as RequestBody);
    expect(refusal?.is_error).toBe(true);
    expect(refusal && resultText(refusal)).toBe(
      "<tool_use_error>Unknown skill: people-only</tool_use_error>",
    );
  });

  it("SkillSearch shows a name-only skill by name and never finds a user-invocable-only one", async () => {
    const { bodies } = await run(
      "find",
      [
        toolTurn(
          "SkillSearch",
          { query: "TERSE-DESCRIPTION words" },
          { match: { lastUserTextIncludes: "find" } },
        ),
        toolTurn(
          "SkillSearch",
          { query: "TYPED-DESCRIPTION people" },
          { match: { toolResultIncludes: "terse" } },
        ),
        textTurn("Searched.", { hasToolResultFor: "SkillSearch" }),
      ],
      "home/small",
    );
    expect(bodies[0]?.tools?.map((t) => t.name)).toContain("SkillSearch");
    const [first] = toolResults(bodies[1] as RequestBody);
    expect(first && resultText(first)).toMatch(/^- terse$/m);
    expect(first && resultText(first)).not.toContain("- terse:");
    const [second] = toolResults(bodies[2] as RequestBody);
    expect(second && resultText(second)).not.toContain("people-only");
  });

  it("list, doctor and the JSON forms show each state and the file that set it", async () => {
    const settings = tree.path("home/repo/.claude/settings.json");
    const local = tree.path("home/repo/.claude/settings.local.json");
    const plug = ["--plugin-dir", tree.path("plug")];
    const list = json<{ name: string; flags: string[]; disabled?: { reason: string } }[]>(
      await cli(tree, ["list", "--json", ...plug]),
    );
    const byName = new Map(list.map((s) => [s.name, s]));
    expect(byName.get("terse")?.flags).toContain("name-only");
    expect(byName.get("people-only")?.flags).toContain("user-invocable-only");
    expect(byName.get("plug:hello")?.flags).toContain("name-only");
    expect(byName.get("vanish-me")?.disabled?.reason).toBe(`skillOverrides "vanish-me": "off" in ${local}`);
    expect(byName.get("legacy-off")?.disabled?.reason).toBe(`skills.disabled "legacy-off" in ${settings}`);
    expect(byName.get("back-on")?.disabled).toBeUndefined();
    const text = await cli(tree, ["list", ...plug]);
    expect(text.stdout).toMatch(/^terse {2}\[project\] {2}\{name-only\}$/m);
    const doctor = await cli(tree, ["doctor", ...plug]);
    expect(doctor.stdout).toMatch(/^ {2}terse +name-only \(override, \d+ chars dropped\)$/m);
    expect(doctor.stdout).toMatch(/^ {2}people-only +absent \(override\)$/m);
    expect(doctor.stdout).toContain(`    by skillOverrides "vanish-me": "off" in ${local}`);
    const report = json<{ disabled: { name: string; by: { setting?: string } }[] }>(
      await cli(tree, ["doctor", "--json", ...plug]),
    );
    expect(report.disabled.find((d) => d.name === "vanish-me")?.by.setting).toBe("skillOverrides");
  });

  it("the interactive /skills shows the override and its file", async () => {
    const t = await tmpTree({
      "home/.keep": "",
      ...under("repo", project),
    });
    try {
      model = await startTestModel([]);
      const result = await runSteps(t, model.server.url, [{ line: "/skills" }]);
      expect(result.code).toBe(0);
      const settings = t.path("repo/.claude/settings.json");
      expect(result.stdout).toContain(
        `  on   terse  [project]  name-only by skillOverrides "terse" in ${settings}\n`,
      );
      expect(result.stdout).toContain(
        `  on   people-only  [project]  user-invocable-only by skillOverrides "people-only" in ${settings}\n`,
      );
      expect(result.stdout).toContain(
        `  off  vanish-me  [project]  by skillOverrides "vanish-me": "off" in ${t.path("repo/.claude/settings.local.json")}\n`,
      );
    } finally {
      await t.cleanup();
    }
  });
});
