import { describe, expect, it } from "vitest";
import { openSpans, type QueuedInput, queueStep, turnEnd } from "../../src/serve/sessions/turn-queue.js";
import type { SessionEvent } from "../../src/serve/store/sessions.js";

// The pure decisions of a session's queue: what runs next, what is dropped, and how a dead turn ends.

const event = (type: string, id: string, rest: Record<string, unknown> = {}): SessionEvent => ({
  id,
  type,
  processed_at: "2026-01-01T00:00:00.000Z",
  ...rest,
});
const input = (seq: number, type: "user.message" | "user.interrupt"): QueuedInput => ({
  seq,
  event: event(type, `e${seq}`),
});

describe("queueStep", () => {
  const cases: {
    name: string;
    inputs: QueuedInput[];
    archived?: boolean;
    drop: string[];
    take?: string;
    upTo: number;
  }[] = [
    { name: "nothing queued", inputs: [], drop: [], upTo: 0 },
    {
      name: "the oldest message runs first",
      inputs: [input(3, "user.message"), input(5, "user.message")],
      drop: [],
      take: "e3",
      upTo: 3,
    },
    {
      name: "an interrupt drops the messages before it and lets the next one run",
      inputs: [
        input(3, "user.message"),
        input(4, "user.message"),
        input(6, "user.interrupt"),
        input(7, "user.message"),
      ],
      drop: ["e3", "e4"],
      take: "e7",
      upTo: 7,
    },
    {
      name: "an interrupt alone is taken",
      inputs: [input(3, "user.message"), input(6, "user.interrupt")],
      drop: ["e3"],
      upTo: 6,
    },
    {
      name: "an archived session drops every message",
      inputs: [input(3, "user.message"), input(6, "user.interrupt"), input(7, "user.message")],
      archived: true,
      drop: ["e3", "e7"],
      upTo: 7,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const step = queueStep(c.inputs, c.archived ?? false);
      expect(step.drop.map((d) => d.input.event.id)).toEqual(c.drop);
      expect(step.take?.event.id).toBe(c.take);
      expect(step.upTo).toBe(c.upTo);
    });
  }
});

describe("turnEnd", () => {
  it("ends each span left open as an error, then says why and goes idle", () => {
    const events = [
      event("session.status_running", "r"),
      event("span.model_request_start", "s1"),
      event("span.model_request_end", "x1", { model_request_start_id: "s1", is_error: false }),
      event("span.model_request_start", "s2"),
    ];
    expect(openSpans(events)).toEqual(["s2"]);
    expect(turnEnd(events, "gone")).toEqual([
      expect.objectContaining({
        type: "span.model_request_end",
        model_request_start_id: "s2",
        is_error: true,
      }),
      {
        type: "session.error",
        error: { type: "unknown_error", message: "gone", retry_status: { type: "exhausted" } },
      },
      { type: "session.status_idle", stop_reason: { type: "retries_exhausted" }, stop_details: null },
    ]);
  });
});
