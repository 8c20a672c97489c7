/**
 * Codex's `agents/openai.yaml` beside a SKILL.md (issue #42 item 3) on the shipped bin: where the file speaks the
 * skill is listed, invoked and gated as Codex would; where only SKILL.md speaks, as Claude Code would.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import { cli, cliWithModel, json } from "../cli/run-cli.js";
import { type RequestBody, resultText, skillMd, textBlocks, toolResults } from "../support/harness.js";
import { startTestModel, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

const S = ".agents/skills";
let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({
    "home/.keep": "",
    "home/repo/.git": { dir: true },
    [`home/repo/${S}/people-run/SKILL.md`]: skillMd("description: PEOPLE-RUN-DESCRIPTION", "PEOPLE-RUN-BODY"),
    [`home/repo/${S}/people-run/agents/openai.yaml`]: "policy:\n  allow_implicit_invocation: false\n",
    [`home/repo/${S}/both-ways/SKILL.md`]: skillMd(
      "description: Codex lets the model call it\ndisable-model-invocation: true",
      "BOTH-BODY",
    ),
    [`home/repo/${S}/both-ways/agents/openai.yaml`]: "policy:\n  allow_implicit_invocation: true\n",
    [`home/repo/${S}/pretty/SKILL.md`]: skillMd("description: Formats files for the model", "PRETTY-BODY"),
    [`home/repo/${S}/pretty/agents/openai.yaml`]: [
      "interface:",
      '  display_name: "Pretty Printer"',
      '  short_description: "Formats files"',
      '  icon_small: "./assets/icon.svg"',
      '  brand_color: "#3B82F6"',
      '  default_prompt: "Use $pretty to format the changed files."',
      "",
    ].join("\n"),
    [`home/repo/${S}/claude-only/SKILL.md`]: skillMd(
      "description: Only SKILL.md speaks\ndisable-model-invocation: true",
      "CLAUDE-ONLY-BODY",
    ),
    [`home/repo/${S}/broken/SKILL.md`]: skillMd("description: Broken metadata", "BROKEN-BODY"),
    [`home/repo/${S}/broken/agents/openai.yaml`]: "policy: [unclosed\n",
  });
});
afterAll(() => tree.cleanup());

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function run(prompt: string, turns: ScriptTurnInput[]) {
  model = await startTestModel(turns);
  return cliWithModel(tree, model, ["-p", prompt, "--allowedTools", "Skill"]);
}

describe("agents/openai.yaml on dist/bin", () => {
  it("allow_implicit_invocation decides model invocation where it speaks; SKILL.md where it does not", async () => {
    const { result, bodies } = await run("go", [
      toolTurn("Skill", { skill: "people-run" }, { match: { lastUserTextIncludes: "go" } }),
      textTurn("Done.", { hasToolResultFor: "Skill" }),
    ]);
    expect(result.stdout.trim()).toBe("Done.");
    const listing = textBlocks(bodies[0]?.messages[0]?.content ?? "").join("\n");
    expect(listing).toContain("\n- both-ways: Codex lets the model call it");
    expect(listing).toContain("\n- pretty: Formats files for the model");
    expect(listing).not.toContain("people-run");
    expect(listing).not.toContain("claude-only");
    const [refusal] = toolResults(bodies[1] as RequestBody);
    expect(refusal?.is_error).toBe(true);
    expect(refusal && resultText(refusal)).toContain(
      "Skill people-run cannot be used with Skill tool due to disable-model-invocation",
    );
  });

  it("a person's /name runs a skill Codex keeps from implicit invocation", async () => {
    const { result } = await run("/people-run now", [
      textTurn("Ran it.", { lastUserTextIncludes: "PEOPLE-RUN-BODY" }),
    ]);
    expect(result.stdout.trim()).toBe("Ran it.");
  });

  it("list and show show Codex's display name, short description and default prompt", async () => {
    const list = await cli(tree, ["list"]);
    expect(list.stdout).toContain('pretty "Pretty Printer"  [project]\n    Formats files\n');
    const listed = json<{ name: string; codex?: Record<string, string>; title?: string }[]>(
      await cli(tree, ["list", "--json"]),
    );
    expect(listed.find((s) => s.name === "pretty")).toMatchObject({
      title: "Pretty Printer",
      codex: {
        displayName: "Pretty Printer",
        shortDescription: "Formats files",
        defaultPrompt: "Use $pretty to format the changed files.",
      },
    });
    const show = await cli(tree, ["show", "pretty"]);
    expect(show.stdout).toContain("display name: Pretty Printer\n");
    expect(show.stdout).toContain("short description: Formats files\n");
    expect(show.stdout).toContain("default prompt: Use $pretty to format the changed files.\n");
  });

  it("a broken openai.yaml is a field-invalid warning; the skill stays as SKILL.md says", async () => {
    const doctor = json<{ diagnostics: { code: string; path?: string }[] }>(
      await cli(tree, ["doctor", "--json"]),
    );
    expect(doctor.diagnostics).toContainEqual(
      expect.objectContaining({
        code: "field-invalid",
        path: tree.path(`home/repo/${S}/broken/agents/openai.yaml`),
      }),
    );
    const listed = json<{ name: string }[]>(await cli(tree, ["list", "--json"]));
    expect(listed.map((s) => s.name)).toContain("broken");
  });
});
