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
  /** Set when the command never started (the cwd does not exist, no such shell): why. */
  startError?: string;
}

/**
 * Runs shell commands. The Node implementation uses execa; tests and embedders may supply their own. A session
 * given no shell gets one that starts nothing (`createNoShell`): its `refusal` says why, so the inline shell, the
 * hook runner and the Bash tool answer with that reason before asking anyone's permission.
 */
export interface ShellOps {
  run(command: string, options: ShellRunOptions): Promise<ShellResult>;
  /** Set on a shell that starts no process: why, in words for the model and the user. */
  readonly refusal?: string;
}

/** What {@link createNodeShell} starts its commands with. */
export interface NodeShellOptions {
  /**
   * The environment every command starts from (each run's `env` is added to it). Default: this process's own.
   * A server hands commands a small one of their own, so no secret of the server's reaches them.
   */
  env?: Record<string, string>;
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

/** Why `shell` could not start in `cwd`, from the spawn error. */
function startErrorOf(cause: unknown, shell: string, cwd: string): string {
  const code =
    typeof cause === "object" && cause !== null && "code" in cause ? String(cause.code) : undefined;
  if (code === "ENOENT")
    return `${shell} could not start in ${cwd}: the directory or ${shell} does not exist`;
  return `${shell} could not start in ${cwd}: ${cause instanceof Error ? cause.message : String(cause)}`;
}

/**
 * Runs each command in its own process group through execa, so a timeout or an abort kills the whole tree
 * (the shell and everything it started), not just the shell. Never rejects for a failing command.
 */
export function createNodeShell(shellOptions: NodeShellOptions = {}): ShellOps {
  const base = shellOptions.env;
  return {
    async run(command, options) {
      // Loaded on first use: execa costs ~90 ms of start-up that commands without a shell should not pay.
      const { execa } = await import("execa");
      const shell = options.shell ?? "bash";
      const child = execa(shell, ["-c", command], {
        cwd: options.cwd,
        env: base === undefined ? options.env : { ...base, ...options.env },
        extendEnv: base === undefined,
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
        const exitCode = typeof result.exitCode === "number" ? result.exitCode : undefined;
        // No exit code and no signal: the process never ran (spawn failed).
        const neverRan = exitCode === undefined && result.signal === undefined && !timedOut && !aborted;
        return {
          stdout: String(result.stdout ?? ""),
          stderr: String(result.stderr ?? ""),
          exitCode,
          timedOut,
          aborted,
          ...(neverRan ? { startError: startErrorOf(result.cause, shell, options.cwd) } : {}),
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
