import { Worker } from "node:worker_threads";

/**
 * Work that can spin in one synchronous step (a regular expression over a long line, a glob over a long name)
 * runs in a worker thread instead of on the event loop that serves everyone else. A caller leases a worker
 * with its call's `signal`: when that aborts (the call's deadline or the user's interrupt) the worker is
 * terminated, so a step that never ends costs a thread until then, never the server. A worker released in good
 * order waits for the next lease, idle, for `idleMs`, then ends; an idle worker never keeps the process alive.
 *
 * The worker's code is a CommonJS source text (`eval`), so it runs the same from `src/` under a test runner and
 * from the bundled `dist/bin`; it requires the packages it needs by the paths `modules` resolves. It answers each
 * request `{ id, body }` posted to it with `{ id, ok: true, body }` or `{ id, ok: false, error }`.
 */
export interface WorkerPoolOptions {
  /** The worker's CommonJS source. `workerData` holds `{ modules }`. */
  source: string;
  /** Module specifiers resolved to paths for the worker (`require(workerData.modules[name])`). */
  modules: Readonly<Record<string, string>>;
  /** How long a released worker waits for another lease. Default `WORKER_IDLE_MS`. */
  idleMs?: number;
}

/** How long a released worker waits for its next lease before it ends. */
export const WORKER_IDLE_MS = 30_000;

/** One lease of a worker, for one call. */
export interface WorkerLease {
  /** Posts `body`; resolves with the worker's answer, rejects with its error or the lease's signal's reason. */
  request(body: unknown): Promise<unknown>;
  /** Gives the worker back (idempotent): kept for the next lease when it is healthy, else terminated. */
  release(): void;
}

/** Leases worker threads running one source. */
export interface WorkerPool {
  /** A worker for a call: terminated when `signal` aborts. */
  lease(signal: AbortSignal): WorkerLease;
  /** Ends the idle worker. */
  close(): void;
}

/** The error a worker's own failure (not an abort) rejects with: its message, as the worker said it. */
export class WorkerTaskError extends Error {
  override readonly name = "WorkerTaskError";
}

/** A worker thread and the requests it has not answered yet. */
interface Thread {
  worker: Worker;
  pending: Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>;
  nextId: number;
  /** Set once the thread cannot serve: why its requests fail. */
  dead?: unknown;
}

function spawn(options: WorkerPoolOptions): Thread {
  const worker = new Worker(options.source, {
    eval: true,
    workerData: { modules: options.modules },
    // The worker needs no stdin; its output would interleave with the server's own.
    stdin: false,
    stdout: true,
    stderr: true,
  });
  const thread: Thread = { worker, pending: new Map(), nextId: 0 };
  worker.on("message", (message: unknown) => {
    if (typeof message !== "object" || message === null || !("id" in message)) return;
    const id = typeof message.id === "number" ? message.id : -1;
    const waiter = thread.pending.get(id);
    if (waiter === undefined) return;
    thread.pending.delete(id);
    if ("ok" in message && message.ok === true) waiter.resolve("body" in message ? message.body : undefined);
    else waiter.reject(new WorkerTaskError("error" in message ? String(message.error) : "the worker failed"));
  });
  worker.on("error", (error) => kill(thread, error));
  worker.on("exit", () => kill(thread, new WorkerTaskError("the worker stopped")));
  return thread;
}

/** Terminates `thread` and fails its pending requests with `why` (the first reason stays). */
function kill(thread: Thread, why: unknown): void {
  thread.dead ??= why;
  for (const { reject } of thread.pending.values()) reject(thread.dead);
  thread.pending.clear();
  void thread.worker.terminate();
}

/** A pool of at most one idle worker; each lease gets the idle one or a new one. */
export function createWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const idleMs = options.idleMs ?? WORKER_IDLE_MS;
  let idle: { thread: Thread; timer: NodeJS.Timeout } | undefined;

  const park = (thread: Thread) => {
    if (idle !== undefined || thread.dead !== undefined || thread.pending.size > 0) {
      kill(thread, new WorkerTaskError("the worker was released"));
      return;
    }
    thread.worker.unref();
    const timer = setTimeout(() => {
      if (idle?.thread === thread) idle = undefined;
      kill(thread, new WorkerTaskError("the worker was idle"));
    }, idleMs);
    timer.unref();
    idle = { thread, timer };
  };

  return {
    lease(signal) {
      let thread: Thread;
      if (idle !== undefined && idle.thread.dead === undefined) {
        clearTimeout(idle.timer);
        thread = idle.thread;
        idle = undefined;
      } else {
        thread = spawn(options);
      }
      thread.worker.ref();
      let released = false;
      const onAbort = () => kill(thread, signal.reason);
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
      return {
        request(body) {
          if (thread.dead !== undefined) return Promise.reject(thread.dead);
          if (released) return Promise.reject(new WorkerTaskError("the lease was released"));
          const id = thread.nextId++;
          return new Promise((resolve, reject) => {
            thread.pending.set(id, { resolve, reject });
            thread.worker.postMessage({ id, body });
          });
        },
        release() {
          if (released) return;
          released = true;
          signal.removeEventListener("abort", onAbort);
          park(thread);
        },
      };
    },
    close() {
      if (idle === undefined) return;
      clearTimeout(idle.timer);
      kill(idle.thread, new WorkerTaskError("the pool was closed"));
      idle = undefined;
    },
  };
}
