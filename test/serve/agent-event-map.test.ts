import { describe, expect, it } from "vitest";
import { emptyUsage } from "../../src/agent/events.js";
import type { AssistantMessage } from "../../src/agent/model-types.js";
import {
  type EventMapState,
  modelError,
  sessionEventsFor,
} from "../../src/serve/sessions/agent-event-map.js";

// A failed model request as served events: its span ends as an error, and the main agent's failure is a typed
// session.error that ends the turn (retry_status exhausted).

const state = (): EventMapState => ({
  requestStarts: new Map(),
  toolUses: new Map(),
  threads: new Map(),
  customTools: new Set(),
});

describe("a failed model request", () => {
  it("ends the open span as an error, then says why", () => {
    const s = state();
    s.requestStarts.set("main", "sevt_start");
    const out = sessionEventsFor({ type: "error", kind: "rate_limit", message: "slow down" }, s).map(
      (o) => o.event,
    );
    expect(out).toEqual([
      expect.objectContaining({
        type: "span.model_request_end",
        model_request_start_id: "sevt_start",
        is_error: true,
      }),
      {
        type: "session.error",
        error: {
          type: "model_rate_limited_error",
          message: "slow down",
          retry_status: { type: "exhausted" },
        },
      },
    ]);
    // The span is closed once.
    expect(s.requestStarts.has("main")).toBe(false);
  });

  it("of a forked skill ends its span only (the fork's result tells the main agent)", () => {
    const s = state();
    s.requestStarts.set("fork-1", "sevt_fork");
    const out = sessionEventsFor(
      { type: "error", agentId: "fork-1", kind: "overloaded", message: "busy" },
      s,
    );
    expect(out.map((o) => o.event.type)).toEqual(["span.model_request_end"]);
  });

  it.each([
    ["overloaded", "model_overloaded_error"],
    ["rate_limit", "model_rate_limited_error"],
    ["stream_cut", "model_request_failed_error"],
    ["server", "model_request_failed_error"],
    ["unknown", "unknown_error"],
  ])("kind %s is a %s", (kind, type) => {
    expect(modelError(kind, "m")).toMatchObject({ error: { type, retry_status: { type: "exhausted" } } });
  });
});

describe("a fork's events", () => {
  const forkState = () => {
    const s = state();
    s.threads.set("fork-1", { id: "sthr_fork", name: "research" });
    return s;
  };
  const message: AssistantMessage = {
    id: "msg_1",
    role: "assistant",
    model: "m",
    content: [{ type: "text", text: "found" }],
    stop_reason: "end_turn",
    usage: emptyUsage(),
  };

  it("carry the fork's session_thread_id: its spans, messages and tool calls", () => {
    const s = forkState();
    const start = sessionEventsFor({ type: "request_start", agentId: "fork-1", turn: 1, model: "m" }, s);
    expect(start).toEqual([
      {
        event: { type: "span.model_request_start", session_thread_id: "sthr_fork" },
        remember: { map: "requestStarts", key: "fork-1" },
      },
    ]);
    expect(
      sessionEventsFor({ type: "assistant_message", agentId: "fork-1", message }, s).map((o) => o.event),
    ).toEqual([
      { type: "agent.message", session_thread_id: "sthr_fork", content: [{ type: "text", text: "found" }] },
    ]);
    const use = sessionEventsFor(
      { type: "tool_start", agentId: "fork-1", id: "t1", name: "Read", input: {} },
      s,
    );
    expect(use).toEqual([
      {
        event: { type: "agent.tool_use", session_thread_id: "sthr_fork", name: "Read", input: {} },
        remember: { map: "toolUses", key: "t1" },
      },
    ]);
  });

  it("of an agent with no thread are only its spans, untagged", () => {
    const s = state();
    expect(sessionEventsFor({ type: "assistant_message", agentId: "fork-9", message }, s)).toEqual([]);
    expect(
      sessionEventsFor({ type: "tool_start", agentId: "fork-9", id: "t", name: "Read", input: {} }, s),
    ).toEqual([]);
    expect(
      sessionEventsFor({ type: "request_start", agentId: "fork-9", turn: 1, model: "m" }, s).map(
        (o) => o.event,
      ),
    ).toEqual([{ type: "span.model_request_start" }]);
  });
});
