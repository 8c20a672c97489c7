// A long fork compacts its own conversation (SPEC §7, §8): when its tool results would take the next request past
// the auto-compaction share of its model's window, the fork's conversation is summarized (a request with the
// fork's agent id) and replaced by its listing, its task and the summary, and the fork goes on to its final
// answer, which the parent gets as the Skill tool result. Real session, real SDK, scripted model server.
import { afterEach, describe, expect, it } from "vitest";
import { AGENT_ID_HEADER, type ModelMessage } from "../../src/agent/model-types.js";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import { messagesTokens } from "../../src/session/compaction/tokens.js";
import { bigTool, fetchTurn, isSummary, loopIntact } from "../support/compaction-script.js";
import {
  bodyOf,
  type Harness,
  LISTING_HEADER,
  resultText,
  skillMd,
  startHarness,
  textBlocks,
  toolResults,
} from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";

/** A 200k-token model: auto-compaction at 160k tokens (SPEC §8). */
const MODEL = "claude-haiku-4-5";
const FORK = { agentId: "*" } as const;

const FILES = {
  "project/.claude/skills/research/SKILL.md": skillMd(
    "description: Researches the pages\ncontext: fork",
    "RESEARCH-TASK: fetch every page and report.",
  ),
  "project/.claude/skills/deploy/SKILL.md": skillMd("description: Deploys the app", "Deploy."),
  "project/.claude/skills/notes/SKILL.md": skillMd("description: Takes notes", "NOTES-BODY for $ARGUMENTS"),
  "project/.claude/settings.local.json": JSON.stringify({ permissions: { allow: ["Skill"] } }),
};

/** The harness of the running test, closed after it. */
let running: Harness | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/**
 * Starts the harness (the fork's tool returns `resultChars` chars a call) with `turns`, sends "go research" and
 * checks the main agent finished; resolves to the harness and the events.
 */
async function research(resultChars: number, turns: ScriptTurnInput[]) {
  const harness = await startHarness({
    files: FILES,
    session: { model: MODEL, extraTools: [bigTool(resultChars)] },
    turns,
  });
  running = harness;
  const events = await harness.send("go research");
  expect(events.at(-1)).toMatchObject({ type: "done", result: { text: "main done" } });
  return { h: harness, events };
}

