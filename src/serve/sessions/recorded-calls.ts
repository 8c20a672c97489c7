/**
 * One turn's tool calls and the storing of each one's use event (`agent.tool_use`, `agent.mcp_tool_use`): the
 * engine waits on {@link RecordedCalls.ready} before a call runs, so the event log, the audit trail, never misses
 * a call that ran. Calls are named by a key (see {@link callKey}).
 */
export interface RecordedCalls {
  /** The use event of call `key` was written; `stored` settles when its batch is stored (or is refused). */
  written(key: string, stored: Promise<unknown>): void;
  /**
   * The engine's decision on call `key` was handled (its use event written by now, if it has one: a custom
   * tool's call tells its own event, a call of an agent the session does not show has none).
   */
  decided(key: string): void;
  /**
   * Resolves once call `key` may run: its decision was handled and its use event, if any, is stored. Rejects
   * with the store's error when the event's batch was refused, and when `signal` aborts or the turn ends first.
   */
  ready(key: string, signal: AbortSignal): Promise<void>;
  /** The turn ended: every call still waiting is refused, and nothing is kept. */
  close(): void;
}

/** The key of the call `callId` of agent `agentId` (undefined: the main agent). Pure. */
export function callKey(agentId: string | undefined, callId: string): string {
  return `${agentId ?? ""} ${callId}`;
}

interface Waiter {
  resolve(): void;
  reject(error: Error): void;
}

/** Recorded calls for one turn. */
export function createRecordedCalls(): RecordedCalls {
  const stores = new Map<string, Promise<unknown>>();
  const decided = new Set<string>();
  const waiting = new Map<string, Waiter>();
  let closed = false;
  const untilDecided = (key: string, signal: AbortSignal): Promise<void> => {
    if (decided.has(key)) return Promise.resolve();
    if (closed) return Promise.reject(new Error("the turn ended before the call was recorded"));
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        waiting.delete(key);
        reject(new Error("the turn was stopped before the call was recorded"));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      waiting.set(key, {
        resolve() {
          signal.removeEventListener("abort", onAbort);
          resolve();
        },
        reject(error) {
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      });
    });
  };
  return {
    written(key, stored) {
      // Observed here so a refused batch is never an unhandled rejection; `ready` reports it.
      stored.catch(() => {});
      stores.set(key, stored);
    },
    decided(key) {
      decided.add(key);
      waiting.get(key)?.resolve();
      waiting.delete(key);
    },
    async ready(key, signal) {
      try {
        await untilDecided(key, signal);
        await stores.get(key);
      } finally {
        decided.delete(key);
        stores.delete(key);
      }
    },
    close() {
      closed = true;
      for (const waiter of waiting.values())
        waiter.reject(new Error("the turn ended before the call was recorded"));
      waiting.clear();
      stores.clear();
      decided.clear();
    },
  };
}
