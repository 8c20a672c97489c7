import { afterEach, describe, expect, it } from "vitest";
import { cli, json } from "../cli/run-cli.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

// `kind: graded` through the shipped bin: the write–grade–revise loop serve runs for `user.define_outcome`,
// against scripted turns for the agent and for the grader (told apart by the grader's system prompt).

interface JsonReport {
  passed: number;
  failed: number;
  cases: { name: string; kind: string; passed: boolean; failures: string[]; actual?: string }[];
}

const SKILL = `---
name: poems
description: Writes short poems. Use when the user asks for a poem.
---
Write the poem the user asks for.
`;

/** The agent drafts, the grader asks for a title, the agent revises, the grader is satisfied. */
const REVISE_THEN_SATISFIED = `
    turns:
      - match: { systemIncludes: "You are a grader.", lastUserTextIncludes: "draft one" }
        response: { content: [{ type: text, text: '{"result": "needs_revision", "explanation": "Add a title line."}' }] }
      - match: { systemIncludes: "You are a grader.", lastUserTextIncludes: "draft two" }
        response: { content: [{ type: text, text: '{"result": "satisfied", "explanation": "Titled."}' }] }
      - match: { lastUserTextIncludes: "Add a title line." }
        response: { content: [{ type: text, text: draft two }] }
      - match: { lastUserTextIncludes: "Write a haiku" }
        response: { content: [{ type: text, text: draft one }] }`;

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

describe("skillwright test: graded cases", () => {
  it("passes when the loop ends as expected, and says how it ended when it does not", async () => {
    tree = await tmpTree({
      "home/repo/.git/HEAD": "ref: refs/heads/main\n",
      "home/repo/.claude/skills/poems/SKILL.md": SKILL,
      "home/repo/.claude/skills/poems/tests/graded.yaml": `cases:
  - name: revised once then satisfied
    kind: graded
    description: Write a haiku
    rubric: "1. Has a title line."${REVISE_THEN_SATISFIED}
    expect: { result: satisfied, evaluations: 2 }
  - name: out of iterations
    kind: graded
    description: Write a haiku
    rubric: "1. Has a title line."
    max_iterations: 1${REVISE_THEN_SATISFIED}
    expect: { result: satisfied }
`,
    });
    const result = await cli(tree, ["test", "--json"]);
    const report = json<JsonReport>(result);
    expect(report).toMatchObject({ passed: 1, failed: 1 });
    const [first, second] = report.cases;
    expect(first).toMatchObject({ name: "revised once then satisfied", kind: "graded", passed: true });
    expect(first?.actual).toBe(
      "evaluation 1: needs_revision: Add a title line.\nevaluation 2: satisfied: Titled.",
    );
    expect(second?.failures).toEqual([
      "the loop ended max_iterations_reached, expected satisfied: Add a title line.",
      "2 scripted turns were never asked for",
    ]);
    expect(result.code).toBe(1);
  });

  it("refuses a bad max_iterations with its line", async () => {
    tree = await tmpTree({
      "home/repo/.git/HEAD": "ref: refs/heads/main\n",
      "home/repo/.claude/skills/poems/SKILL.md": SKILL,
      "home/repo/.claude/skills/poems/tests/graded.yaml": `cases:
  - name: too many
    kind: graded
    description: Write a haiku
    rubric: Has a title.
    max_iterations: 21
    turns: [{ response: { content: [{ type: text, text: hi } ] } }]
    expect: { result: satisfied }
`,
    });
    const result = await cli(tree, ["test"]);
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toMatch(/graded\.yaml:6.*max_iterations/);
  });
});
