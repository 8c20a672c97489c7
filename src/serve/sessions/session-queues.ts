/**
 * Per-session work of one instance: a session's task (the drain of its queue) runs one at a time; a kick while
 * it runs makes it run once more after (kicks coalesce: at most one run waits).
 */
export interface SessionQueues {
  /** Runs `task` now when no task of the session runs here, else once more after the running one (a failure is reported). */
  kick(sessionId: string, task: () => Promise<void>): void;
  /** Whether a task of the session runs (or waits to run) on this instance. */
  has(sessionId: string): boolean;
  /** Resolves when no task of any session runs here. */
  idle(): Promise<void>;
}

/** Empty queues; `report` gets each task's failure. */
export function createSessionQueues(report: (error: unknown) => void): SessionQueues {
  const running = new Map<string, Promise<void>>();
  const again = new Map<string, () => Promise<void>>();
  const start = (sessionId: string, task: () => Promise<void>): void => {
    const run = (async () => {
      // A microtask later than `running.set` below, so the entry is always there to delete.
      await undefined;
      let next: (() => Promise<void>) | undefined = task;
      while (next !== undefined) {
        await next().catch(report);
        next = again.get(sessionId);
        again.delete(sessionId);
      }
      // In the same step as the last check: a kick after it starts a new run.
      running.delete(sessionId);
    })();
    running.set(sessionId, run);
  };
  return {
    kick(sessionId, task) {
      if (running.has(sessionId)) again.set(sessionId, task);
      else start(sessionId, task);
    },
    has: (sessionId) => running.has(sessionId),
    async idle() {
      while (running.size > 0) await Promise.all(running.values());
    },
  };
}
