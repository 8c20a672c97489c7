import type { Timers } from "../../src/watch/debounce.js";

/** Timers that fire only when the test says so. */
export interface ManualTimers extends Timers {
  /** How many timers are set and not yet fired or cancelled. */
  pending(): number;
  /** Fires every pending timer (in the order they were set). */
  fireAll(): void;
}

/** Creates {@link ManualTimers}. */
export function createManualTimers(): ManualTimers {
  const queue = new Set<() => void>();
  return {
    setTimeout(run) {
      const entry = () => run();
      queue.add(entry);
      return () => queue.delete(entry);
    },
    pending: () => queue.size,
    fireAll() {
      const due = [...queue];
      queue.clear();
      for (const run of due) run();
    },
  };
}
