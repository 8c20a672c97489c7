/** A single-consumer async queue: `push` from callbacks, iterate with `for await`. `close` ends it. */
export interface Channel<T> extends AsyncIterable<T> {
  push(value: T): void;
  close(error?: unknown): void;
}

/** Creates an unbounded channel. Values pushed after `close` are dropped. */
export function createChannel<T>(): Channel<T> {
  const buffer: T[] = [];
  let waiting: ((result: IteratorResult<T>) => void) | undefined;
  let failWaiting: ((error: unknown) => void) | undefined;
  let closed = false;
  let failure: { error: unknown } | undefined;
  return {
    push(value) {
      if (closed) return;
      if (waiting !== undefined) {
        const resolve = waiting;
        waiting = undefined;
        failWaiting = undefined;
        resolve({ value, done: false });
      } else buffer.push(value);
    },
    close(error) {
      if (closed) return;
      closed = true;
      if (error !== undefined) failure = { error };
      if (waiting !== undefined) {
        const resolve = waiting;
        const reject = failWaiting;
        waiting = undefined;
        failWaiting = undefined;
        if (failure !== undefined && reject !== undefined) reject(failure.error);
        else resolve({ value: undefined, done: true });
      }
    },
    [Symbol.asyncIterator]() {
      return {
        next(): Promise<IteratorResult<T>> {
          const value = buffer.shift();
          if (value !== undefined) return Promise.resolve({ value, done: false });
          if (closed) {
            return failure === undefined
              ? Promise.resolve({ value: undefined, done: true })
              : Promise.reject(failure.error);
          }
          return new Promise((resolve, reject) => {
            waiting = resolve;
            failWaiting = reject;
          });
        },
      };
    },
  };
}
