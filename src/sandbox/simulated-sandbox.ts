import { posix } from "node:path";
import { Worker } from "node:worker_threads";
import type { IFileSystem } from "just-bash";
import type * as z from "zod";
import { errorCode, errorMessage, type FsOps } from "../io/fs.js";
import { isMissingPackage, missingPackageLine } from "../io/optional-package.js";
import type { ShellResult, ShellRunOptions } from "../io/shell.js";
import { type ResolveHost, resolveWithDns } from "../io/url-guard.js";
import { lazy } from "../lazy.js";
import { createBashFs } from "./bash-fs.js";
import type { Sandbox } from "./sandbox.js";
import { type SandboxLimits, sandboxLimitsOf } from "./sandbox-limits.js";
import {
  createSandboxFetch,
  NO_NETWORK,
  type SandboxNetwork,
  type SandboxResponse,
} from "./sandbox-network.js";
import {
  type CallRequest,
  FORWARDED_FS_METHODS,
  type RunRequest,
  SIMULATED_WORKER_SOURCE,
  type SimulatedWorkerData,
  type WorkerMessage,
} from "./simulated-worker.js";

/** How a simulated sandbox is made. */
export interface SimulatedSandboxOptions {
  /** Exactly what the sandbox's commands see; its mounts decide what is read-only. */
  fs: FsOps;
  /** What `curl` may reach (default: nothing). */
  network?: SandboxNetwork;
  /** How host names are resolved for the private-address rule (default: the system's resolver). */
  resolveHost?: ResolveHost;
  /** Bounds of each command (defaults: `DEFAULT_SANDBOX_LIMITS`). */
  limits?: Partial<SandboxLimits>;
  /** What the model is told its commands run in (default: {@link SIMULATED_DESCRIPTION}). */
  description?: string;
  /** How just-bash is found (default: `import.meta.resolve`, from this package's `node_modules`). */
  resolvePackage?: ResolvePackage;
}

/** How a package's name becomes the file URL of its entry: `import.meta.resolve`, or a test's stand-in. */
export type ResolvePackage = (name: string) => string;

/**
 * Where just-bash's entry is (`url`), or, when it is not installed (it is an optional dependency: `npm install
 * --omit=optional` leaves it out), the line saying what to install (`missing`). Only resolves the name: nothing of
 * just-bash is loaded until a worker starts. Any other failure throws.
 */
export function findJustBash(resolve?: ResolvePackage): { url: string } | { missing: string } {
  try {
    // The name spelled out: the bundle keeps it, and test/docs/dependencies-doc.test.ts finds it there.
    return { url: resolve === undefined ? import.meta.resolve("just-bash") : resolve("just-bash") };
  } catch (error) {
    if (isMissingPackage(error, "just-bash")) return { missing: missingPackageLine("just-bash") };
    throw error;
  }
}

/** A simulated sandbox: its worker is stopped by `close`. */
export interface SimulatedSandbox extends Sandbox {
  readonly tier: "simulated";
  close(): Promise<void>;
}

/** The host name every command sees (`hostname`, `$HOSTNAME`): never the host's. */
export const SIMULATED_HOST_NAME = "sandbox";

/** The whole environment a command starts from (a run's `env` is added to it): nothing of the host's. */
export const SIMULATED_ENV: Readonly<Record<string, string>> = {
  HOME: "/workspace",
  USER: "user",
  LOGNAME: "user",
  HOSTNAME: SIMULATED_HOST_NAME,
  PATH: "/usr/local/bin:/usr/bin:/bin",
  SHELL: "/bin/bash",
  LANG: "C.UTF-8",
  TERM: "dumb",
};

/**
 * The ceiling of just-bash's own clocks (the whole script, python3, sqlite3): one hour. The sandbox's deadline
 * (`SandboxLimits.commandTimeoutMs`, or a run's `timeoutMs`) stops a command first, by ending its worker.
 */
export const ENGINE_TIME_CEILING_MS = 3_600_000;

/**
 * The ceiling of just-bash's own counters (commands, loop iterations, awk, sed and jq loops, work units): a
 * billion, far past what a command can reach before its deadline, so the deadline is what ends a runaway loop
 * (with a timeout result) and a long finite loop is not cut short.
 */
export const ENGINE_COUNT_CEILING = 1_000_000_000;

/** What the model is told by default. */
export const SIMULATED_DESCRIPTION =
  "Commands run in a simulated bash (just-bash) over this session's files only: common Unix text tools, jq, " +
  "sqlite3 and python3 (CPython in WebAssembly, standard library only; no pip packages, no subprocess). " +
  "Nothing of the host machine is visible, and no other program can be started.";

/** One started worker and the calls it waits on. */
interface Slot {
  worker: Worker;
  ready: Promise<void>;
  /** Set for the command running now: where its calls and its end go. */
  current?: {
    id: number;
    fs: IFileSystem;
    /** Ends the command's requests still out when it ends. */
    requests: AbortController;
    settle: (message: { stdout: string; stderr: string; exitCode: number } | { died: string }) => void;
  };
  /** Why the worker is gone, once it is. */
  gone?: string;
}

