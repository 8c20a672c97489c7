import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import type { SandboxRuntimeConfig } from "@anthropic-ai/sandbox-runtime";
import type { FsOps } from "../io/fs.js";
import { importOptional } from "../io/optional-package.js";
import type { ShellOps, ShellResult, ShellRunOptions } from "../io/shell.js";
import { commandContentMatches, splitCommand } from "../permissions/rules.js";
import type { Sandbox } from "./sandbox.js";

/** What the OS tier confines commands to: where they may write and read, and what they may reach. */
export interface OsSandboxPolicy {
  /** Writable paths (absolute): the project, `--add-dir`s, settings' `allowWrite`. Everything else is read-only. */
  allowWrite: readonly string[];
  denyWrite: readonly string[];
  denyRead: readonly string[];
  allowRead: readonly string[];
  /** Hosts commands may reach through the runtime's proxy; none: no network. */
  allowedDomains: readonly string[];
  deniedDomains: readonly string[];
  /**
   * Addresses (CIDR) an allowed host name must not resolve to, on top of the runtime's own (loopback, link-local,
   * this machine's addresses, cloud metadata): serve passes the private ranges.
   */
  deniedResolvedAddresses?: readonly string[];
  allowUnixSockets: readonly string[];
  allowAllUnixSockets: boolean;
  allowLocalBinding: boolean;
  enableWeakerNestedSandbox: boolean;
}

/** The runtime's dependency check: errors stop the sandbox, warnings do not. */
export interface OsDependencyCheck {
  errors: string[];
  warnings: string[];
}

/**
 * The part of `@anthropic-ai/sandbox-runtime` the tier uses, as a port (tests and embedders may pass their own).
 * The runtime is one per process: `initialize` starts its filtering proxies, `reset` stops them.
 */
export interface OsSandboxRuntime {
  checkDependencies(): OsDependencyCheck;
  /** Rejects with the runtime's message when the config is not valid. */
  initialize(config: SandboxRuntimeConfig): Promise<void>;
  /** `command` as a command line for `shell -c` that runs it under the sandbox. */
  wrap(command: string, shell: "bash" | "sh", signal: AbortSignal | undefined): Promise<string>;
  /** Clears what the last wrapped command left (mount points bubblewrap created). */
  cleanupAfterCommand(): void;
  reset(): Promise<void>;
}

/** The programs the runtime needs on Linux, as it names them in its dependency errors. */
export const LINUX_SANDBOX_PROGRAMS: ReadonlyArray<{ program: string; error: string }> = [
  { program: "bwrap", error: "bubblewrap (bwrap) not installed" },
  { program: "socat", error: "socat not installed" },
  { program: "rg", error: "ripgrep (rg) not found" },
];