describe("a fork compacts its own conversation near its window", () => {
  it("compacts before the request its tool results would overflow, and returns its final answer", async () => {
    const { h, events } = await research(350_000, [
      toolTurn("Skill", { skill: "research" }, { match: { agentId: null, lastUserTextIncludes: "go" } }),
      fetchTurn(["toolu_a", "toolu_b"], { ...FORK, lastUserTextIncludes: "RESEARCH-TASK" }),
      textTurn("FORK-SUMMARY", { ...FORK, systemIncludes: "You summarize conversations" }),
      fetchTurn(["toolu_c"], { ...FORK, lastUserTextIncludes: "FORK-SUMMARY" }),
      textTurn("FORK-ANSWER", { ...FORK, hasToolResultFor: "toolu_c" }),
      textTurn("main done", { agentId: null, hasToolResultFor: "Skill" }),
    ]);
    expect(events.filter((e) => e.type === "error" || e.type === "warning")).toEqual([]);

    // The fork's requests, the summary one included, carry its agent id; the main agent made two.
    const forkBodies = h.forkRequests().map((r) => bodyOf(r));
    expect(forkBodies.map(isSummary)).toEqual([false, true, false, false]);
    expect(new Set(h.forkRequests().map((r) => r.headers[AGENT_ID_HEADER])).size).toBe(1);
    expect(h.bodies()).toHaveLength(2);
    // The summary saw both big results (cut to fit).
    const summarized = JSON.stringify(forkBodies[1]?.messages);
    expect(summarized).toContain("toolu_a");
    expect(summarized).toContain("toolu_b");
    // The fork goes on from one message: its listing, its task, then the summary, well inside the window.
    const continued = forkBodies[2];
    if (continued === undefined) throw new Error("no continued fork request");
    expect(continued.messages).toHaveLength(1);
    const texts = textBlocks(continued.messages[0]?.content ?? "");
    expect(texts[0]?.startsWith(`<system-reminder>\n${LISTING_HEADER}`)).toBe(true);
    expect(texts[0]).toContain("- deploy: Deploys the app");
    const task = texts.findIndex((t) => t.includes("RESEARCH-TASK"));
    const summary = texts.findIndex((t) => t.includes("<summary>\nFORK-SUMMARY\n</summary>"));
    expect(task).toBeGreaterThan(0);
    expect(summary).toBeGreaterThan(task);
    expect(messagesTokens(continued.messages as ModelMessage[])).toBeLessThan(20_000);
    // Every tool_use keeps its tool_result in every request of the fork.
    for (const body of forkBodies) expect(loopIntact(body.messages as ModelMessage[])).toBe(true);
    expect(forkBodies[3]?.messages).toHaveLength(3);

    // The parent gets the fork's final answer as the Skill tool result.
    const [result] = toolResults(h.body(1));
    expect(result?.is_error).not.toBe(true);
    expect(resultText(result)).toContain('Skill "research" completed (forked execution).');
    expect(resultText(result)).toContain("Result:\nFORK-ANSWER");
  });

  it("re-attaches the skills the fork invoked, not the parent's, and sends them in full when invoked again", async () => {
    const { h } = await research(350_000, [
      toolTurn("Skill", { skill: "deploy" }, { match: { agentId: null, lastUserTextIncludes: "go" } }),
      toolTurn("Skill", { skill: "research" }, { match: { agentId: null, hasToolResultFor: "Skill" } }),
      toolTurn(
        "Skill",
        { skill: "notes", args: "v2" },
        { match: { ...FORK, lastUserTextIncludes: "RESEARCH" } },
      ),
      fetchTurn(["toolu_a", "toolu_b"], { ...FORK, hasToolResultFor: "Skill" }),
      textTurn("FORK-SUMMARY", { ...FORK, systemIncludes: "You summarize conversations" }),
      toolTurn(
        "Skill",
        { skill: "notes", args: "v2" },
        { match: { ...FORK, lastUserTextIncludes: "FORK-SUMMARY" } },
      ),
      textTurn("FORK-ANSWER", { ...FORK, hasToolResultFor: "Skill" }),
      textTurn("main done", { agentId: null, toolResultIncludes: "FORK-ANSWER" }),
    ]);
    const continued = h
      .forkRequests()
      .map((r) => bodyOf(r))
      .find((b) => !isSummary(b) && JSON.stringify(b.messages).includes("FORK-SUMMARY"));
    if (continued === undefined) throw new Error("no continued fork request");
    const text = textBlocks(continued.messages[0]?.content ?? "").join("\n");
    expect(text).toContain('## Skill "notes", previously invoked in this session');
    expect(text).toContain("NOTES-BODY");
    // The parent's inline skill was never in the fork's conversation: it is not re-attached there.
    expect(text).not.toContain('## Skill "deploy"');
    // The expansions the fork held are history now: invoked again, the skill is sent in full (SPEC §14.3).
    const last = h.forkRequests().at(-1);
    const again = bodyOf(last).messages.at(-1)?.content ?? "";
    expect(textBlocks(again).join("\n")).toContain("NOTES-BODY for v2");
    expect(JSON.stringify(again)).not.toContain("already loaded");
  });

  it("a failed summary warns once, keeps the fork's conversation and the fork still finishes", async () => {
    const { h, events } = await research(350_000, [
      toolTurn("Skill", { skill: "research" }, { match: { agentId: null, lastUserTextIncludes: "go" } }),
      fetchTurn(["toolu_a", "toolu_b"], { ...FORK, lastUserTextIncludes: "RESEARCH-TASK" }),
      textTurn("", { ...FORK, systemIncludes: "You summarize conversations" }),
      fetchTurn(["toolu_c"], { ...FORK, hasToolResultFor: "toolu_b" }),
      textTurn("FORK-ANSWER", { ...FORK, hasToolResultFor: "toolu_c" }),
      textTurn("main done", { agentId: null, hasToolResultFor: "Skill" }),
    ]);
    const warnings = events.filter((e) => e.type === "warning");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ message: "The model returned an empty summary." });
    expect(warnings[0]?.agentId).toBe(h.forkRequests()[0]?.headers[AGENT_ID_HEADER]);
    // Not tried again after the next round: one summary request in all.
    expect(h.allBodies().filter(isSummary)).toHaveLength(1);
    expect(resultText(toolResults(h.body(1))[0])).toContain("Result:\nFORK-ANSWER");
  });

  it("a fork whose tool results stay below the threshold does not compact", async () => {
    const { h } = await research(100_000, [
      toolTurn("Skill", { skill: "research" }, { match: { agentId: null, lastUserTextIncludes: "go" } }),
      fetchTurn(["toolu_a", "toolu_b"], { ...FORK, lastUserTextIncludes: "RESEARCH-TASK" }),
      textTurn("FORK-ANSWER", { ...FORK, hasToolResultFor: "toolu_b" }),
      textTurn("main done", { agentId: null, hasToolResultFor: "Skill" }),
    ]);
    expect(h.allBodies().filter(isSummary)).toHaveLength(0);
    expect(resultText(toolResults(h.body(1))[0])).toContain("Result:\nFORK-ANSWER");
  });
});
