import { describe, expect, it } from "vitest";
import type { AgentResult } from "../../src/agent/events.js";
import { emptyUsage } from "../../src/agent/events.js";
import { threadEnded, threadStarted } from "../../src/serve/sessions/fork-threads.js";

// A fork's start and end as its child thread's events, in the SDK's names and fields.

const thread = { id: "sthr_fork", name: "research" };
const result = (cause: AgentResult["cause"], text = ""): AgentResult => ({
  text,
  cause,
  turns: 1,
  usage: emptyUsage(),
  toolsUsed: [],
});

describe("threadStarted", () => {
  it("creates an inline-agent thread under its parent and says created, then running", () => {
    const started = threadStarted(
      {
        type: "fork_start",
        agentId: "fork-1",
        skill: "research",
        agentType: "general-purpose",
        model: "m-1",
      },
      thread,
      "sthr_parent",
      { type: "service_account" },
    );
    expect(started.thread).toMatchObject({
      id: "sthr_fork",
      parentThreadId: "sthr_parent",
      agentName: "research",
      agent: {
        type: "inline",
        name: "research",
        model: { id: "m-1" },
        execution_identity: { type: "service_account" },
      },
    });
    expect(started.events).toEqual([
      {
        type: "session.thread_created",
        session_thread_id: "sthr_fork",
        agent_name: "research",
        workflow_run_id: null,
      },
      { type: "session.thread_status_running", session_thread_id: "sthr_fork", agent_name: "research" },
    ]);
  });
});

describe("threadEnded", () => {
  const types = (r: AgentResult) =>
    threadEnded({ type: "fork_end", agentId: "fork-1", skill: "research", result: r }, thread).map((e) => [
      e.type,
      e.stop_reason,
    ]);
  it.each([
    ["an answer", result("end_turn", "found"), [["session.thread_status_idle", { type: "end_turn" }]]],
    [
      "no answer",
      result("end_turn", " "),
      [
        ["session.thread_status_idle", { type: "retries_exhausted" }],
        ["session.thread_status_terminated", undefined],
      ],
    ],
    [
      "an error",
      result("error"),
      [
        ["session.thread_status_idle", { type: "retries_exhausted" }],
        ["session.thread_status_terminated", undefined],
      ],
    ],
    [
      "the turn limit",
      result("max_turns", "partial"),
      [
        ["session.thread_status_idle", { type: "retries_exhausted" }],
        ["session.thread_status_terminated", undefined],
      ],
    ],
    ["an abort", result("aborted"), [["session.thread_status_terminated", undefined]]],
  ])("%s", (_name, r, expected) => {
    expect(types(r)).toEqual(expected);
  });
});
