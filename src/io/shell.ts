/** Where and how {@link ShellOps.run} runs a command. */
export interface ShellRunOptions {
  cwd: string;
  /** Added to the parent's environment. */
  env?: Record<string, string>;
  /** Text written to stdin; stdin is closed either way. */
  input?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** `bash` (default) or `sh`. */
  shell?: "bash" | "sh";
  /** Called with each chunk of stdout/stderr as it arrives. */
  onData?: (chunk: string, stream: "stdout" | "stderr") => void;
}

/** What a finished (or killed) command left behind. */
export interface ShellResult {
  stdout: string;
  stderr: string;
  /** Undefined when the process was killed by a signal. */
  exitCode: number | undefined;
  timedOut: boolean;
  aborted: boolean;
}

/** Runs shell commands. The Node implementation uses execa; tests and embedders may supply their own. */
export interface ShellOps {
  run(command: string, options: ShellRunOptions): Promise<ShellResult>;
}

/** Grace period between SIGTERM and SIGKILL when a process tree is stopped. */
export const KILL_GRACE_MS = 2_000;

function killTree(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group has already exited.
  }
}

/**
 * Runs each command in its own process group through execa, so a timeout or an abort kills the whole tree
 * (the shell and everything it started), not just the shell. Never rejects for a failing command.
 */
export function createNodeShell(): ShellOps {
  return {
    async run(command, options) {
      // Loaded on first use: execa costs ~90 ms of start-up that commands without a shell should not pay.
      const { execa } = await import("execa");
      const shell = options.shell ?? "bash";
      const child = execa(shell, ["-c", command], {
        cwd: options.cwd,
        env: options.env,
        extendEnv: true,
        input: options.input ?? "",
        detached: true,
        reject: false,
        all: false,
        stripFinalNewline: false,
        buffer: true,
      });
      let timedOut = false;
      let aborted = false;
      const stop = () => {
        killTree(child.pid, "SIGTERM");
        setTimeout(() => killTree(child.pid, "SIGKILL"), KILL_GRACE_MS).unref();
      };
      const onAbort = () => {
        aborted = true;
        stop();
      };
      if (options.signal?.aborted) onAbort();
      else options.signal?.addEventListener("abort", onAbort, { once: true });
      const timer =
        options.timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              timedOut = true;
              stop();
            }, options.timeoutMs);
      if (options.onData) {
        const onData = options.onData;
        child.stdout?.on("data", (b: Buffer) => onData(b.toString("utf8"), "stdout"));
        child.stderr?.on("data", (b: Buffer) => onData(b.toString("utf8"), "stderr"));
      }
      try {
        const result = await child;
        return {
          stdout: String(result.stdout ?? ""),
          stderr: String(result.stderr ?? ""),
          exitCode: typeof result.exitCode === "number" ? result.exitCode : undefined,
          timedOut,
          aborted,
        };
      } finally {
        if (timer) clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
        // Children that outlive the shell (e.g. `sleep 100 &`) belong to the tree too.
        if (timedOut || aborted) killTree(child.pid, "SIGKILL");
      }
    },
  };
}
