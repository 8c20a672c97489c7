import { describe, expect, it } from "vitest";
import { createEventWriter } from "../../src/serve/sessions/event-writer.js";
import type { SessionEvent } from "../../src/serve/store/sessions.js";

// A served turn's events are written in coalesced batches: what is written while a batch is being stored
// goes in the next one (one INSERT and one NOTIFY each), in order, with ids known before they are stored.

type Call = {
  types: string[];
  status: string | undefined;
  ids: string[];
  done: () => void;
  fail: (e: Error) => void;
};

function recordingIo() {
  const calls: Call[] = [];
  let n = 0;
  return {
    calls,
    io: {
      newId: () => `sevt_${++n}`,
      append: (
        events: ({ type: string } & Record<string, unknown>)[],
        status: string | undefined,
        ids: string[],
      ) =>
        new Promise<SessionEvent[]>((resolve, reject) => {
          calls.push({
            types: events.map((e) => e.type),
            status,
            ids,
            done: () =>
              resolve(
                events.map((e, i) => ({ ...e, id: ids[i] ?? "", processed_at: "2026-01-01T00:00:00.000Z" })),
              ),
            fail: reject,
          });
        }),
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("the coalescing event writer", () => {
  it("stores what is written during a batch's write as the next batch, in order, with the last status", async () => {
    const { calls, io } = recordingIo();
    const writer = createEventWriter(io);
    const first = writer.write([{ type: "session.status_running" }], "running");
    expect(first.ids).toEqual(["sevt_1"]);
    const second = writer.write([{ type: "span.model_request_start" }]);
    const third = writer.write([{ type: "agent.message" }, { type: "session.status_idle" }], "idle");
    expect(calls.map((c) => c.types)).toEqual([["session.status_running"]]);
    calls[0]?.done();
    await tick();
    expect(calls.map((c) => c.types)).toEqual([
      ["session.status_running"],
      ["span.model_request_start", "agent.message", "session.status_idle"],
    ]);
    expect(calls[1]?.status).toBe("idle");
    expect(calls[1]?.ids).toEqual(["sevt_2", "sevt_3", "sevt_4"]);
    calls[1]?.done();
    await writer.flush();
    expect((await second.stored).map((e) => e.id)).toEqual(second.ids);
    expect((await third.stored).map((e) => e.type)).toEqual(["agent.message", "session.status_idle"]);
  });

  it("reports a failed batch from flush, once, and goes on writing", async () => {
    const { calls, io } = recordingIo();
    const writer = createEventWriter(io);
    writer.write([{ type: "a" }]);
    calls[0]?.fail(new Error("database gone"));
    await expect(writer.flush()).rejects.toThrow("database gone");
    writer.write([{ type: "b" }]);
    await tick();
    calls[1]?.done();
    await expect(writer.flush()).resolves.toBeUndefined();
  });
});
