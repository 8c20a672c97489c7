/**
 * What the model was given, read back from a transcript (issue #46): the listing blocks as sent and their
 * deltas, the skills' invocations (inline or forked) and expiries, and each tool call beside its result. The
 * served route over a real session is in test/serve/context-route.test.ts; here the decisions, on entries.
 */
import { describe, expect, it } from "vitest";
import type { ModelMessage } from "../../../src/agent/model-types.js";
import { formatListingBlock } from "../../../src/listing/block.js";
import { reattachInvokedSkills } from "../../../src/session/compaction/reattach.js";
import { modelInput } from "../../../src/session/skill-context/model-input.js";
import type { TranscriptEntry } from "../../../src/session/transcript-store.js";

let clock = 0;
const at = () => new Date(Date.UTC(2026, 0, 1, 0, 0, clock++)).toISOString();
const message = (message: ModelMessage, agentId?: string): TranscriptEntry => ({
  type: "message",
  message,
  at: at(),
  ...(agentId === undefined ? {} : { agentId }),
});
const text = (t: string) => ({ type: "text" as const, text: t });

const LISTING = formatListingBlock(["- keeper: Keeps the changelog", "- digger: Digs around"]);
const DELTA = formatListingBlock(["- newcomer: Arrived on reload"]);
const NOTE = "<system-reminder>The background fork fork-9 finished.\n\nall fine</system-reminder>";
const KEEPER_TEXT = "KEEPER-BODY keep the changelog tidy.";
const DIGGER_TASK = "DIGGER-TASK: look around and report.";

function session(): TranscriptEntry[] {
  return [
    { type: "session", id: "s", cwd: "/w", createdAt: at(), model: "m" },
    message({ role: "user", content: [text(LISTING), text("one")] }),
    message({
      role: "assistant",
      content: [{ type: "tool_use", id: "toolu_1", name: "Skill", input: { skill: "keeper" } }],
    }),
    { type: "skill", name: "keeper", args: "", text: KEEPER_TEXT, at: at() },
    message({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: "Launching skill: keeper" },
        text(KEEPER_TEXT),
      ],
    }),
    message({
      role: "assistant",
      content: [{ type: "tool_use", id: "toolu_2", name: "Skill", input: { skill: "digger", args: "deep" } }],
    }),
    { type: "skill", name: "digger", args: "deep", text: DIGGER_TASK, at: at() },
    // The fork's own conversation: its opening listing, then its task.
    message({ role: "user", content: [text(LISTING), text(`${DIGGER_TASK}\n\nARGUMENTS: deep`)] }, "fork-1"),
    message({ role: "assistant", content: [text("dug")] }, "fork-1"),
    message({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_2",
          content: [text("dug"), { type: "tool_reference", tool_name: "Grep" }],
          is_error: false,
        },
      ],
    }),
    message({ role: "assistant", content: [text("turn one done")] }),
    message({ role: "user", content: [text(DELTA), text(NOTE), text("two")] }),
    message({
      role: "assistant",
      content: [{ type: "tool_use", id: "toolu_3", name: "Bash", input: { command: "false" } }],
    }),
    message({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_3", content: "exit 1", is_error: true }],
    }),
    { type: "skill_expired", name: "keeper", at: at() },
    message({ role: "assistant", content: [{ type: "tool_use", id: "toolu_4", name: "Read", input: {} }] }),
  ];
}

describe("modelInput", () => {
  it("gives the listing as sent, then its deltas and other notes, each with its agent", () => {
    const input = modelInput(session());
    expect(input.reminders.map((r) => [r.kind, r.agentId ?? "main", r.text])).toEqual([
      ["listing", "main", LISTING],
      ["listing", "fork-1", LISTING],
      ["delta", "main", DELTA],
      ["other", "main", NOTE],
    ]);
  });

  it("tells an inline expansion from a fork by the fork's opening text, and records each expiry", () => {
    const input = modelInput(session());
    expect(input.skillEvents.map((e) => [e.kind, e.name, e.args, e.forkId])).toEqual([
      ["inline", "keeper", "", undefined],
      ["fork", "digger", "deep", "fork-1"],
      ["expired", "keeper", undefined, undefined],
    ]);
    expect(input.skills).toEqual([
      { name: "digger", listed: true, inline: 0, forks: 1, expired: 0, now: "forked" },
      { name: "keeper", listed: true, inline: 1, forks: 0, expired: 1, now: "expired" },
      { name: "newcomer", listed: true, inline: 0, forks: 0, expired: 0, now: "listed" },
    ]);
  });

  it("pairs each tool call with the result the model got; an error is marked, an unanswered call has none", () => {
    const calls = modelInput(session()).calls;
    expect(calls.map((c) => [c.id, c.name, c.result, c.isError])).toEqual([
      ["toolu_1", "Skill", "Launching skill: keeper", false],
      ["toolu_2", "Skill", "dug\n[tool Grep]", false],
      ["toolu_3", "Bash", "exit 1", true],
      ["toolu_4", "Read", undefined, false],
    ]);
    expect(calls[1]?.input).toEqual({ skill: "digger", args: "deep" });
  });

  it("after a compaction the main agent's next listing is a full listing again, the re-attached block its own kind", () => {
    const reattached = reattachInvokedSkills([{ name: "keeper", args: "", text: KEEPER_TEXT, at: 0 }]) ?? "";
    const entries: TranscriptEntry[] = [
      ...session(),
      { type: "compaction", summary: "sum", at: at() },
      message({ role: "user", content: [text("summary"), text(reattached), text(LISTING)] }),
    ];
    const input = modelInput(entries);
    expect(input.compactions).toHaveLength(1);
    expect(input.reminders.slice(-2).map((r) => r.kind)).toEqual(["reattached", "listing"]);
  });

  it("an empty transcript gives nothing", () => {
    expect(modelInput([])).toEqual({
      reminders: [],
      skillEvents: [],
      skills: [],
      calls: [],
      compactions: [],
    });
  });
});
