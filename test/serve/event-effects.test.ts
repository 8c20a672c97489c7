import { describe, expect, it } from "vitest";
import { batchEffects, onThreadStream, threadStatusOf } from "../../src/serve/store/event-effects.js";

// What an appended batch changes besides the event log: every span end's usage adds to the session, a fork's
// also to its thread; thread status events set their thread's status; which thread's stream an event is on.

const end = (usage: Record<string, unknown>, thread?: string) => ({
  type: "span.model_request_end",
  model_usage: usage,
  ...(thread === undefined ? {} : { session_thread_id: thread }),
});
const u = (input: number, output: number, read = 0, write = 0) => ({
  input_tokens: input,
  output_tokens: output,
  cache_read_input_tokens: read,
  cache_creation_input_tokens: write,
});

describe("batchEffects", () => {
  it("sums every span end into the session's usage and a fork's into its thread's", () => {
    const effects = batchEffects([
      end(u(100, 10, 5, 7)),
      { type: "agent.message", session_thread_id: "sthr_a", content: [] },
      end(u(200, 20), "sthr_a"),
      end(u(1, 2, 3, 4), "sthr_b"),
      end(u(300, 30, 50)),
    ]);
    expect(effects.usage).toEqual(u(601, 62, 58, 11));
    expect([...effects.threads]).toEqual([
      ["sthr_a", { usage: u(200, 20) }],
      ["sthr_b", { usage: u(1, 2, 3, 4) }],
    ]);
  });

  it("ignores counts that are not whole non-negative numbers", () => {
    expect(
      batchEffects([end({ input_tokens: -3, output_tokens: "9", cache_read_input_tokens: 2.7 })]).usage,
    ).toEqual(u(0, 0, 2, 0));
  });

  it("keeps each thread's last status in the batch", () => {
    const effects = batchEffects([
      { type: "session.thread_status_running", session_thread_id: "sthr_a" },
      { type: "session.thread_status_idle", session_thread_id: "sthr_a" },
      { type: "session.thread_status_terminated", session_thread_id: "sthr_a" },
      { type: "session.thread_status_rescheduled", session_thread_id: "sthr_b" },
    ]);
    expect(effects.threads.get("sthr_a")?.status).toBe("terminated");
    expect(effects.threads.get("sthr_b")?.status).toBe("rescheduling");
    expect(effects.usage).toEqual(u(0, 0));
  });
});

describe("threadStatusOf", () => {
  it.each([
    ["session.thread_status_running", "running"],
    ["session.thread_status_idle", "idle"],
    ["session.thread_status_terminated", "terminated"],
    ["session.thread_status_rescheduled", "rescheduling"],
    ["session.thread_created", undefined],
    ["session.status_idle", undefined],
  ])("%s → %s", (type, status) => {
    expect(threadStatusOf(type)).toBe(status);
  });
});

describe("onThreadStream", () => {
  const own = { type: "agent.message", session_thread_id: "sthr_a" };
  const status = { type: "session.thread_status_idle", session_thread_id: "sthr_a" };
  const main = { type: "agent.message" };
  it.each([
    [own, "sthr_a", true],
    [status, "sthr_a", true],
    [main, "sthr_a", false],
    [own, null, false],
    [status, null, true],
    [main, null, true],
  ])("%o on %s: %s", (event, thread, expected) => {
    expect(onThreadStream(event, thread)).toBe(expected);
  });
});
