import { describe, expect, it } from "vitest";
import { createUserWaits, type SessionIo } from "../../src/serve/sessions/await-action.js";
import type { SessionEvent } from "../../src/serve/store/sessions.js";

// A turn holds its session's turn lock from before its blocking event is stored until the answer is read,
// so that no other instance resumes a turn whose owner is alive.

/** A session in memory: appended events, and one follower fed by `answer`. */
function memorySession() {
  const log: string[] = [];
  let held = 0;
  let feed: ((event: SessionEvent) => void) | undefined;
  let n = 0;
  const stored = (event: { type: string } & Record<string, unknown>): SessionEvent => {
    n += 1;
    return { ...event, id: `sevt_${n}`, processed_at: new Date(0).toISOString() };
  };
  const io: SessionIo = {
    async append(events) {
      log.push(...events.map((e) => `append ${e.type} (lock held: ${held > 0})`));
      return events.map(stored);
    },
    async follow(signal) {
      const queue: SessionEvent[] = [];
      let wake: (() => void) | undefined;
      feed = (event) => {
        queue.push(event);
        wake?.();
      };
      signal.addEventListener("abort", () => wake?.(), { once: true });
      return {
        async *[Symbol.asyncIterator]() {
          while (!signal.aborted) {
            const next = queue.shift();
            if (next !== undefined) yield next;
            else await new Promise<void>((resolve) => (wake = resolve));
          }
        },
      };
    },
    lock: {
      async tryHold() {
        held += 1;
        log.push("hold");
        return true;
      },
      async release() {
        held -= 1;
        log.push("release");
      },
    },
  };
  return { io, log, held: () => held, answer: (event: SessionEvent) => feed?.(event) };
}

describe("a wait for the user", () => {
  it("holds the turn lock while it waits, from before the blocking event to the answer", async () => {
    const session = memorySession();
    const waits = createUserWaits(session.io);
    let blocked: string | undefined;
    const answered = waits.wait(
      {
        async blockOn() {
          const [use] = await session.io.append([{ type: "agent.custom_tool_use", name: "t", input: {} }]);
          blocked = use?.id;
          return use?.id ?? "";
        },
        answers: (event, id) => event.type === "user.custom_tool_result" && event.custom_tool_use_id === id,
      },
      new AbortController().signal,
    );
    while (blocked === undefined) await new Promise((resolve) => setImmediate(resolve));
    expect(session.held()).toBe(1);
    session.answer({
      type: "user.custom_tool_result",
      custom_tool_use_id: blocked,
      id: "sevt_answer",
      processed_at: "",
    });
    expect((await answered)?.id).toBe("sevt_answer");
    expect(session.held()).toBe(0);
    expect(session.log).toEqual([
      "hold",
      "append agent.custom_tool_use (lock held: true)",
      "append session.status_idle (lock held: true)",
      "append session.status_running (lock held: true)",
      "release",
    ]);
  });

  it("gives the lock back when the turn is interrupted", async () => {
    const session = memorySession();
    const waits = createUserWaits(session.io);
    const abort = new AbortController();
    const answered = waits.wait(
      {
        blockOn: async () => {
          queueMicrotask(() => abort.abort());
          return "sevt_x";
        },
        answers: () => false,
      },
      abort.signal,
    );
    expect(await answered).toBeUndefined();
    expect(session.held()).toBe(0);
  });
});
