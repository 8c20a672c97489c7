import type { FsOps } from "../io/fs.js";
import { createNoShell } from "../io/no-shell.js";
import type { Sandbox } from "./sandbox.js";

/**
 * The `none` tier: the file tools work on `fs`, and no command runs: the shell starts nothing and its refusal
 * (`reason`) is what Bash's absence, the inline shell and command hooks answer with.
 */
export function createNoSandbox(input: { fs: FsOps; reason: string }): Sandbox {
  return {
    tier: "none",
    fs: input.fs,
    shell: createNoShell(input.reason),
    description: `No command runs here: ${input.reason}.`,
  };
}
