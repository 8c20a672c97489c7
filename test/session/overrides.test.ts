import { access } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  type Harness,
  lastUser,
  type RequestBody,
  resultText,
  skillMd,
  startHarness,
  textBlocks,
  toolResults,
} from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";
import type { TreeEntry } from "../support/tmp-tree.js";

const SESSION_MODEL = "claude-sonnet-5-5";
const HAIKU = "claude-haiku-5-5";

const TREE: Record<string, TreeEntry> = {
  "project/.claude/skills/quick/SKILL.md": skillMd(
    "description: Fast\nmodel: haiku\neffort: high",
    "Be quick.",
  ),
  "project/.claude/skills/inherit/SKILL.md": skillMd("description: Same model\nmodel: inherit", "Same."),
  "project/.claude/skills/nobash/SKILL.md": skillMd(
    "description: No shell\ndisallowed-tools: Bash",
    "No shell.",
  ),
  "project/.claude/skills/echoer/SKILL.md": skillMd(
    "description: May echo\nallowed-tools: Bash(echo:*)",
    "Echo freely.",
  ),
  "project/.claude/skills/guard/SKILL.md": skillMd(
    "description: No rm\ndisallowed-tools: Bash(rm:*)",
    "Careful.",
  ),
  "project/.claude/skills/noskill/SKILL.md": skillMd(
    "description: No deploy\ndisallowed-tools: Skill(quick)",
    ".",
  ),
  "project/.claude/skills/cleaner/SKILL.md": skillMd(
    "description: Cleans\nallowed-tools: Bash(rm:*)",
    "Cleaned: !`rm -f junk.txt`\n",
  ),
  "project/.claude/settings.local.json": JSON.stringify({
    permissions: { allow: ["Skill(echoer)", "Skill(cleaner)"] },
  }),
  "project/junk.txt": "junk\n",
  "project/build/keep.txt": "keep\n",
};

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function toolNames(body: RequestBody): string[] {
  return (body.tools ?? []).map((t) => t.name);
}

/** The text and error flag of the only tool_result in request `index`. */
function onlyResult(harness: Harness, index: number) {
  const results = toolResults(harness.body(index));
  expect(results).toHaveLength(1);
  const [result] = results;
  if (result === undefined) throw new Error("no tool_result");
  return { text: resultText(result), isError: result.is_error === true };
}

