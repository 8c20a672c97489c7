import type { BashOptions } from "just-bash";

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

/**
 * The program of the simulated sandbox's worker thread (CommonJS, evaluated with `eval: true`): one just-bash
 * shell whose file system and network are the main thread's, reached over messages (every file-system call,
 * one of {@link FORWARDED_FS_METHODS}, and every request of `curl` is a {@link CallRequest}, answered by a
 * {@link CallReply}). It runs each {@link RunRequest} and answers with `done`. It is text, not a function of this
 * module serialised with `toString()`, because the bundler renames and wraps functions (`keepNames`), and not a
 * file of its own, because the CLI runs from one bundle: the sandbox tests run it as it ships.
 */
export const SIMULATED_WORKER_SOURCE = `
"use strict";
const { parentPort: port, workerData: data } = require("node:worker_threads");
const { posix } = require("node:path");
let nextId = 0;
const pending = new Map();
function call(kind, method, args) {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    port.postMessage({ type: "call", id, kind, method, args });
  });
}
port.on("message", (message) => {
  if (message.type !== "reply") return;
  const waiting = pending.get(message.id);
  if (waiting === undefined) return;
  pending.delete(message.id);
  if (message.ok) waiting.resolve(message.value);
  else waiting.reject(Object.assign(new Error(message.message), { code: message.code }));
});
const fs = {
  resolvePath: (base, to) => posix.resolve(base, to),
  getAllPaths: () => [],
};
for (const method of ${JSON.stringify(FORWARDED_FS_METHODS)}) fs[method] = (...args) => call("fs", method, args);
function fetch(url, options) {
  const headers = options && options.headers instanceof Headers
    ? Object.fromEntries(options.headers.entries())
    : options && options.headers;
  return call("fetch", "fetch", [url, {
    method: options && options.method,
    headers,
    body: options && options.body,
  }]);
}
import(data.justBashUrl).then((justBash) => {
  const hostname = justBash.defineCommand("hostname", async () => ({
    stdout: data.hostName + "\\n",
    stderr: "",
    exitCode: 0,
  }));
  const bash = new justBash.Bash({
    fs,
    cwd: "/",
    python: true,
    executionLimits: data.executionLimits,
    customCommands: [hostname],
    ...(data.network ? { fetch } : {}),
  });
  async function run(request) {
    let result;
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
      // A redirection whose file cannot be written ends the script in just-bash: say it as bash would.
      const text = error instanceof Error ? error.message : String(error);
      const fsError = /^E[A-Z]+: ([^,]+), \\w+ '([^']*)'(.*)$/.exec(text);
      const line = fsError === null
        ? "bash: " + text
        : "bash: " + fsError[2] + ": " + fsError[1][0].toUpperCase() + fsError[1].slice(1) + fsError[3];
      result = { stdout: "", stderr: line + "\\n", exitCode: 1 };
    }
    port.postMessage({ type: "done", id: request.id, ...result });
  }
  port.on("message", (message) => {
    if (message.type === "run") void run(message);
  });
  port.postMessage({ type: "ready" });
});
`;