/** Whether an executable `program` is in one of the `PATH` folders. */
function onPath(program: string, path: string): boolean {
  return path
    .split(delimiter)
    .filter((dir) => dir !== "")
    .some((dir) => {
      try {
        accessSync(join(dir, program), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}

/**
 * The runtime's dependency errors for the Linux programs missing from `path` (empty when all are there), without
 * loading the runtime: what `doctor` says when the sandbox is off.
 */
export function missingLinuxPrograms(path: string): string[] {
  return LINUX_SANDBOX_PROGRAMS.filter((p) => !onPath(p.program, path)).map((p) => p.error);
}

/**
 * Loads the runtime (on first use: it is heavy, and nothing runs at import time). Its dependency check looks
 * the Linux programs up in `path` (the `PATH` the commands get) itself, since the runtime's own lookup gives up
 * after a second and a busy machine would read that as "not installed"; the runtime's other errors stand.
 */
export async function loadSandboxRuntime(options: {
  path: string;
  platform: NodeJS.Platform;
}): Promise<OsSandboxRuntime> {
  const { SandboxManager } = await importOptional(
    "@anthropic-ai/sandbox-runtime",
    () => import("@anthropic-ai/sandbox-runtime"),
  );
  return {
    checkDependencies: () => {
      const own = SandboxManager.checkDependencies();
      if (options.platform !== "linux") return own;
      const other = own.errors.filter((e) => !OS_SANDBOX_PACKAGES.some((p) => p.match.test(e)));
      return { errors: [...missingLinuxPrograms(options.path), ...other], warnings: own.warnings };
    },
    initialize: (config) => SandboxManager.initialize(config),
    wrap: async (command, shell, signal) =>
      withoutNewSession(await SandboxManager.wrapWithSandbox(command, shell, undefined, signal)),
    cleanupAfterCommand: () => SandboxManager.cleanupAfterCommand(),
    reset: () => SandboxManager.reset(),
  };
}

/**
 * `line` (the runtime's bubblewrap command) without bubblewrap's `--new-session`, so the sandbox's processes stay
 * in the process group the host shell gives each command, and an abort or a deadline (a signal to that group)
 * reaches them. With it, a command stopped while bubblewrap set up could outlive it in a session of its own and
 * hold the command's output open (the abort case hung 1 run in 6 with every core busy). What `--new-session`
 * guards against, a terminal's input queue filled from inside (TIOCSTI), cannot happen here: the host shell starts
 * every command in a new session with no controlling terminal and pipes for its input and output. Pure.
 */
export function withoutNewSession(line: string): string {
  return line.replace(/^(\S*bwrap) --new-session /, "$1 ");
}

/** The packages each dependency the runtime reports missing comes in (Debian and Ubuntu names). */
export const OS_SANDBOX_PACKAGES: ReadonlyArray<{ match: RegExp; name: string }> = [
  { match: /bubblewrap|bwrap/i, name: "bubblewrap" },
  { match: /socat/i, name: "socat" },
  { match: /ripgrep|\brg\b/i, name: "ripgrep" },
];

/**
 * One line saying why the OS sandbox cannot run and what to install, from the runtime's dependency errors:
 * `the OS sandbox needs bubblewrap, socat (missing here): install them (e.g. apt-get install bubblewrap socat)`.
 * Errors that name no package (a kernel that refuses user namespaces) are quoted. Pure.
 */
export function missingDependencyLine(errors: readonly string[]): string {
  const names: string[] = [];
  const other: string[] = [];
  for (const error of errors) {
    const known = OS_SANDBOX_PACKAGES.find((p) => p.match.test(error));
    if (known === undefined) other.push(error);
    else if (!names.includes(known.name)) names.push(known.name);
  }
  const parts: string[] = [];
  if (names.length > 0)
    parts.push(
      `the OS sandbox needs ${names.join(", ")} (missing here): install ${names.length === 1 ? "it" : "them"} ` +
        `(e.g. apt-get install ${names.join(" ")})`,
    );
  if (other.length > 0) parts.push(`the OS sandbox cannot run here: ${other.join("; ")}`);
  return parts.join("; ").replace(/\s*\n\s*/g, " ");
}

/** Whether `command` is one simple command that an `excludedCommands` entry names (`git`, `docker *`). Pure. */
export function isExcludedCommand(command: string, excluded: readonly string[]): boolean {
  if (excluded.length === 0) return false;
  const split = splitCommand(command);
  const only = split.parts[0];
  if (split.substitution || split.parts.length !== 1 || only === undefined) return false;
  return excluded.some((entry) => {
    const trimmed = entry.trim();
    const content = trimmed.endsWith(" *")
      ? `${trimmed.slice(0, -2)}:*`
      : trimmed.includes("*")
        ? trimmed
        : `${trimmed}:*`;
    return content !== ":*" && commandContentMatches(content, only);
  });
}

/** The runtime's config for a policy. Pure. */
export function runtimeConfig(policy: OsSandboxPolicy): SandboxRuntimeConfig {
  return {
    network: {
      allowedDomains: [...policy.allowedDomains],
      deniedDomains: [...policy.deniedDomains],
      ...(policy.deniedResolvedAddresses === undefined
        ? {}
        : { deniedResolvedAddresses: [...policy.deniedResolvedAddresses] }),
      allowUnixSockets: [...policy.allowUnixSockets],
      allowAllUnixSockets: policy.allowAllUnixSockets,
      allowLocalBinding: policy.allowLocalBinding,
    },
    filesystem: {
      allowWrite: [...policy.allowWrite],
      denyWrite: [...policy.denyWrite],
      denyRead: [...policy.denyRead],
      allowRead: [...policy.allowRead],
    },
    enableWeakerNestedSandbox: policy.enableWeakerNestedSandbox,
  };
}

/** What {@link createOsSandbox} needs: the policy, the runtime, and the shell the wrapped commands start in. */
export interface OsSandboxOptions {
  policy: OsSandboxPolicy;
  runtime: OsSandboxRuntime;
  /** The host's shell (`createNodeShell`): it starts the runtime's wrapper, and the excluded commands. */
  hostShell: ShellOps;
  /** The file system the file tools use (the host's, in the CLI). */
  fs: FsOps;
  /** Commands run outside the sandbox (settings `sandbox.excludedCommands`), through the usual permissions. */
  excludedCommands?: readonly string[];
  description?: string;
  /** The most of a command's stdout, and of its stderr, kept (default {@link OS_SANDBOX_MAX_OUTPUT_BYTES}). */
  maxOutputBytes?: number;
}

/** An OS-tier sandbox, or why there can be none here. */
export type OsSandboxOutcome =
  | { kind: "ok"; sandbox: Sandbox & { close(): Promise<void> } }
  | { kind: "unavailable"; message: string };

/** The most of one command's stdout and of its stderr an OS-tier run keeps, in bytes; the rest is cut with a note. */
export const OS_SANDBOX_MAX_OUTPUT_BYTES = 1_048_576;

/** `text` cut to its first `max` bytes (at a character boundary), with a note of what was cut. Pure. */
export function capOutput(text: string, max: number = OS_SANDBOX_MAX_OUTPUT_BYTES): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= max) return text;
  const kept = bytes
    .subarray(0, max)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
  return `${kept}\n[output cut: ${bytes.length - Buffer.byteLength(kept)} more bytes]\n`;
}

/**
 * An OS-tier run's result as the model gets it: stdout and stderr share `max` (half each, so the two together stay
 * within it), and a stopped command says why at the end of stderr (`timeoutMs` names its deadline). Pure.
 */
export function cappedResult(result: ShellResult, max: number, timeoutMs: number | undefined): ShellResult {
  const note = result.timedOut
    ? `[stopped: the command ran past its ${timeoutMs ?? 0} ms deadline]\n`
    : result.aborted
      ? "[stopped: the command was aborted]\n"
      : "";
  return {
    ...result,
    stdout: capOutput(result.stdout, Math.ceil(max / 2)),
    stderr: `${capOutput(result.stderr, Math.floor(max / 2))}${note}`,
  };
}

/** A command aborted before its process started: no process is started for it. */
export const ABORTED_BEFORE_START: ShellResult = {
  stdout: "",
  stderr: "",
  exitCode: undefined,
  timedOut: false,
  aborted: true,
};

/** The result of a command that never started, and why (`startError`). Pure. */
export function notStarted(startError: string): ShellResult {
  return { stdout: "", stderr: "", exitCode: undefined, timedOut: false, aborted: false, startError };
}

/** What the model is told of an OS-tier shell. */
export const OS_SANDBOX_DESCRIPTION =
  "Commands run on this machine's real binaries inside an operating-system sandbox: writes only inside the " +
  "project (and the directories it was given), no network unless a host is allowed.";

/**
 * The `os` tier: each command runs under the runtime (bubblewrap on Linux, Seatbelt on macOS), started by the
 * host's shell; excluded commands run on the host shell itself. Checks the runtime's dependencies first and
 * answers `unavailable` with one line naming what to install: never a fallback to the host. The runtime's
 * proxies start here; `close` stops them.
 */
export async function createOsSandbox(options: OsSandboxOptions): Promise<OsSandboxOutcome> {
  const { runtime, hostShell } = options;
  const check = runtime.checkDependencies();
  if (check.errors.length > 0) return { kind: "unavailable", message: missingDependencyLine(check.errors) };
  try {
    await runtime.initialize(runtimeConfig(options.policy));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { kind: "unavailable", message: `the OS sandbox could not start: ${reason.replace(/\s+/g, " ")}` };
  }
  const excluded = options.excludedCommands ?? [];
  let closed = false;
  const max = options.maxOutputBytes ?? OS_SANDBOX_MAX_OUTPUT_BYTES;
  const capped = (result: ShellResult, timeoutMs: number | undefined) => cappedResult(result, max, timeoutMs);
  const shell: ShellOps = {
    async run(command: string, run: ShellRunOptions): Promise<ShellResult> {
      if (closed) return notStarted("the OS sandbox was closed: no command runs in it");
      if (isExcludedCommand(command, excluded))
        return capped(await hostShell.run(command, run), run.timeoutMs);
      const wrapped = await runtime.wrap(command, run.shell ?? "bash", run.signal);
      try {
        // Aborted while the runtime wrapped it: start nothing (a process started now would miss the abort).
        if (run.signal?.aborted) return capped(ABORTED_BEFORE_START, run.timeoutMs);
        // `exec` when the wrapped line starts with a program: the sandbox takes the shell's place, so a deadline or
        // an abort stops its process group, not only a shell in front of it.
        const line = /^[\w./-]+ /.test(wrapped) ? `exec ${wrapped}` : wrapped;
        return capped(await hostShell.run(line, { ...run, shell: "bash" }), run.timeoutMs);
      } finally {
        runtime.cleanupAfterCommand();
      }
    },
  };
  return {
    kind: "ok",
    sandbox: {
      tier: "os",
      fs: options.fs,
      shell,
      description: options.description ?? OS_SANDBOX_DESCRIPTION,
      close: async () => {
        if (closed) return;
        closed = true;
        await runtime.reset();
      },
    },
  };
}
