/** A value that stands for "the iterator had nothing more at hand" in a race. */
const LATER = Symbol("later");

/** Resolves with {@link LATER} on the event loop's next turn: after every microtask queued before it. */
function nextTurn(): Promise<typeof LATER> {
  return new Promise((resolve) => setImmediate(resolve, LATER));
}

/**
 * `values` in groups: each group is a value and every value after it that the iterator yields before the event
 * loop turns (the rest of a batch it already holds), so that a consumer writes them at once. Order is kept;
 * no value waits for one that is not at hand. Ends when `values` does; a failure of `values` is thrown after
 * the group before it.
 */
export async function* atHand<T>(values: AsyncIterable<T>): AsyncGenerator<T[]> {
  const iterator = values[Symbol.asyncIterator]();
  let pending = iterator.next();
  try {
    for (;;) {
      const first = await pending;
      if (first.done === true) return;
      const group = [first.value];
      for (;;) {
        pending = iterator.next();
        const raced = await Promise.race([pending, nextTurn()]);
        // Not at hand: this group goes now, and the value still coming starts the next one.
        if (raced === LATER) break;
        if (raced.done === true) {
          yield group;
          return;
        }
        group.push(raced.value);
      }
      yield group;
    }
  } finally {
    await iterator.return?.();
  }
}

/** One server-sent event: `event: <type>`, the JSON data on one line, `id: <id>`, then a blank line. Pure. */
export function sseMessage(event: { type: string; id?: string }): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n${event.id === undefined ? "" : `id: ${event.id}\n`}\n`;
}