const isForwarded = (method: string): method is (typeof FORWARDED_FS_METHODS)[number] =>
  (FORWARDED_FS_METHODS as readonly string[]).includes(method);

/**
 * A request of the worker's `curl`: the URL and what its fetch was given. Built on the first request (zod is loaded
 * then), so that `import("skillwright")` and a sandbox that never fetches load no zod.
 */
const fetchCall = lazy(async () => {
  const { z: zod } = await import("zod");
  return zod.tuple([
    zod.string(),
    zod.object({
      method: zod.string().optional(),
      headers: zod.record(zod.string(), zod.string()).optional(),
      body: zod.string().optional(),
    }),
  ]);
});
type FetchCall = z.infer<Awaited<ReturnType<typeof fetchCall>>>;

/** How the worker's requests are sent (created once per sandbox from its network). */
type Fetcher = (url: string, request: FetchCall[1] & { signal: AbortSignal }) => Promise<SandboxResponse>;

/** Answers one call of the worker against the running command's file system or network. */
async function answer(slot: Slot, request: CallRequest, fetch: Fetcher): Promise<void> {
  const reply = (value: { ok: true; value: unknown } | { ok: false; code?: string; message: string }) => {
    if (slot.gone === undefined) slot.worker.postMessage({ type: "reply", id: request.id, ...value });
  };
  const current = slot.current;
  if (current === undefined) return reply({ ok: false, code: "EIO", message: "EIO: no command is running" });
  try {
    if (request.kind === "fetch") {
      const parsed = (await fetchCall()).safeParse(request.args);
      if (!parsed.success) return reply({ ok: false, message: "a malformed request" });
      const [url, init] = parsed.data;
      return reply({ ok: true, value: await fetch(url, { ...init, signal: current.requests.signal }) });
    }
    if (!isForwarded(request.method)) {
      return reply({ ok: false, code: "ENOSYS", message: `ENOSYS: ${request.method}` });
    }
    const method = current.fs[request.method] as (...args: unknown[]) => Promise<unknown>;
    reply({ ok: true, value: await method.apply(current.fs, request.args) });
  } catch (error) {
    reply({ ok: false, code: errorCode(error), message: errorMessage(error) });
  }
}

/** A result for a command that did not finish. */
function stopped(why: "timedOut" | "aborted" | "died", text: string): ShellResult {
  return {
    stdout: "",
    stderr: `${text}\n`,
    exitCode: undefined,
    timedOut: why === "timedOut",
    aborted: why === "aborted",
  };
}

/**
 * The simulated tier: a simulated bash (just-bash, with python3, sqlite3 and jq) over `options.fs` and nothing
 * else, in a Node worker thread so that a runaway script never holds up the caller's event loop. Every file
 * call of the shell comes back to this thread and is answered by `options.fs` through `createBashFs` (bounded
 * by the limits). Commands of one sandbox run one at a time, in order. Each has a wall-clock deadline (the
 * run's `timeoutMs`, else `limits.commandTimeoutMs`): past it, or on `signal`'s abort, the worker is
 * terminated, the command answers `timedOut` (or `aborted`) with a line saying so, and a fresh worker is
 * started for the next command. The worker starts with the first command and is kept warm between commands;
 * `close` stops it. No process is
 * started and no host file, variable or name is seen: the environment is {@link SIMULATED_ENV}. Throws, saying
 * what to install, when just-bash (an optional dependency) is not installed: nothing falls back to the host.
 */
