/**
 * Wake-ups for event streams: `notify(sessionId)` after events of that session are appended (by this
 * instance, or by another one as told through PostgreSQL NOTIFY) wakes every `wait` on it at once, instead of
 * at the end of its poll interval.
 */
export interface EventSignals {
  notify(sessionId: string): void;
  /**
   * A wait armed now: it resolves on a `notify` of `sessionId` made after this call (even before the wait
   * starts), after `ms`, or when `signal` aborts, whichever is first.
   */
  arm(sessionId: string): (ms: number, signal: AbortSignal) => Promise<void>;
}

/** An in-process {@link EventSignals}. */
export function createEventSignals(): EventSignals {
  const waiting = new Map<string, Set<() => void>>();
  const versions = new Map<string, number>();
  const wait = (sessionId: string, ms: number, signal: AbortSignal): Promise<void> =>
    new Promise((resolve) => {
      const wakers = waiting.get(sessionId) ?? new Set<() => void>();
      waiting.set(sessionId, wakers);
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        wakers.delete(done);
        if (wakers.size === 0 && waiting.get(sessionId) === wakers) waiting.delete(sessionId);
        resolve();
      }
      wakers.add(done);
      signal.addEventListener("abort", done, { once: true });
    });
  return {
    notify(sessionId) {
      versions.set(sessionId, (versions.get(sessionId) ?? 0) + 1);
      const wakers = waiting.get(sessionId);
      if (wakers === undefined) return;
      waiting.delete(sessionId);
      for (const wake of wakers) wake();
    },
    arm(sessionId) {
      const seen = versions.get(sessionId) ?? 0;
      return async (ms, signal) => {
        if ((versions.get(sessionId) ?? 0) !== seen) return;
        await wait(sessionId, ms, signal);
      };
    },
  };
}
