import { Worker } from "node:worker_threads";

/**
 * Work that can spin in one synchronous step (a regular expression over a long line, a glob over a long name)
 * runs in a worker thread instead of on the event loop that serves everyone else: the worker is terminated when
 * its caller's `signal` aborts (its deadline or the user's interrupt), so a step that never ends costs a thread
 * until then, never the server.
 *
 * The worker's code is a CommonJS source text (`eval`), so it runs the same from `src/` under a test runner and
 * from the bundled `dist/bin`; it requires the packages it needs by the paths `modules` resolves. It answers each
 * request `{ id, body }` posted to it with `{ id, ok: true, body }` or `{ id, ok: false, error }`.
 */
export interface BoundedWorkerOptions {
  /** The worker's CommonJS source. `workerData` holds `{ modules, setup }`. */
  source: string;
  /** Module specifiers resolved to paths for the worker (`require(workerData.modules[name])`). */
  modules: Readonly<Record<string, string>>;
  /** What the worker sets itself up with (structured-cloned). */
  setup: unknown;
  /** Aborting it terminates the worker and rejects every pending request with the signal's reason. */
  signal: AbortSignal;
}

/** A worker thread serving requests one message each, until `close` or its signal. */
export interface BoundedWorker {
  /** Posts `body`; resolves with the worker's answer, rejects with its error or the signal's reason. */
  request(body: unknown): Promise<unknown>;
  /** Terminates the worker (idempotent). */
  close(): void;
}

/** The error a worker's own failure (not an abort) rejects with: its message, as the worker said it. */
export class WorkerTaskError extends Error {
  override readonly name = "WorkerTaskError";
}

/**
 * Starts a bounded worker. Requests are answered in order; a request after `close` or the abort rejects at once.
 */
export function startBoundedWorker(options: BoundedWorkerOptions): BoundedWorker {
  const { signal } = options;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  let nextId = 0;
  let closed: unknown;
  const worker = new Worker(options.source, {
    eval: true,
    workerData: { modules: options.modules, setup: options.setup },
    // The worker needs no stdin; its output would interleave with the server's own.
    stdin: false,
    stdout: true,
    stderr: true,
  });
  const failAll = (error: unknown) => {
    closed ??= error;
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  worker.on("message", (message: unknown) => {
    if (typeof message !== "object" || message === null || !("id" in message)) return;
    const id = typeof message.id === "number" ? message.id : -1;
    const waiter = pending.get(id);
    if (waiter === undefined) return;
    pending.delete(id);
    if ("ok" in message && message.ok === true) waiter.resolve("body" in message ? message.body : undefined);
    else waiter.reject(new WorkerTaskError("error" in message ? String(message.error) : "the worker failed"));
  });
  worker.on("error", (error) => failAll(error));
  worker.on("exit", () => failAll(new WorkerTaskError("the worker stopped")));
  const close = () => {
    signal.removeEventListener("abort", onAbort);
    failAll(new WorkerTaskError("the worker was closed"));
    void worker.terminate();
  };
  const onAbort = () => {
    failAll(signal.reason);
    void worker.terminate();
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  return {
    request(body) {
      if (closed !== undefined) return Promise.reject(closed);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, body });
      });
    },
    close,
  };
}
