import type { ShellOps } from "./shell.js";

/** Why a session that was handed no shell refuses to run commands (a library session opened without `shell`). */
export const NO_SHELL_GIVEN =
  "this session was opened without a shell (pass `shell: createNodeShell()` to `openSession` to give it one)";

/** A command that a shell starting no process refused to run. */
export class ShellRefusedError extends Error {
  override readonly name = "ShellRefusedError";
  readonly reason: string;

  constructor(reason: string) {
    super(`not run: ${reason}`);
    this.reason = reason;
  }
}

/**
 * A shell that starts no process: every run rejects with {@link ShellRefusedError}, and `refusal` carries
 * `reason` so callers can answer before asking for permission. What a session gets when it was given no shell:
 * capabilities are handed in, never found on the host.
 */
export function createNoShell(reason: string = NO_SHELL_GIVEN): ShellOps {
  return {
    refusal: reason,
    run: () => Promise.reject(new ShellRefusedError(reason)),
  };
}
