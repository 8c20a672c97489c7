import { setImmediate as nextTurn } from "node:timers/promises";

/**
 * Longest a loop runs on the event loop before it lets other work in (other requests, turns, streams, a
 * deadline's timer). A loop over resolved promises never does on its own: only a macrotask turn lets timers
 * and I/O through.
 */
export const YIELD_SLICE_MS = 10;

/**
 * A yield point for a long loop: `await yieldPoint()` in each pass costs a clock read, and every
 * `sliceMs` (default `YIELD_SLICE_MS`) of work waits for the event loop's next turn. `now` is injected for tests
 * (default `performance.now`).
 */
export function createYieldPoint(
  sliceMs: number = YIELD_SLICE_MS,
  now: () => number = () => performance.now(),
): () => Promise<void> {
  let since = now();
  return async () => {
    if (now() - since < sliceMs) return;
    await nextTurn();
    since = now();
  };
}
