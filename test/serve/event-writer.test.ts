import { describe, expect, it } from "vitest";
import { createEventWriter } from "../../src/serve/sessions/event-writer.js";
import type { TranscriptRows } from "../../src/serve/store/session-transcripts.js";
import type { SessionEvent } from "../../src/serve/store/sessions.js";

// A served turn's events are written in coalesced batches: what is written while a batch is being stored
// goes in the next one (one INSERT and one NOTIFY each), in order, with ids known before they are stored.

type Call = {
  types: string[];
  status: string | undefined;
  ids: string[];
  transcript: TranscriptRows | undefined;
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
        _threads: unknown[],
        transcript?: TranscriptRows,
      ) =>
        new Promise<SessionEvent[]>((resolve, reject) => {
          calls.push({
            types: events.map((e) => e.type),
            status,
            ids,
            transcript,
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
  it("stores what is written in one turn of the event loop as one batch, and what comes during its write as the next", async () => {
    const { calls, io } = recordingIo();
    const writer = createEventWriter(io);
    const first = writer.write([{ type: "session.status_running" }], "running");
    expect(first.ids).toEqual(["sevt_1"]);
    const second = writer.write([{ type: "span.model_request_start" }]);
    expect(calls).toEqual([]);
    await tick();
    expect(calls.map((c) => c.types)).toEqual([["session.status_running", "span.model_request_start"]]);
    expect(calls[0]?.status).toBe("running");
    const third = writer.write([{ type: "agent.message" }, { type: "session.status_idle" }], "idle");
    await tick();
    expect(calls).toHaveLength(1);
    calls[0]?.done();
    await tick();
    expect(calls.map((c) => c.types)).toEqual([
      ["session.status_running", "span.model_request_start"],
      ["agent.message", "session.status_idle"],
    ]);
    expect(calls[1]?.status).toBe("idle");
    expect(calls[1]?.ids).toEqual(["sevt_3", "sevt_4"]);
    calls[1]?.done();
    await writer.flush();
    expect((await second.stored).map((e) => e.id)).toEqual(second.ids);
    expect((await third.stored).map((e) => e.type)).toEqual(["agent.message", "session.status_idle"]);
  });

  it("stores transcript rows with the events of their batch, in order, and tells each part the last seq", async () => {
    const { calls, io } = recordingIo();
    const writer = createEventWriter(io);
    const heard: number[] = [];
    const stored = (lastSeq: number) => heard.push(lastSeq);
    let recorded = false;
    const done = writer.record({ entries: ["user"], stored }).then(() => {
      recorded = true;
    });
    writer.write([{ type: "span.model_request_start" }]);
    writer.record({ entries: ["assistant", "tool"], stored });
    await tick();
    expect(calls.map((c) => c.types)).toEqual([["span.model_request_start"]]);
    expect(calls[0]?.transcript?.entries).toEqual(["user", "assistant", "tool"]);
    expect(recorded).toBe(false);
    calls[0]?.transcript?.stored(7);
    calls[0]?.done();
    await done;
    expect(heard).toEqual([7, 7]);
    // A batch of transcript rows alone is still one append, with no events.
    writer.record({ entries: ["hook"], stored });
    await tick();
    expect(calls[1]?.types).toEqual([]);
    expect(calls[1]?.transcript?.entries).toEqual(["hook"]);
    calls[1]?.done();
    await writer.flush();
  });

  it("reports a failed batch from flush, once, and goes on writing", async () => {
    const { calls, io } = recordingIo();
    const writer = createEventWriter(io);
    writer.write([{ type: "a" }]);
    await tick();
    calls[0]?.fail(new Error("database gone"));
    await expect(writer.flush()).rejects.toThrow("database gone");
    writer.write([{ type: "b" }]);
    await tick();
    calls[1]?.done();
    await expect(writer.flush()).resolves.toBeUndefined();
  });

  it("settles once everything queued before is written or failed, leaving a failure for flush", async () => {
    const { calls, io } = recordingIo();
    const writer = createEventWriter(io);
    const recorded = writer.record({ entries: ["user"], stored: () => {} });
    let settled = false;
    const waiting = writer.settled().then(() => {
      settled = true;
    });
    await tick();
    expect(calls).toHaveLength(1);
    expect(settled).toBe(false);
    calls[0]?.fail(new Error("database gone"));
    await waiting;
    await expect(recorded).rejects.toThrow("database gone");
    await expect(writer.flush()).rejects.toThrow("database gone");
    // Nothing queued: settled at once.
    await expect(writer.settled()).resolves.toBeUndefined();
  });
});
