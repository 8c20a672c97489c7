import type { FsOps } from "../io/fs.js";
import type { ShellOps } from "../io/shell.js";
import type { Sandbox } from "./sandbox.js";

/** What the host tier's model is told its commands run in. */
export const HOST_SANDBOX_DESCRIPTION =
  "Commands run on the host itself, unconfined: its real binaries, files and network, as the server's user.";

/**
 * The `host` tier: `fs` and `shell` are the host's own (`createNodeFs()`, `createNodeShell(…)`), handed in by
 * whoever decided the host may be used (`serve --host-tools`, the CLI). Nothing is confined.
 */
export function createHostSandbox(input: { fs: FsOps; shell: ShellOps; description?: string }): Sandbox {
  return {
    tier: "host",
    fs: input.fs,
    shell: input.shell,
    description: input.description ?? HOST_SANDBOX_DESCRIPTION,
  };
}
