import type { FsOps } from "../io/fs.js";
import type { ShellOps } from "../io/shell.js";

/**
 * Where a session's code runs, from the most confined to the least: `none` runs nothing; `simulated` is a
 * simulated shell with WebAssembly interpreters over the session's own files (nothing on the host); `os` is the
 * host's real binaries confined by the operating system; `host` is the host, unconfined (only when an operator
 * or user says so).
 */
export const SANDBOX_TIERS = ["none", "simulated", "os", "host"] as const;
export type SandboxTier = (typeof SANDBOX_TIERS)[number];

/**
 * Whether and where a session may run code: one value handed to a session like its file system, never found.
 * `shell` is where Bash, a skill's inline shell and its command hooks run (tier `none`: a shell that starts
 * nothing, whose `refusal` says why); `fs` is the file system the file tools work on and the shell sees;
 * `description` tells the model, in a sentence or two, what its commands run in. Each tier is made by one file of
 * this folder, the only one that imports its engine; no tool tests the tier, only the builder of the built-in
 * tools decides what is offered from it.
 */
export interface Sandbox {
  readonly tier: SandboxTier;
  readonly fs: FsOps;
  readonly shell: ShellOps;
  readonly description: string;
  /**
   * Releases what the sandbox holds (a tier that keeps a worker or a process stops it). Optional: a tier that
   * holds nothing has none. A command run after it fails with a `startError`.
   */
  close?(): Promise<void>;
}
