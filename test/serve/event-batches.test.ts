import { describe, expect, it } from "vitest";
import { batchesOf } from "../../src/serve/events/event-batches.js";
import { sseMessage } from "../../src/serve/http/sse-message.js";

// A stream's events go to the socket one write per batch: what the follow hands out before the event loop's
// next turn (a stored batch comes as a burst of microtasks) is one batch; nothing is held back for more.

/** Items in bursts: each burst yielded back to back, a macrotask (a timer) between bursts. */
async function* bursts(groups: number[][], between: () => Promise<void>): AsyncGenerator<number> {
  for (const [i, group] of groups.entries()) {
    if (i > 0) await between();
    for (const item of group) yield item;
  }
}

const timer = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

describe("batchesOf", () => {
  it("groups what comes before the next turn of the event loop, in order", async () => {
    const out: number[][] = [];
    for await (const batch of batchesOf(bursts([[1, 2, 3], [4], [5, 6]], timer))) out.push(batch);
    expect(out).toEqual([[1, 2, 3], [4], [5, 6]]);
  });

  it("hands out the first item of a batch without waiting for a second that never comes", async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const source = bursts([[1], [2]], () => gate);
    const iterator = batchesOf(source)[Symbol.asyncIterator]();
    await expect(iterator.next()).resolves.toEqual({ done: false, value: [1] });
    const second = iterator.next();
    release();
    await expect(second).resolves.toEqual({ done: false, value: [2] });
    await expect(iterator.next()).resolves.toEqual({ done: true, value: undefined });
  });

  it("ends the source when the consumer leaves early", async () => {
    let ended = false;
    async function* source(): AsyncGenerator<number> {
      try {
        yield 1;
        await timer();
        yield 2;
      } finally {
        ended = true;
      }
    }
    for await (const batch of batchesOf(source())) {
      expect(batch).toEqual([1]);
      break;
    }
    await timer();
    await timer();
    expect(ended).toBe(true);
  });

  it("passes a failure of the source on", async () => {
    async function* failing(): AsyncGenerator<number> {
      yield 1;
      throw new Error("database gone");
    }
    const seen: number[][] = [];
    await expect(
      (async () => {
        for await (const batch of batchesOf(failing())) seen.push(batch);
      })(),
    ).rejects.toThrow("database gone");
    expect(seen).toEqual([[1]]);
  });
});

describe("sseMessage", () => {
  it("writes an event as hono's writeSSE did: event, one data line, id", () => {
    const event = { id: "sevt_1", type: "agent.message", processed_at: "t", content: [{ text: "a\nb" }] };
    expect(sseMessage(event)).toBe(`event: agent.message\ndata: ${JSON.stringify(event)}\nid: sevt_1\n\n`);
    expect(sseMessage(event).split("\n")).toHaveLength(5);
  });

  it("refuses a type or id with a line break", () => {
    expect(() => sseMessage({ id: "x", type: "a\nb", processed_at: "t" })).toThrow(/must not contain/);
  });
});
