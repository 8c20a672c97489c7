import { execa } from "execa";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { notLoadedText } from "../../src/skill-tool/owned-tools.js";
import { resultText, toolResultsOf } from "../support/harness.js";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { assertBuilt, BIN } from "./run-cli.js";

beforeAll(() => {
  assertBuilt();
});

let tree: TmpTree | undefined;
let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  await tree?.cleanup();
  model = undefined;
  tree = undefined;
});

/** A skill with one command tool: it prints a prefix and the JSON input it got on stdin. */
const LOOKUP = `---
description: Looks words up in the team glossary
skill-tools:
  - name: lookup_word
    description: Looks a word up in the glossary
    input_schema:
      type: object
      properties:
        word: { type: string }
      required: [word]
    command: |
      printf 'glossary in %s: ' "$(basename "$PWD")"; cat
---
Call lookup_word with the word.
`;

async function run(t: TmpTree, m: TestModel, args: string[]) {
  return execa(process.execPath, [BIN, "--cwd", t.path("repo"), "--home", t.path("home"), ...args], {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: t.path("home"),
      SKILLWRIGHT_MANAGED_DIR: t.path("managed"),
      ANTHROPIC_BASE_URL: m.server.url,
      ANTHROPIC_API_KEY: TEST_API_KEY,
    },
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  });
}

const toolsOf = (body: unknown) => (body as { tools: { name: string; defer_loading?: boolean }[] }).tools;
const resultOf = (m: TestModel, index: number) => {
  const [result] = toolResultsOf(m.server.requests[index]);
  return { text: resultText(result), isError: result?.is_error === true, content: result?.content };
};

describe("skill-tools: a skill's own command tool (issue #31 item 2)", () => {
  it("is in the first request (deferred), refused before the skill loads, revealed and run after, the tools array never changing", async () => {
    tree = await tmpTree({ "home/.claude/skills/lookup/SKILL.md": LOOKUP, "repo/.git": { dir: true } });
    model = await startTestModel([
      toolTurn("lookup_word", { word: "cat" }, { id: "early" }),
      toolTurn("Skill", { skill: "lookup" }, { match: { hasToolResultFor: "early" } }),
      toolTurn("lookup_word", { word: "cat" }, { id: "late", match: { hasToolResultFor: "Skill" } }),
      textTurn("done", { hasToolResultFor: "late" }),
    ]);
    const result = await run(tree, model, ["-p", "define cat"]);
    expect(result.exitCode, result.stderr).toBe(0);
    const bodies = model.server.requests.map((r) => r.body);
    expect(bodies).toHaveLength(4);

    const tool = toolsOf(bodies[0]).find((t) => t.name === "lookup_word");
    expect(tool).toMatchObject({
      name: "lookup_word",
      description: "Looks a word up in the glossary",
      input_schema: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
      defer_loading: true,
    });
    const tools = JSON.stringify(toolsOf(bodies[0]));
    for (const body of bodies) expect(JSON.stringify(toolsOf(body))).toBe(tools);

    expect(resultOf(model, 1)).toMatchObject({ text: notLoadedText("lookup_word", "lookup"), isError: true });
    // The Skill result reveals the tool to the model.
    expect(resultOf(model, 2).content).toContainEqual({ type: "tool_reference", tool_name: "lookup_word" });
    expect(resultOf(model, 3)).toMatchObject({ text: 'glossary in lookup: {"word":"cat"}', isError: false });
  });

  it("to a model without deferred tools: the whole definition, no tool_reference", async () => {
    tree = await tmpTree({ "home/.claude/skills/lookup/SKILL.md": LOOKUP, "repo/.git": { dir: true } });
    model = await startTestModel([
      toolTurn("Skill", { skill: "lookup" }),
      textTurn("done", { hasToolResultFor: "Skill" }),
    ]);
    const result = await run(tree, model, ["-p", "define cat", "--model", "haiku"]);
    expect(result.exitCode, result.stderr).toBe(0);
    const tool = toolsOf(model.server.requests[0]?.body).find((t) => t.name === "lookup_word");
    expect(tool).toBeDefined();
    expect(tool?.defer_loading).toBeUndefined();
    expect(resultOf(model, 1).content).not.toContainEqual(
      expect.objectContaining({ type: "tool_reference" }),
    );
  });

  it("a project skill's command tool runs only once the skill is approved: headless, unapproved, nothing runs", async () => {
    tree = await tmpTree({
      "home/.keep": "",
      "repo/.claude/skills/lookup/SKILL.md": LOOKUP,
      "repo/.git": { dir: true },
    });
    model = await startTestModel([
      toolTurn("Skill", { skill: "lookup" }),
      toolTurn("lookup_word", { word: "cat" }, { id: "after", match: { hasToolResultFor: "Skill" } }),
      textTurn("done", { hasToolResultFor: "after" }),
    ]);
    const result = await run(tree, model, ["-p", "define cat"]);
    expect(result.exitCode, result.stderr).toBe(0);
    const refused = resultOf(model, 1);
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("declares tools that run commands");
    expect(resultOf(model, 2)).toMatchObject({ text: notLoadedText("lookup_word", "lookup"), isError: true });
  });

  it("validate reports a bad manifest and a name that shadows a built-in, and the skill still loads", async () => {
    tree = await tmpTree({
      "skills/bad/SKILL.md":
        "---\ndescription: Bad tools\nskill-tools:\n  - name: Read\n    description: x\n    command: cat\n  - name: ok_one\n    description: y\n---\nBody\n",
    });
    const result = await execa(process.execPath, [BIN, "validate", tree.path("skills/bad")], {
      reject: false,
    });
    expect(result.stdout + result.stderr).toContain(
      "skill-tool-invalid: skill-tools: Read: the name of a built-in or MCP tool, which a skill's tool cannot shadow; the tool is left out",
    );
    expect(result.stdout + result.stderr).toContain("ok_one: command is missing");
  });
});
