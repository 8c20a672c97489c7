/** A command that failed: its exit code and what it wrote on stderr. */
export class ProcessError extends Error {
  constructor(
    readonly command: string,
    readonly exitCode: number | undefined,
    readonly stderr: string,
  ) {
    super(
      `${command} failed${exitCode === undefined ? "" : ` (exit ${exitCode})`}: ${stderr.trim() || "no output"}`,
    );
    this.name = "ProcessError";
  }
}

/** Runs a program with arguments (no shell). Throws {@link ProcessError} when it fails or cannot start. */
export type RunProcess = (
  command: string,
  args: readonly string[],
  options: { cwd?: string; signal?: AbortSignal },
) => Promise<{ stdout: string }>;

/** How long one git or npm command may take. */
export const PROCESS_TIMEOUT_MS = 300_000;

/**
 * {@link RunProcess} through execa with exactly `env` (git never prompts for a password: `GIT_TERMINAL_PROMPT=0`).
 * execa loads on first use.
 */
export function createProcessRunner(env: Record<string, string | undefined>): RunProcess {
  return async (command, args, options) => {
    const { execa } = await import("execa");
    const result = await execa(command, [...args], {
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      env: { ...env, GIT_TERMINAL_PROMPT: "0" },
      extendEnv: false,
      reject: false,
      stdin: "ignore",
      timeout: PROCESS_TIMEOUT_MS,
      ...(options.signal === undefined ? {} : { cancelSignal: options.signal }),
    });
    const line = `${command} ${args.join(" ")}`;
    if (result.failed) {
      const stderr =
        String(result.stderr ?? "") || (result.cause instanceof Error ? result.cause.message : "");
      throw new ProcessError(line, result.exitCode, stderr);
    }
    return { stdout: String(result.stdout) };
  };
}
