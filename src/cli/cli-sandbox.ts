import { join, resolve } from "node:path";
import type { EffectiveSandbox } from "../config/project-sandbox.js";
import type { Engine } from "../engine/engine.js";
import { createNoShell } from "../io/no-shell.js";
import { createNodeShell, type ShellOps } from "../io/shell.js";
import {
  createOsSandbox,
  loadSandboxRuntime,
  missingDependencyLine,
  missingLinuxPrograms,
  type OsSandboxPolicy,
  type OsSandboxRuntime,
} from "../sandbox/os-sandbox.js";

/**
 * The shell the CLI hands its sessions, from the settings' `sandbox` block: the host's own (sandbox off), the
 * OS tier's (on, its dependencies present), or one that runs nothing and says what to install (on, a
 * dependency missing: never a fallback to the host). `line` says which, for `--verbose`, doctor and warnings.
 */
export type CliShell =
  | { tier: "host"; shell: ShellOps; line: string }
  | {
      tier: "os";
      shell: ShellOps;
      line: string;
      /** Bash needs no permission (settings `autoAllowBashIfSandboxed`, and no excluded command to ask about). */
      autoAllowBash: boolean;
      close(): Promise<void>;
    }
  | { tier: "none"; shell: ShellOps; line: string };

/** The OS tier's policy for a CLI session: the cwd, `--add-dir`s and granted directories writable. Pure. */
export function cliSandboxPolicy(
  sandbox: EffectiveSandbox,
  dirs: {
    cwd: string;
    home: string;
    projectDir: string;
    addDirs: readonly string[];
    granted: readonly string[];
  },
): OsSandboxPolicy {
  const granted = dirs.granted.map((d) =>
    d === "~" || d.startsWith("~/") ? join(dirs.home, d.slice(1)) : resolve(dirs.projectDir, d),
  );
  return {
    allowWrite: [...new Set([dirs.cwd, ...dirs.addDirs, ...granted, ...sandbox.filesystem.allowWrite])],
    denyWrite: sandbox.filesystem.denyWrite,
    denyRead: sandbox.filesystem.denyRead,
    allowRead: sandbox.filesystem.allowRead,
    allowedDomains: sandbox.network.allowedDomains,
    deniedDomains: sandbox.network.deniedDomains,
    allowUnixSockets: sandbox.network.allowUnixSockets,
    allowAllUnixSockets: sandbox.network.allowAllUnixSockets,
    allowLocalBinding: sandbox.network.allowLocalBinding,
    enableWeakerNestedSandbox: sandbox.enableWeakerNestedSandbox,
  };
}

/** Where the sandbox was switched on, for messages. */
function enabledIn(sandbox: EffectiveSandbox): string {
  return sandbox.enabledBy === undefined ? "" : ` (${sandbox.enabledBy})`;
}

/**
 * The CLI's shell for `engine`'s settings (see {@link CliShell}). `runtime` loads the OS sandbox's engine
 * (default: `@anthropic-ai/sandbox-runtime`, its programs looked up in the engine's `PATH`), only when the
 * sandbox is on.
 */
export async function cliShell(
  engine: Engine,
  runtime: () => Promise<OsSandboxRuntime> = () =>
    loadSandboxRuntime({ path: engine.env.PATH ?? "", platform: process.platform }),
): Promise<CliShell> {
  const extensions = await engine.extensions();
  const sandbox = extensions.sandbox;
  const host = createNodeShell();
  if (!sandbox.enabled)
    return {
      tier: "host",
      shell: host,
      line: "shell: the host's, unsandboxed (settings sandbox.enabled is off)",
    };
  const { projectDir } = await engine.roots();
  // On, but it cannot run here: nothing runs (never the host), and the line says why.
  const refused = (why: string): CliShell => {
    const line = `sandbox.enabled is set${enabledIn(sandbox)}, but ${why}; Bash, inline shell and command hooks do not run`;
    return { tier: "none", shell: createNoShell(line), line: `shell: none: ${line}` };
  };
  let loaded: OsSandboxRuntime;
  try {
    loaded = await runtime();
  } catch (error) {
    return refused(error instanceof Error ? error.message : String(error));
  }
  const made = await createOsSandbox({
    policy: cliSandboxPolicy(sandbox, {
      cwd: engine.cwd,
      home: engine.home,
      projectDir,
      addDirs: engine.addDirs,
      granted: extensions.permissions.additionalDirectories,
    }),
    runtime: loaded,
    hostShell: host,
    fs: engine.fs,
    excludedCommands: sandbox.excludedCommands,
  });
  if (made.kind === "unavailable") return refused(made.message);
  const network =
    sandbox.network.allowedDomains.length === 0
      ? "no network"
      : `network to ${sandbox.network.allowedDomains.join(", ")}`;
  const excluded =
    sandbox.excludedCommands.length === 0 ? "" : `; outside it: ${sandbox.excludedCommands.join(", ")}`;
  return {
    tier: "os",
    shell: made.sandbox.shell,
    line: `shell: OS sandbox${enabledIn(sandbox)}: writes in ${engine.cwd} and the directories granted, ${network}${excluded}`,
    autoAllowBash: sandbox.autoAllowBashIfSandboxed && sandbox.excludedCommands.length === 0,
    close: () => made.sandbox.close(),
  };
}

