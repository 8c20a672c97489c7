import { assertNever } from "../../diagnostics.js";
import { createNodeFs, type FsOps } from "../../io/fs.js";
import { createMemoryFs } from "../../io/memory-fs.js";
import { createNodeShell } from "../../io/shell.js";
import { createHostSandbox } from "../../sandbox/host-sandbox.js";
import { createNoSandbox } from "../../sandbox/no-sandbox.js";
import { createOsSessionSandbox, type SessionMount } from "../../sandbox/os-session-sandbox.js";
import type { Sandbox } from "../../sandbox/sandbox.js";
import type { SandboxLimits } from "../../sandbox/sandbox-limits.js";
import type { SandboxNetwork } from "../../sandbox/sandbox-network.js";
import { createSimulatedSandbox } from "../../sandbox/simulated-sandbox.js";
import { DEFAULT_SERVE_SANDBOX, type ServeSandboxTier } from "./served-sandbox-tier.js";

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
  "skills served by skillwright serve --sandbox none run no shell: inline shell (!`…` and ```! blocks), command " +
  "hooks and scripts do not run on this server (its operator can run them in the simulated sandbox, the " +
  "default, or on the host with --host-tools)";

/** The working directory of a served session's commands and file tools without `--host-tools`. */
export const SERVED_CWD = "/workspace";

/** How served sessions run code: the operator's choice at start-up, the same for every session. */
export interface ServedSandboxChoice {
  /** `serve --host-tools`: the host, unconfined (wins over `tier`). */
  hostTools?: HostTools;
  /** `serve --sandbox` (default {@link DEFAULT_SERVE_SANDBOX}). */
  tier?: ServeSandboxTier;
  /** The simulated tier's limits in place of its defaults (`serve --sandbox-timeout-ms`, tests). */
  limits?: Partial<SandboxLimits>;
  /** What the `os` tier uses of the host (required with `tier: "os"`). */
  os?: OsTierHost;
  /**
   * Why tier `none` runs nothing when it stands in for a tier that cannot run here (serve's default, the simulated
   * sandbox, without its optional package just-bash: the line saying what to install). Its sessions keep Bash, and
   * every call of it answers with this line. Absent (`--sandbox none` chosen): {@link SERVED_NO_SHELL}, and no Bash.
   */
  noShellReason?: string;
}

/** What a served session's `os`-tier commands use of the host: serve checked bubblewrap is on `path`. */
export interface OsTierHost {
  /** The host folder each command's private copy of the session's files is made in (e.g. the OS temp folder). */
  scratchDir: string;
  /** `PATH` bubblewrap is started with (never the commands' own). */
  path: string;
}

/** Where a served session's engine looks and what it may touch. */
export interface ServedCapabilities {
  cwd: string;
  home: string;
  /** Where its code runs and the files its tools work on: `sandbox.fs`. */
  sandbox: Sandbox;
  /**
   * Whether the session is offered Bash: where its shell runs commands, and where tier `none` stands in for a
   * tier that cannot run here (each call then answers with `choice.noShellReason`).
   */
  bashTool: boolean;
}

/** The sandbox of `tier` over the session's `fs`. */
function tierSandbox(
  tier: ServeSandboxTier,
  choice: ServedSandboxChoice,
  session: { fs: FsOps; network: SandboxNetwork; mounts?: readonly SessionMount[] },
): Sandbox {
  const { fs } = session;
  switch (tier) {
    case "none":
      return createNoSandbox({ fs, reason: choice.noShellReason ?? SERVED_NO_SHELL });
    case "simulated":
      return createSimulatedSandbox({ fs, network: session.network, limits: choice.limits });
    case "os": {
      const host = choice.os;
      if (host === undefined) throw new Error("the os tier needs its host folder and PATH (choice.os)");
      return createOsSessionSandbox({
        fs,
        mounts: session.mounts ?? [{ path: SERVED_CWD, writable: true }],
        scratchDir: host.scratchDir,
        network: session.network,
        hostShell: createNodeShell({ env: { PATH: host.path, LANG: "C.UTF-8" } }),
      });
    }
    default:
      return assertNever(tier);
  }
}

/**
 * THE gate between a served session and the host: every process, host path or host environment a served
 * session can reach is handed in here, and nowhere else. Without `hostTools`: `fs` (the session's own file
 * system over its mounts, all in the database; an empty in-memory one when none is given) and the tier's shell
 * over it: `simulated` (default) runs bash and python3 in WebAssembly over `fs` alone, with `network` (its
 * environment's); `os` runs the host's binaries under bubblewrap over a private copy of `mounts`, with `network` through a
 * proxy of the session's own; `none` starts nothing, and its
 * refusal ({@link SERVED_NO_SHELL}, or `choice.noShellReason`) reaches the model.
 * With it: the host's file system and a shell in `hostTools.cwd` with a small environment of its own.
 */
export function servedCapabilities(
  choice: ServedSandboxChoice,
  session: { fs?: FsOps; network: SandboxNetwork; mounts?: readonly SessionMount[] },
): ServedCapabilities {
  const hostTools = choice.hostTools;
  if (hostTools === undefined) {
    const fs = session.fs ?? createMemoryFs();
    const tier = choice.tier ?? DEFAULT_SERVE_SANDBOX;
    const sandbox = tierSandbox(tier, choice, { ...session, fs });
    const bashTool = sandbox.shell.refusal === undefined || choice.noShellReason !== undefined;
    return { cwd: SERVED_CWD, home: "/home", sandbox, bashTool };
  }
  const env = {
    PATH: hostTools.path ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: hostTools.home,
    LANG: "C.UTF-8",
  };
  return {
    cwd: hostTools.cwd,
    home: hostTools.home,
    sandbox: createHostSandbox({ fs: createNodeFs(), shell: createNodeShell({ env }) }),
    bashTool: true,
  };
}
