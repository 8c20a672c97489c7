import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/client";
import { execa } from "execa";
import { errorCode } from "../io/fs.js";
import { KILL_GRACE_MS } from "../io/shell.js";

/** How much of a server's stderr is kept (the end of it), for failure messages. */
export const STDERR_TAIL_CHARS = 2_000;

/** How long `close()` waits for a server to exit on its own after its stdin is closed. */
export const STDIN_CLOSE_GRACE_MS = 1_000;

/** How often the process group is checked while waiting for it to die. */
export const GROUP_POLL_MS = 25;

/** What the child process is started with. `env` is its whole environment (nothing else is inherited). */
export interface StdioServerParams {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd: string;
}

/** How the child process ended. */
export interface ProcessExit {
  code: number | undefined;
  signal: string | undefined;
  /** Set when the process could not be started (e.g. `spawn foo ENOENT`). */
  error?: string;
}

/** An MCP `Transport` over a child's stdin/stdout, plus what the manager needs to report and clean up. */
export interface StdioTransport extends Transport {
  /** The child's pid once started. */
  readonly pid: number | undefined;
  /** The last `STDERR_TAIL_CHARS` of the child's stderr. */
  stderrTail(): string;
  /** How the child ended, once it has. */
  exit(): ProcessExit | undefined;
  /** Stops the child's whole process group at once (SIGTERM, then SIGKILL after `KILL_GRACE_MS`). */
  terminate(): Promise<void>;
}

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const GROUPS = process.platform !== "win32";

function signalTree(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(GROUPS ? -pid : pid, signal);
    return true;
  } catch (error) {
    return errorCode(error) === "EPERM";
  }
}

async function waitUntil(done: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (!done()) {
    if (Date.now() >= until) return false;
    await sleep(GROUP_POLL_MS);
  }
  return true;
}

/**
 * A stdio transport that runs the server through execa in its own process group, so `close()` and
 * `terminate()` stop everything it started (an `npx` wrapper and the real server, their children), and keeps
 * stderr out of the host's terminal (its tail is kept for failure messages). `close()` closes stdin, waits
 * `STDIN_CLOSE_GRACE_MS` for the server to exit, then stops the group. `onclose` fires once, when the child
 * has exited. Rejects `start()` when the command cannot be spawned.
 */
export function createStdioTransport(params: StdioServerParams): StdioTransport {
  const buffer = new ReadBuffer();
  let child: ReturnType<typeof execa> | undefined;
  let exited: ProcessExit | undefined;
  let exitPromise: Promise<void> = Promise.resolve();
  let stderr = "";

  const groupGone = (pid: number) => !signalTree(pid, 0);
  const stopGroup = async (pid: number) => {
    signalTree(pid, "SIGTERM");
    if (!(await waitUntil(() => groupGone(pid), KILL_GRACE_MS))) signalTree(pid, "SIGKILL");
  };

  // A process that escaped the group (setsid) may hold stdout open: do not wait for it forever.
  const settled = () => Promise.race([exitPromise, sleep(KILL_GRACE_MS)]);

  const transport: StdioTransport = {
    get pid() {
      return child?.pid;
    },
    stderrTail: () => stderr,
    exit: () => exited,

    async start() {
      if (child !== undefined) throw new Error("StdioTransport already started");
      const proc = execa(params.command, [...params.args], {
        cwd: params.cwd,
        env: params.env,
        extendEnv: false,
        stdin: "pipe",
        stdout: "pipe",
        stderr: "pipe",
        detached: GROUPS,
        reject: false,
        buffer: false,
        stripFinalNewline: false,
      });
      child = proc;
      proc.stdout?.on("data", (chunk: Buffer | string) => {
        try {
          buffer.append(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
        } catch (error) {
          transport.onerror?.(asError(error));
          return;
        }
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = buffer.readMessage();
          } catch (error) {
            // A line that is not JSON-RPC (a server logging to stdout): report it and read on.
            transport.onerror?.(asError(error));
            continue;
          }
          if (message === null) break;
          transport.onmessage?.(message);
        }
      });
      proc.stderr?.on("data", (chunk: Buffer | string) => {
        stderr = (stderr + String(chunk)).slice(-STDERR_TAIL_CHARS);
      });
      proc.stdin?.on("error", (error) => transport.onerror?.(error));
      exitPromise = proc.then((result) => {
        exited = {
          code: typeof result.exitCode === "number" ? result.exitCode : undefined,
          signal: result.signal ?? undefined,
        };
        if (result.failed && result.exitCode === undefined && result.signal === undefined) {
          exited.error = result.shortMessage;
        }
        buffer.clear();
        transport.onclose?.();
      });
      await new Promise<void>((resolve, reject) => {
        proc.once("spawn", () => resolve());
        proc.once("error", reject);
      });
    },

    async send(message) {
      const stdin = child?.stdin;
      if (stdin === undefined || stdin === null || exited !== undefined || !stdin.writable) {
        throw new Error("Not connected");
      }
      if (!stdin.write(serializeMessage(message))) {
        await new Promise<void>((resolve) => stdin.once("drain", () => resolve()));
      }
    },

    async close() {
      const pid = child?.pid;
      if (child === undefined || pid === undefined) return;
      if (exited === undefined) {
        child.stdin?.end();
        await waitUntil(() => exited !== undefined, STDIN_CLOSE_GRACE_MS);
      }
      // Children the server left behind belong to its group too.
      if (!groupGone(pid)) await stopGroup(pid);
      await settled();
    },

    async terminate() {
      const pid = child?.pid;
      if (child === undefined || pid === undefined) return;
      if (!groupGone(pid)) await stopGroup(pid);
      await settled();
    },
  };
  return transport;
}