/** The effective sandbox as `doctor` reports it: the settings after the trust rules, and which tier Bash gets. */
export interface SandboxReport {
  /** `os`: commands run sandboxed; `none`: the sandbox is on but cannot run here, so nothing runs; `host`: off. */
  tier: "os" | "none" | "host";
  /** Why the OS tier cannot run here (a dependency missing), whether or not the sandbox is on. */
  unavailable?: string;
  sandbox: EffectiveSandbox;
}

/**
 * What `doctor` shows of the sandbox, without starting it: the tier Bash would get and, when the OS tier cannot
 * run here, why (the Linux programs looked up in the engine's `PATH`; on other platforms the runtime's own check
 * is left to the run).
 */
export async function sandboxReport(engine: Engine, platform: NodeJS.Platform): Promise<SandboxReport> {
  const sandbox = (await engine.extensions()).sandbox;
  const missing = platform === "linux" ? missingLinuxPrograms(engine.env.PATH ?? "") : [];
  const unavailable = missing.length === 0 ? undefined : missingDependencyLine(missing);
  const tier = !sandbox.enabled ? "host" : unavailable === undefined ? "os" : "none";
  return { tier, ...(unavailable === undefined ? {} : { unavailable }), sandbox };
}

/** The `Sandbox:` section of doctor's text. Pure. */
export function sandboxLines(report: SandboxReport): string[] {
  const { sandbox } = report;
  const from = sandbox.enabledBy === undefined ? "" : ` (${sandbox.enabledBy})`;
  const head =
    report.tier === "os"
      ? `Sandbox: on${from}: Bash, inline shell and command hooks run in the OS sandbox`
      : report.tier === "none"
        ? `Sandbox: on${from}, but ${report.unavailable ?? "it cannot run here"}: Bash, inline shell and command hooks do not run`
        : `Sandbox: off: commands run on the host${report.unavailable === undefined ? "" : ` (the OS sandbox could not run here: ${report.unavailable})`}`;
  const lines = [head];
  if (!sandbox.enabled) return [...lines, ...pendingLines(sandbox)];
  const list = (items: readonly string[]) => (items.length === 0 ? "none" : items.join(", "));
  lines.push(
    `  Bash without asking: ${report.tier === "os" && sandbox.autoAllowBashIfSandboxed && sandbox.excludedCommands.length === 0 ? "yes" : "no"}`,
    `  run outside the sandbox: ${list(sandbox.excludedCommands)}`,
    `  network: allowed ${list(sandbox.network.allowedDomains)}; denied ${list(sandbox.network.deniedDomains)}${sandbox.network.allowLocalBinding ? "; local binding" : ""}`,
    `  writable besides the cwd and granted dirs: ${list(sandbox.filesystem.allowWrite)}; not writable: ${list(sandbox.filesystem.denyWrite)}`,
    `  not readable: ${list(sandbox.filesystem.denyRead)}${sandbox.filesystem.allowRead.length === 0 ? "" : `; readable again: ${list(sandbox.filesystem.allowRead)}`}`,
    "  unsandboxed retry (dangerouslyDisableSandbox): never offered",
  );
  return [...lines, ...pendingLines(sandbox)];
}

function pendingLines(sandbox: EffectiveSandbox): string[] {
  return sandbox.pending.map((p) => `  held back until approved (${p.file}): ${p.keys.join(", ")}`);
}
