/**
 * What bounds one command of a simulated sandbox. Each is enforced where it is named: the deadline and the
 * worker's heap by the sandbox's worker, the file limits by its file-system adapter, the output by the shell
 * engine.
 */
export interface SandboxLimits {
  /** Wall-clock deadline of one command when the caller gives none (`ShellRunOptions.timeoutMs` wins). */
  commandTimeoutMs: number;
  /** stdout and stderr of one command together, in bytes: past it the command stops with an error. */
  maxOutputBytes: number;
  /** The size of one file a command writes, in bytes. */
  maxFileBytes: number;
  /** How many files (writes, appends, copies, directories made) one command may create or change. */
  maxFilesWritten: number;
  /** A path a command creates or writes, in UTF-8 bytes. */
  maxPathBytes: number;
  /** The segments of a path a command creates or writes (`/a/b` has two). */
  maxPathSegments: number;
  /** The JavaScript heap of the worker that runs the shell, in MB (WebAssembly memory is not counted in it). */
  workerHeapMb: number;
}

/**
 * The defaults: two minutes per command (the Bash tool's own default), 1 MiB of output, files of up to 10 MiB,
 * 1,000 files written per command, paths of 1,024 bytes (the memory stores' rule) and 64 segments.
 */
export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = {
  commandTimeoutMs: 120_000,
  maxOutputBytes: 1024 * 1024,
  maxFileBytes: 10 * 1024 * 1024,
  maxFilesWritten: 1_000,
  maxPathBytes: 1_024,
  maxPathSegments: 64,
  workerHeapMb: 256,
};

/** The defaults with `overrides` on top. Pure. */
export function sandboxLimitsOf(overrides: Partial<SandboxLimits> = {}): SandboxLimits {
  return { ...DEFAULT_SANDBOX_LIMITS, ...overrides };
}
