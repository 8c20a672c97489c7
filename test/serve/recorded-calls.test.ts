import { describe, expect, it } from "vitest";
import { callKey, createRecordedCalls } from "../../src/serve/sessions/recorded-calls.js";

// Issue #39 item 3: a served tool call waits for its use event to be stored before it runs.

/** A promise and its settlers. */
function deferred() {
  let resolve: (value: unknown) => void = () => {};
  let reject: (error: Error) => void = () => {};
  const promise = new Promise<unknown>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/** Whether `promise` has settled once pending callbacks have run. */
async function settled(promise: Promise<unknown>): Promise<"pending" | "resolved" | "rejected"> {
  let state: "pending" | "resolved" | "rejected" = "pending";
  promise.then(
    () => {
      state = "resolved";
    },
    () => {
      state = "rejected";
    },
  );
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
  return state;
}

describe("createRecordedCalls", () => {
  const signal = () => new AbortController().signal;

  it("a call is ready once its decision is handled and its use event's batch is stored, in either order", async () => {
    const calls = createRecordedCalls();
    const key = callKey(undefined, "toolu_1");
    const ready = calls.ready(key, signal());
    const batch = deferred();
    expect(await settled(ready)).toBe("pending");
    calls.written(key, batch.promise);
    calls.decided(key);
    expect(await settled(ready)).toBe("pending");
    batch.resolve([]);
    expect(await settled(ready)).toBe("resolved");

    const early = callKey("agent-1", "toolu_2");
    calls.written(early, Promise.resolve([]));
    calls.decided(early);
    expect(await settled(calls.ready(early, signal()))).toBe("resolved");
  });

  it("a call with no use event (a custom tool's) is ready once decided", async () => {
    const calls = createRecordedCalls();
    const ready = calls.ready(callKey(undefined, "toolu_c"), signal());
    calls.decided(callKey(undefined, "toolu_c"));
    expect(await settled(ready)).toBe("resolved");
  });

  it("a refused batch, an abort or the turn's end refuses the call", async () => {
    const calls = createRecordedCalls();
    const refusedKey = callKey(undefined, "toolu_r");
    const batch = deferred();
    calls.written(refusedKey, batch.promise);
    calls.decided(refusedKey);
    batch.reject(new Error("invalid byte sequence"));
    await expect(calls.ready(refusedKey, signal())).rejects.toThrow("invalid byte sequence");

    const stop = new AbortController();
    const aborted = calls.ready(callKey(undefined, "toolu_a"), stop.signal);
    stop.abort();
    await expect(aborted).rejects.toThrow(/stopped before the call was recorded/);

    const left = calls.ready(callKey(undefined, "toolu_l"), signal());
    calls.close();
    await expect(left).rejects.toThrow(/ended before the call was recorded/);
    await expect(calls.ready(callKey(undefined, "toolu_after"), signal())).rejects.toThrow(/ended/);
  });

  it("keys tell the main agent's calls from a fork's with the same id", () => {
    expect(callKey(undefined, "toolu_x")).not.toBe(callKey("fork-1", "toolu_x"));
  });
});
