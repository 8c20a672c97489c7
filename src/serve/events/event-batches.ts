/** Resolves at the event loop's next turn (after every pending microtask and I/O callback). */
export type NextTurn = () => Promise<void>;

const nextTurn: NextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * `items` grouped into batches: each batch is what `items` hands out before the event loop's next turn. A
 * session's stream gets each stored batch of events as a burst of microtasks (the store's batch, or the
 * watch's), so a batch here is one stored batch (or several, when they came together) and the SSE route writes
 * it to the socket once instead of once per event. Never holds an item back waiting for more: the first item of
 * a batch is awaited, the rest only until `turn` resolves; a failure of `items` comes after the batch
 * collected before it. Ending the iteration early ends `items` (once its pending item settles).
 */
export async function* batchesOf<T>(items: AsyncIterable<T>, turn: NextTurn = nextTurn): AsyncGenerator<T[]> {
  const iterator = items[Symbol.asyncIterator]();
  let next = iterator.next();
  let done = false;
  try {
    for (;;) {
      const first = await next;
      if (first.done === true) {
        done = true;
        return;
      }
      const batch = [first.value];
      next = iterator.next();
      const turned = turn().then(() => undefined);
      for (;;) {
        let more: IteratorResult<T> | undefined;
        try {
          more = await Promise.race([next, turned]);
        } catch (error) {
          // What came before the failure is handed out first, as it would have been one at a time.
          done = true;
          yield batch;
          throw error;
        }
        if (more === undefined) break;
        if (more.done === true) {
          done = true;
          yield batch;
          return;
        }
        batch.push(more.value);
        next = iterator.next();
      }
      yield batch;
    }
  } finally {
    if (!done) {
      // A `next` may still be pending (a follow waiting for events): `return` is queued after it, and the
      // source ends once that settles; not awaited, so that a consumer leaving never waits for the source.
      next.catch(() => undefined);
      iterator.return?.()?.catch(() => undefined);
    }
  }
}
