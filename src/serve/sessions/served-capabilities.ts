import { createNodeFs, type FsOps } from "../../io/fs.js";
import { createMemoryFs } from "../../io/memory-fs.js";
import { createNoShell } from "../../io/no-shell.js";
import { createNodeShell, type ShellOps } from "../../io/shell.js";

/**
 * `serve --host-tools`: served sessions get the server's own file system and shell, in `cwd`. Commands start
 * with `PATH`, `HOME` = `home` and a UTF-8 locale only: none of the server's own environment (its API keys,
 * database URL) reaches them.
 */
export interface HostTools {
  cwd: string;
  home: string;
  /** `PATH` for commands; default `/usr/local/bin:/usr/bin:/bin`. */
  path?: string;
}

/** Why a served session runs no command: what the Skill tool, the hook runner and upload warnings say. */
export const SERVED_NO_SHELL =
  "skills served by skillwright serve run no shell: inline shell (!`…` and ```! blocks), command hooks and " +
  "scripts do not run on this server (its operator can allow them by starting it with --host-tools)";

/** Where a served session's engine looks and what it may touch. */
export interface ServedCapabilities {
  cwd: string;
  home: string;
  fs: FsOps;
  shell: ShellOps;
  /** Whether `fs` and `shell` are the host's: only then is Bash offered (the file tools always are, on `fs`). */
  hostTools: boolean;
}

/**
 * THE gate between a served session and the host: every process, host path or host environment a served
 * session can reach is handed in here, and nowhere else. Without `hostTools`: `fs` (the session's own file system
 * over its mounts, all in the database; an empty in-memory one when none is given) and a shell that starts
 * nothing, whose refusal ({@link SERVED_NO_SHELL}) reaches the model.
 * With it: the host's file system and a shell in `hostTools.cwd` with a small environment of its own.
 * `fs` replaces the in-memory file system (an embedder's own, e.g. one kept in the database); it is ignored
 * with `hostTools`.
 */
export function servedCapabilities(hostTools: HostTools | undefined, fs?: FsOps): ServedCapabilities {
  if (hostTools === undefined) {
    return {
      cwd: "/workspace",
      home: "/home",
      fs: fs ?? createMemoryFs(),
      shell: createNoShell(SERVED_NO_SHELL),
      hostTools: false,
    };
  }
  const env = {
    PATH: hostTools.path ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: hostTools.home,
    LANG: "C.UTF-8",
  };
  return {
    cwd: hostTools.cwd,
    home: hostTools.home,
    fs: createNodeFs(),
    shell: createNodeShell({ env }),
    hostTools: true,
  };
}
