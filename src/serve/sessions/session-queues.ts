/** Per-session task queues of one instance: a session's tasks (turns, resumptions) run one at a time, in order. */
export interface SessionQueues {
  /** Runs `task` after the session's earlier tasks on this instance (a failure is logged, not thrown). */
  enqueue(sessionId: string, task: () => Promise<void>): void;
  /** Whether a task of the session is queued or running on this instance. */
  has(sessionId: string): boolean;
}

/** Empty queues; `report` gets each task's failure. */
export function createSessionQueues(report: (error: unknown) => void): SessionQueues {
  const queues = new Map<string, Promise<void>>();
  return {
    enqueue(sessionId, task) {
      const previous = queues.get(sessionId) ?? Promise.resolve();
      const next = previous
        .then(task)
        .catch(report)
        .finally(() => {
          if (queues.get(sessionId) === next) queues.delete(sessionId);
        });
      queues.set(sessionId, next);
    },
    has: (sessionId) => queues.has(sessionId),
  };
}