export function createSimulatedSandbox(options: SimulatedSandboxOptions): SimulatedSandbox {
  const justBash = findJustBash(options.resolvePackage);
  if ("missing" in justBash) throw new Error(justBash.missing);
  const limits = sandboxLimitsOf(options.limits);
  const data: SimulatedWorkerData = {
    justBashUrl: justBash.url,
    executionLimits: {
      maxOutputSize: limits.maxOutputBytes,
      // Counts that end a loop are set far past what the deadline lets run: the deadline bounds time, and a
      // script's long but finite loop (a while-read over a large file) is not cut at just-bash's 100,000.
      maxCommandCount: ENGINE_COUNT_CEILING,
      maxLoopIterations: ENGINE_COUNT_CEILING,
      maxAwkIterations: ENGINE_COUNT_CEILING,
      maxSedIterations: ENGINE_COUNT_CEILING,
      maxJqIterations: ENGINE_COUNT_CEILING,
      maxWorkUnits: ENGINE_COUNT_CEILING,
      maxExecutionTimeMs: ENGINE_TIME_CEILING_MS,
      maxPythonTimeoutMs: ENGINE_TIME_CEILING_MS,
      maxSqliteTimeoutMs: ENGINE_TIME_CEILING_MS,
      maxJsTimeoutMs: ENGINE_TIME_CEILING_MS,
    },
    network: (options.network ?? NO_NETWORK).mode !== "none",
    hostName: SIMULATED_HOST_NAME,
  };
  const fetch = createSandboxFetch(options.network ?? NO_NETWORK, {
    resolve: options.resolveHost ?? resolveWithDns,
  });
  let slot: Slot | undefined;
  let closed = false;
  let nextRun = 0;
  let queue: Promise<unknown> = Promise.resolve();

  const start = (): Slot => {
    const worker = new Worker(SIMULATED_WORKER_SOURCE, {
      eval: true,
      workerData: data,
      env: {},
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: limits.workerHeapMb },
    });
    worker.stdout.resume();
    worker.stderr.resume();
    worker.unref();
    let markReady: () => void = () => {};
    let fail: (error: Error) => void = () => {};
    const made: Slot = {
      worker,
      ready: new Promise<void>((resolve, reject) => {
        markReady = resolve;
        fail = reject;
      }),
    };
    made.ready.catch(() => {});
    const end = (why: string) => {
      if (made.gone !== undefined) return;
      made.gone = why;
      fail(new Error(why));
      made.current?.settle({ died: why });
      if (slot === made) slot = undefined;
    };
    worker.on("message", (message: WorkerMessage) => {
      if (message.type === "ready") markReady();
      else if (message.type === "call") void answer(made, message, fetch);
      else if (message.type === "done" && made.current?.id === message.id) made.current.settle(message);
    });
    worker.on("error", (error) => end(`the sandbox's worker failed: ${errorMessage(error)}`));
    worker.on("exit", (code) => end(`the sandbox's worker exited (code ${code})`));
    return made;
  };

  const runNow = async (command: string, run: ShellRunOptions): Promise<ShellResult> => {
    if (closed) return { ...stopped("died", ""), stderr: "", startError: "the sandbox was closed" };
    if (run.signal?.aborted) return stopped("aborted", "sandbox: the command was aborted before it started");
    const fs = createBashFs(options.fs, limits);
    const cwd = posix.resolve("/", run.cwd);
    const cwdKind = await options.fs.stat(cwd).then(
      (s) => s.kind,
      () => undefined,
    );
    if (cwdKind !== "dir") {
      return {
        ...stopped("died", ""),
        stderr: "",
        startError: `bash could not start in ${cwd}: no such directory`,
      };
    }
    const current = slot ?? start();
    slot = current;
    const timeoutMs = run.timeoutMs ?? limits.commandTimeoutMs;
    current.worker.ref();
    try {
      const result = await new Promise<ShellResult>((resolve) => {
        const finish = (result: ShellResult) => {
          clearTimeout(timer);
          run.signal?.removeEventListener("abort", onAbort);
          current.current?.requests.abort();
          current.current = undefined;
          resolve(result);
        };
        const kill = (result: ShellResult) => {
          current.gone ??= "stopped";
          if (slot === current) slot = undefined;
          void current.worker.terminate();
          finish(result);
        };
        const timer = setTimeout(
          () =>
            kill(
              stopped(
                "timedOut",
                `sandbox: the command was stopped after ${timeoutMs} ms, its deadline; files it wrote before then are kept`,
              ),
            ),
          timeoutMs,
        );
        const onAbort = () => kill(stopped("aborted", "sandbox: the command was aborted"));
        run.signal?.addEventListener("abort", onAbort, { once: true });
        const id = nextRun++;
        current.current = {
          id,
          fs,
          requests: new AbortController(),
          settle: (message) =>
            finish(
              "died" in message
                ? stopped("died", `sandbox: ${message.died}`)
                : {
                    stdout: message.stdout,
                    stderr: message.stderr,
                    exitCode: message.exitCode,
                    timedOut: false,
                    aborted: false,
                  },
            ),
        };
        const request: RunRequest = {
          type: "run",
          id,
          command,
          cwd,
          env: { ...SIMULATED_ENV, PWD: cwd, ...run.env },
          stdin: run.input ?? "",
        };
        current.ready.then(
          () => current.worker.postMessage(request),
          () => {},
        );
      });
      if (result.stdout !== "") run.onData?.(result.stdout, "stdout");
      if (result.stderr !== "") run.onData?.(result.stderr, "stderr");
      return result;
    } finally {
      if (slot === current) current.worker.unref();
      // A killed worker is replaced at once, so that the next command finds one warm.
      if (slot === undefined && !closed) slot = start();
    }
  };

  // Not started until the first command: a served session gets a sandbox whether or not its agent ever runs
  // one, and a worker thread booting node and the shell costs tens of ms of CPU (issue 47: the first turns of
  // many sessions at once each paid it, outside the main thread's profile). The first command waits for it.
  return {
    tier: "simulated",
    fs: options.fs,
    description: options.description ?? SIMULATED_DESCRIPTION,
    shell: {
      run(command, run) {
        const result = queue.then(() => runNow(command, run));
        queue = result.catch(() => {});
        return result;
      },
    },
    async close() {
      closed = true;
      const last = slot;
      slot = undefined;
      if (last !== undefined) {
        last.gone ??= "closed";
        await last.worker.terminate();
      }
    },
  };
}
