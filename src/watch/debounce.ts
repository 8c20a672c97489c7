/** The timer a debouncer uses: injected so tests fire it themselves. */
export interface Timers {
  /** Runs `run` after `ms`; returns a function that cancels it. */
  setTimeout(run: () => void, ms: number): () => void;
}

/** Node's timers; a pending timer does not keep the process alive (`unref`). */
export function createNodeTimers(): Timers {
  return {
    setTimeout: (run, ms) => {
      const timer = setTimeout(run, ms).unref();
      return () => clearTimeout(timer);
    },
  };
}

/** Runs `run` once, `delayMs` after the last of a burst of `trigger()` calls. */
export interface Debouncer {
  trigger(): void;
  /** Forgets a pending run. */
  cancel(): void;
}

/** A trailing-edge debouncer over injected timers: every `trigger` pushes the run back by `delayMs`. */
export function createDebouncer(options: { delayMs: number; timers: Timers; run: () => void }): Debouncer {
  let cancelPending: (() => void) | undefined;
  const cancel = () => {
    cancelPending?.();
    cancelPending = undefined;
  };
  return {
    trigger() {
      cancel();
      cancelPending = options.timers.setTimeout(() => {
        cancelPending = undefined;
        options.run();
      }, options.delayMs);
    },
    cancel,
  };
}
