import { afterEach, describe, expect, it } from "vitest";
import { MAX_SKILL_FILE_BYTES } from "../../src/skill/load-skill.js";
import {
  doneResult,
  type Harness,
  resultText,
  skillMd,
  startHarness,
  toolResults,
} from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";
import type { TreeEntry } from "../support/tmp-tree.js";

const TREE: Record<string, TreeEntry> = {
  "project/.claude/skills/deploy/SKILL.md": skillMd("description: Deploys the app", "Deploy $ARGUMENTS."),
  "project/.claude/skills/greet/SKILL.md": skillMd("name: hello\ndescription: Greets", "Hi."),
  "project/.claude/skills/hidden/SKILL.md": skillMd(
    "description: Secret\ndisable-model-invocation: true",
    "Hidden.",
  ),
  // Over the size limit: found, then skipped with a file-too-large diagnostic.
  "project/.claude/skills/huge/SKILL.md": skillMd("description: Too big", "x".repeat(MAX_SKILL_FILE_BYTES)),
};

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Has the model call Skill with `input`, then returns the tool_result block the next request carried. */
async function callSkill(input: Record<string, unknown>) {
  h = await startHarness({ files: TREE, turns: [toolTurn("Skill", input), textTurn("ok")] });
  const events = await h.send("please");
  expect(doneResult(events).cause).toBe("end_turn");
  const results = toolResults(h.body(1));
  expect(results).toHaveLength(1);
  const [result] = results;
  if (result === undefined) throw new Error("no tool_result");
  return { text: resultText(result), isError: result.is_error === true, events };
}

describe("Skill tool validation from the model (SPEC §4)", () => {
  it.each([
    { case: "empty name", input: { skill: "" }, want: "Skill name is empty" },
    { case: "a lone slash", input: { skill: "/" }, want: "Skill name is empty" },
    {
      case: "unknown, close to a name",
      input: { skill: "delpoy" },
      want: "Unknown skill: delpoy. Did you mean deploy?",
    },
    {
      case: "names are case-sensitive",
      input: { skill: "Deploy" },
      want: "Unknown skill: Deploy. Did you mean deploy?",
    },
    { case: "unknown, nothing close", input: { skill: "zzzzzzzz" }, want: "Unknown skill: zzzzzzzz" },
    // Claude Code's text for a skill it found but skipped ends with a period (issue #27).
    {
      case: "found but skipped (over the size limit)",
      input: { skill: "huge" },
      want: "Unknown skill: huge.",
    },
    {
      case: "disable-model-invocation",
      input: { skill: "hidden" },
      want:
        "Skill hidden cannot be used with Skill tool due to disable-model-invocation. Ask the user to run /hidden " +
        "themselves — it cannot be invoked via the Skill tool. Do not replicate this skill's workflow by other " +
        "means — it is reserved for explicit user invocation.",
    },
    {
      case: "no skill key (SPEC §14.7)",
      input: { args: "x" },
      want: "InputValidationError: Skill failed due to the following issue:\nThe required parameter `skill` is missing",
    },
  ])("$case → an is_error <tool_use_error> result", async ({ input, want }) => {
    const { text, isError, events } = await callSkill(input);
    expect(isError).toBe(true);
    expect(text).toBe(`<tool_use_error>${want}</tool_use_error>`);
    expect(events.some((e) => e.type === "skill_invoked")).toBe(false);
  });

  it.each([
    { case: "an extra key", input: { skill: "deploy", extra: 1 }, mentions: "extra" },
    { case: "args not a string", input: { skill: "deploy", args: 3 }, mentions: "args" },
  ])("$case → an input error that says how to call it", async ({ input, mentions }) => {
    const { text, isError } = await callSkill(input);
    expect(isError).toBe(true);
    expect(text).toMatch(/^<tool_use_error>Invalid input for Skill: .*<\/tool_use_error>$/s);
    expect(text).toContain(mentions);
    expect(text).toContain('{"skill": "<name>", "args": "<optional>"}');
  });

  it.each([
    {
      case: "a leading slash is stripped",
      input: { skill: "/deploy", args: "prod" },
      called: "deploy",
      name: "deploy",
    },
    {
      case: "the alias works, named as called (SPEC §14.4)",
      input: { skill: "hello" },
      called: "hello",
      name: "greet",
    },
  ])("$case", async ({ input, called, name }) => {
    const { text, isError, events } = await callSkill(input);
    expect(isError).toBe(false);
    expect(text).toBe(`Launching skill: ${called}`);
    expect(events).toContainEqual(expect.objectContaining({ type: "skill_invoked", name, mode: "inline" }));
  });
});
