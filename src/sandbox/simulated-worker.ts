import type { posix } from "node:path";
import type { MessagePort } from "node:worker_threads";
import type { BashOptions, IFileSystem, SecureFetch } from "just-bash";

/** What the worker is started with (its `workerData`). */
export interface SimulatedWorkerData {
  /** The file URL of just-bash's ES module entry, resolved by the main thread. */
  justBashUrl: string;
  /** just-bash's limits for every command. */
  executionLimits: NonNullable<BashOptions["executionLimits"]>;
  /** Whether `curl` exists (its requests go to the main thread, which decides). */
  network: boolean;
  /** What `hostname` prints. */
  hostName: string;
}

/** A command for the worker to run. */
export interface RunRequest {
  type: "run";
  id: number;
  command: string;
  cwd: string;
  env: Record<string, string>;
  stdin: string;
}

/** A call of the worker to the main thread: a method of the file system, or a request of `curl`. */
export interface CallRequest {
  type: "call";
  id: number;
  kind: "fs" | "fetch";
  method: string;
  args: unknown[];
}

/** The main thread's answer to a {@link CallRequest}. */
export type CallReply =
  | { type: "reply"; id: number; ok: true; value: unknown }
  | { type: "reply"; id: number; ok: false; code: string | undefined; message: string };

/** What the worker says: it is ready, it needs a call answered, or a command ended. */
export type WorkerMessage =
  | { type: "ready" }
  | CallRequest
  | { type: "done"; id: number; stdout: string; stderr: string; exitCode: number };

/** The file-system methods the worker forwards to the main thread, each with its arguments. */
export const FORWARDED_FS_METHODS = [
  "readFile",
  "readFileBuffer",
  "writeFile",
  "appendFile",
  "exists",
  "stat",
  "lstat",
  "mkdir",
  "readdir",
  "readdirWithFileTypes",
  "rm",
  "cp",
  "mv",
  "chmod",
  "symlink",
  "link",
  "readlink",
  "realpath",
  "utimes",
] as const;

/** What {@link simulatedWorkerMain} is handed by the few lines that start it. */
export interface SimulatedWorkerDeps {
  port: MessagePort;
  data: SimulatedWorkerData;
  path: typeof posix;
  justBash: typeof import("just-bash");
}

/**
 * The body of the simulated sandbox's worker thread: one just-bash shell whose file system and network are the
 * main thread's, reached over messages (every file-system call and every request of `curl` is a
 * {@link CallRequest}, answered by a {@link CallReply}). It runs one {@link RunRequest} at a time and answers with
 * `done`. The function is serialised with `toString()` and evaluated in the worker, so it refers to nothing
 * outside itself: everything comes in `deps`.
 */
export function simulatedWorkerMain(deps: SimulatedWorkerDeps): void {
  const { port, data, path, justBash } = deps;
  let nextId = 0;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const call = (kind: "fs" | "fetch", method: string, args: unknown[]): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      port.postMessage({ type: "call", id, kind, method, args });
    });
  // The answer's shape is checked where it is made (the main thread's adapter), not again here.
  const forward =
    (method: (typeof FORWARDED_FS_METHODS)[number]) =>
    (...args: unknown[]): Promise<never> =>
      call("fs", method, args) as Promise<never>;
  const fs: IFileSystem = {
    readFile: forward("readFile"),
    readFileBuffer: forward("readFileBuffer"),
    writeFile: forward("writeFile"),
    appendFile: forward("appendFile"),
    exists: forward("exists"),
    stat: forward("stat"),
    lstat: forward("lstat"),
    mkdir: forward("mkdir"),
    readdir: forward("readdir"),
    readdirWithFileTypes: forward("readdirWithFileTypes"),
    rm: forward("rm"),
    cp: forward("cp"),
    mv: forward("mv"),
    chmod: forward("chmod"),
    symlink: forward("symlink"),
    link: forward("link"),
    readlink: forward("readlink"),
    realpath: forward("realpath"),
    utimes: forward("utimes"),
    resolvePath: (base, to) => path.resolve(base, to),
    getAllPaths: () => [],
  };
  const fetch: SecureFetch = (url, options) =>
    call("fetch", "fetch", [
      url,
      {
        method: options?.method,
        headers:
          options?.headers instanceof Headers
            ? Object.fromEntries(options.headers.entries())
            : options?.headers,
        body: options?.body,
      },
    ]) as Promise<never>;
  const bash = new justBash.Bash({
    fs,
    cwd: "/",
    python: true,
    executionLimits: data.executionLimits,
    customCommands: [
      justBash.defineCommand("hostname", async () => ({
        stdout: `${data.hostName}\n`,
        stderr: "",
        exitCode: 0,
      })),
    ],
    ...(data.network ? { fetch } : {}),
  });
  const run = async (request: RunRequest): Promise<void> => {
    let result: { stdout: string; stderr: string; exitCode: number };
    try {
      const done = await bash.exec(request.command, {
        cwd: request.cwd,
        env: request.env,
        replaceEnv: true,
        stdin: request.stdin,
        rawScript: true,
      });
      result = { stdout: done.stdout, stderr: done.stderr, exitCode: done.exitCode };
    } catch (error) {
      result = { stdout: "", stderr: `sandbox: ${String(error)}\n`, exitCode: 1 };
    }
    port.postMessage({ type: "done", id: request.id, ...result });
  };
  port.on("message", (message: RunRequest | CallReply) => {
    if (message.type === "run") {
      void run(message);
      return;
    }
    const waiting = pending.get(message.id);
    if (waiting === undefined) return;
    pending.delete(message.id);
    if (message.ok) waiting.resolve(message.value);
    else waiting.reject(Object.assign(new Error(message.message), { code: message.code }));
  });
  port.postMessage({ type: "ready" });
}
