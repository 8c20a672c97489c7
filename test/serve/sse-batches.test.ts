import { describe, expect, it } from "vitest";
import { atHand, sseMessage } from "../../src/serve/http/sse-batches.js";

// A stream's events that are at hand together (one stored batch) go out in one write, in order; none waits for
// an event still to come.

/** A source that yields `first`, waits until `release` is called, then yields `second` (or throws `failure`). */
function gatedSource<T>(first: T[], second: T[], failure?: Error) {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  async function* source(): AsyncGenerator<T> {
    for (const value of first) yield value;
    await gate;
    if (failure !== undefined) throw failure;
    for (const value of second) yield value;
  }
  return { source: source(), release: () => release() };
}

describe("atHand", () => {
  it("groups what the source yields before the event loop turns, and hands out a group without waiting", async () => {
    const { source, release } = gatedSource([1, 2, 3], [4, 5]);
    const groups = atHand(source);
    expect(await groups.next()).toEqual({ done: false, value: [1, 2, 3] });
    const next = groups.next();
    release();
    expect(await next).toEqual({ done: false, value: [4, 5] });
    expect(await groups.next()).toEqual({ done: true, value: undefined });
  });

  it("hands out the group before a failure of the source, then the failure", async () => {
    const { source, release } = gatedSource(["a", "b"], [], new Error("database gone"));
    const groups = atHand(source);
    expect((await groups.next()).value).toEqual(["a", "b"]);
    const next = groups.next();
    release();
    await expect(next).rejects.toThrow("database gone");
  });

  it("ends at once on an empty source", async () => {
    async function* none(): AsyncGenerator<number> {}
    expect(await atHand(none()).next()).toEqual({ done: true, value: undefined });
  });
});

describe("sseMessage", () => {
  it("is the event's type, its JSON on one line and its id", () => {
    const event = { type: "agent.message", id: "sevt_1", content: [{ type: "text", text: "two\nlines" }] };
    expect(sseMessage(event)).toBe(`event: agent.message\ndata: ${JSON.stringify(event)}\nid: sevt_1\n\n`);
    expect(sseMessage({ type: "error" })).toBe('event: error\ndata: {"type":"error"}\n\n');
  });
});