describe("turn-scoped overrides of an inline skill (SPEC §5)", () => {
  it("model-invoked: effort changes the next request of the turn, the model stays; both revert at the next send", async () => {
    h = await startHarness({
      files: TREE,
      turns: [toolTurn("Skill", { skill: "quick" }), textTurn("fast answer"), textTurn("back to normal")],
    });
    await h.send("be quick");
    await h.send("and now?");
    const [first, second, third] = [h.body(0), h.body(1), h.body(2)];
    expect([first.model, first.output_config]).toEqual([SESSION_MODEL, { effort: "medium" }]);
    expect([second.model, second.output_config]).toEqual([SESSION_MODEL, { effort: "high" }]);
    expect(textBlocks(lastUser(second).content).at(-1)).toBe(
      `<system-reminder>The skill "quick" names the model ${HAIKU}; this conversation stays on ${SESSION_MODEL}, ` +
        "so follow its instructions here.</system-reminder>",
    );
    expect([third.model, third.output_config]).toEqual([SESSION_MODEL, { effort: "medium" }]);
  });

  it("skillModelSwitch: a model-invoked skill's model changes the rest of the turn too, with no note", async () => {
    h = await startHarness({
      files: TREE,
      turns: [toolTurn("Skill", { skill: "quick" }), textTurn("fast answer"), textTurn("back to normal")],
      session: { skillModelSwitch: true },
    });
    await h.send("be quick");
    await h.send("and now?");
    const [second, third] = [h.body(1), h.body(2)];
    expect([second.model, second.output_config]).toEqual([HAIKU, { effort: "high" }]);
    expect(JSON.stringify(second.messages)).not.toContain("names the model");
    expect([third.model, third.output_config]).toEqual([SESSION_MODEL, { effort: "medium" }]);
  });

  it("model: inherit keeps the session model", async () => {
    h = await startHarness({
      files: TREE,
      turns: [toolTurn("Skill", { skill: "inherit" }), textTurn("same")],
    });
    await h.send("go");
    expect(h.body(1).model).toBe(SESSION_MODEL);
  });

  it("disallowed-tools: Bash refuses Bash calls for the rest of the turn only; the tools array never changes", async () => {
    h = await startHarness({
      files: TREE,
      turns: [
        toolTurn("Skill", { skill: "nobash" }),
        toolTurn("Bash", { command: "echo sneaky" }),
        textTurn("ok"),
        textTurn("next turn"),
      ],
      session: { allowedTools: ["Bash(echo:*)"] },
    });
    await h.send("no shell please");
    await h.send("and now?");
    expect(toolNames(h.body(0))).toContain("Bash");
    for (const i of [1, 2, 3]) expect(JSON.stringify(h.body(i).tools)).toBe(JSON.stringify(h.body(0).tools));
    const refused = onlyResult(h, 2);
    expect(refused).toEqual({
      isError: true,
      text: 'The Bash tool is not available for the rest of this turn: the skill "nobash" disallows it (disallowed-tools). Continue without it.',
    });
  });

  it("allowed-tools: Bash(echo:*) lets echo run without asking for the turn; rm is still denied", async () => {
    h = await startHarness({
      files: TREE,
      turns: [
        // `echo` alone only reads (allowed without a grant, SPEC §14.8); writing a file needs the grant.
        toolTurn("Bash", { command: "echo before > before.txt" }),
        toolTurn("Skill", { skill: "echoer" }),
        toolTurn("Bash", { command: "echo hi" }),
        toolTurn("Bash", { command: "rm -rf build" }),
        textTurn("done"),
        toolTurn("Bash", { command: "echo after > after.txt" }),
        textTurn("done again"),
      ],
    });
    await h.send("echo things");
    const before = onlyResult(h, 1);
    expect(before.isError).toBe(true);
    // Headless, the refusal is Claude Code's text with our name (issue #27).
    const needsApproval = (cmd: string, file: string) =>
      `${cmd} in '${join(h?.cwd ?? "", file)}' needs approval. The path is inside the working directories for ` +
      `this session ('${h?.cwd}'), and skillwright asks before a shell command creates, changes or removes files there.`;
    expect(before.text).toBe(needsApproval("echo", "before.txt"));
    expect(onlyResult(h, 2)).toEqual({ text: "Launching skill: echoer", isError: false });
    const echoed = onlyResult(h, 3);
    expect(echoed.isError).toBe(false);
    expect(echoed.text.trim()).toBe("hi");
    const removed = onlyResult(h, 4);
    expect(removed.isError).toBe(true);
    expect(removed.text).toBe(needsApproval("rm", "build"));
    expect(await access(join(h.cwd, "build", "keep.txt")).then(() => true)).toBe(true);

    await h.send("one more echo");
    const after = onlyResult(h, 6);
    expect(after.isError).toBe(true);
    expect(after.text).toBe(needsApproval("echo", "after.txt"));
  });

  it("scoped disallowed-tools (Bash(rm:*)) deny matching commands for the turn; other commands still run", async () => {
    h = await startHarness({
      files: TREE,
      turns: [
        toolTurn("Skill", { skill: "guard" }),
        toolTurn("Bash", { command: "rm -f junk.txt" }),
        toolTurn("Bash", { command: "echo still" }),
        textTurn("done"),
      ],
      session: { allowedTools: ["Bash(rm:*)", "Bash(echo:*)"] },
    });
    await h.send("careful");
    expect(toolNames(h.body(1))).toContain("Bash");
    const denied = onlyResult(h, 2);
    expect(denied.isError).toBe(true);
    expect(denied.text).toContain("denied by the rule Bash(rm:*)");
    expect(onlyResult(h, 3)).toEqual({ text: "still", isError: false });
    expect(await access(join(h.cwd, "junk.txt")).then(() => true)).toBe(true);
  });

  it("a later skill's inline shell meets the same turn denials as the Bash tool", async () => {
    h = await startHarness({
      files: TREE,
      turns: [
        toolTurn("Skill", { skill: "guard" }),
        toolTurn("Skill", { skill: "cleaner" }),
        textTurn("done"),
      ],
    });
    await h.send("careful");
    const refused = onlyResult(h, 2);
    expect(refused.isError).toBe(true);
    expect(refused.text).toBe(
      'Shell command permission check failed for pattern "!`rm -f junk.txt`": ' +
        "Permission to use Bash(rm -f junk.txt) was denied by the rule Bash(rm:*).",
    );
    expect(await access(join(h.cwd, "junk.txt")).then(() => true)).toBe(true);
  });

  it("a grant covers only whole commands: `echo hi && rm …` is still denied", async () => {
    h = await startHarness({
      files: TREE,
      turns: [
        toolTurn("Skill", { skill: "echoer" }),
        toolTurn("Bash", { command: "echo hi && rm -rf build" }),
        toolTurn("Bash", { command: "echo $(rm -rf build)" }),
        textTurn("done"),
      ],
    });
    await h.send("sneak");
    expect(onlyResult(h, 2).isError).toBe(true);
    expect(onlyResult(h, 3).isError).toBe(true);
    expect(await access(join(h.cwd, "build", "keep.txt")).then(() => true)).toBe(true);
  });

  it("a scoped disallowed-tools rule on Skill (Skill(quick)) refuses that skill for the rest of the turn", async () => {
    h = await startHarness({
      files: TREE,
      turns: [
        toolTurn("Skill", { skill: "noskill" }),
        toolTurn("Skill", { skill: "quick" }),
        textTurn("done"),
        toolTurn("Skill", { skill: "quick" }),
        textTurn("done"),
      ],
    });
    await h.send("no quick");
    expect(onlyResult(h, 2)).toEqual({
      text: "<tool_use_error>Permission to use Skill(quick) was denied by the rule Skill(quick).</tool_use_error>",
      isError: true,
    });
    await h.send("quick now");
    expect(onlyResult(h, 4)).toEqual({ text: "Launching skill: quick", isError: false });
  });
});
