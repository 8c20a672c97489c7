import { join } from "node:path";
import type { PermissionRules } from "../permissions/decision.js";
import { parseRules } from "../permissions/rules.js";
import { approvingFile } from "./project-approval.js";
import { PROJECT_PERMISSIONS_KEY } from "./project-permissions.js";
import type { SandboxSettings, Settings } from "./settings-schema.js";

/** The network rules sandboxed commands run under. */
export interface SandboxNetworkRules {
  allowedDomains: string[];
  deniedDomains: string[];
  allowUnixSockets: string[];
  allowAllUnixSockets: boolean;
  allowLocalBinding: boolean;
}

/** The file rules sandboxed commands run under (paths absolute, or as the runtime takes them). */
export interface SandboxFileRules {
  allowWrite: string[];
  denyWrite: string[];
  denyRead: string[];
  allowRead: string[];
}

/** A committed settings file's sandbox keys that loosen the sandbox, held back until the user approves. */
export interface PendingSandboxLoosening {
  file: string;
  /** The keys as `sandbox.network.allowedDomains`, in the file's order. */
  keys: string[];
}

/** The sandbox the settings ask for, after the trust rules (see {@link effectiveSandbox}). */
export interface EffectiveSandbox {
  enabled: boolean;
  /** The file whose `sandbox.enabled` decided, if any. */
  enabledBy: string | undefined;
  autoAllowBashIfSandboxed: boolean;
  allowUnsandboxedCommands: boolean;
  excludedCommands: string[];
  enableWeakerNestedSandbox: boolean;
  network: SandboxNetworkRules;
  filesystem: SandboxFileRules;
  /** What committed files would loosen, not applied. */
  pending: PendingSandboxLoosening[];
}

/** Where relative paths of settings and permission rules are resolved. */
export interface SandboxPlaces {
  cwd: string;
  home: string;
}

/** The keys of a `sandbox` block that loosen the sandbox when set as given. */
function looseningKeys(block: SandboxSettings): string[] {
  const keys: string[] = [];
  if (block.enabled === false) keys.push("sandbox.enabled");
  if (block.autoAllowBashIfSandboxed === true) keys.push("sandbox.autoAllowBashIfSandboxed");
  if (block.allowUnsandboxedCommands === true) keys.push("sandbox.allowUnsandboxedCommands");
  if ((block.excludedCommands ?? []).length > 0) keys.push("sandbox.excludedCommands");
  if (block.enableWeakerNestedSandbox === true) keys.push("sandbox.enableWeakerNestedSandbox");
  const network = block.network;
  if ((network?.allowedDomains ?? []).length > 0) keys.push("sandbox.network.allowedDomains");
  if ((network?.allowUnixSockets ?? []).length > 0) keys.push("sandbox.network.allowUnixSockets");
  if (network?.allowAllUnixSockets === true) keys.push("sandbox.network.allowAllUnixSockets");
  if (network?.allowLocalBinding === true) keys.push("sandbox.network.allowLocalBinding");
  const files = block.filesystem;
  if ((files?.allowWrite ?? []).length > 0) keys.push("sandbox.filesystem.allowWrite");
  if ((files?.allowRead ?? []).length > 0) keys.push("sandbox.filesystem.allowRead");
  return keys;
}

/**
 * A path as settings write it, made absolute for the runtime: `~/x` under the home, `/x` (or `//x`) from the
 * root, anything else from the cwd; a trailing `/**` means the folder. Pure.
 */
export function sandboxPath(path: string, places: SandboxPlaces): string {
  const folder = path.endsWith("/**") ? path.slice(0, -3) || "/" : path;
  if (folder === "~") return places.home;
  if (folder.startsWith("~/")) return join(places.home, folder.slice(2));
  if (folder.startsWith("//")) return folder.slice(1);
  if (folder.startsWith("/")) return folder;
  return join(places.cwd, folder);
}

/** The domain of a `WebFetch(domain:example.com)` rule's content, or undefined. */
function fetchDomain(content: string | undefined): string | undefined {
  return content?.startsWith("domain:") ? content.slice("domain:".length) : undefined;
}

/**
 * The sandbox rules Claude Code derives from permission rules: `Edit(path)`/`Write(path)` allow rules make the
 * path writable, their deny rules unwritable; `Read(path)` deny rules unreadable; `WebFetch(domain:x)` allow and
 * deny rules allow and deny the host. Bare rules (no path) derive nothing. Pure.
 */
function derivedRules(
  rules: PermissionRules,
  places: SandboxPlaces,
): { files: SandboxFileRules; allowedDomains: string[]; deniedDomains: string[] } {
  const files: SandboxFileRules = { allowWrite: [], denyWrite: [], denyRead: [], allowRead: [] };
  const allowedDomains: string[] = [];
  const deniedDomains: string[] = [];
  for (const rule of parseRules(rules.allow)) {
    if ((rule.tool === "Edit" || rule.tool === "Write") && rule.content !== undefined)
      files.allowWrite.push(sandboxPath(rule.content, places));
    const domain = rule.tool === "WebFetch" ? fetchDomain(rule.content) : undefined;
    if (domain !== undefined) allowedDomains.push(domain);
  }
  for (const rule of parseRules(rules.deny)) {
    if ((rule.tool === "Edit" || rule.tool === "Write") && rule.content !== undefined)
      files.denyWrite.push(sandboxPath(rule.content, places));
    if (rule.tool === "Read" && rule.content !== undefined)
      files.denyRead.push(sandboxPath(rule.content, places));
    const domain = rule.tool === "WebFetch" ? fetchDomain(rule.content) : undefined;
    if (domain !== undefined) deniedDomains.push(domain);
  }
  return { files, allowedDomains, deniedDomains };
}

/** Adds `items` to `into`, leaving out what it already holds. */
function addAll(into: string[], items: readonly string[] | undefined): void {
  for (const item of items ?? []) if (!into.includes(item)) into.push(item);
}

/**
 * The sandbox of the settings layers (lowest precedence first) and the permission rules that apply
 * (`approvedPermissions`). The user's own files (`trusted`: user, environment and local settings) decide
 * everything: scalars last-wins, lists concatenated. A project's committed settings (which come with a cloned
 * repository) may only tighten (turn the sandbox on, deny hosts and paths, take auto-allow and the escape hatch
 * away) until a trusted file sets `enableProjectPermissions: true`; what they would loosen is `pending`. File
 * paths are made absolute (`sandboxPath`). Pure.
 */
export function effectiveSandbox(
  layers: ReadonlyArray<{ path: string; settings: Settings }>,
  trusted: readonly string[],
  rules: PermissionRules,
  places: SandboxPlaces,
): EffectiveSandbox {
  const approved = approvingFile(layers, trusted, PROJECT_PERMISSIONS_KEY) !== undefined;
  const out: EffectiveSandbox = {
    enabled: false,
    enabledBy: undefined,
    autoAllowBashIfSandboxed: true,
    allowUnsandboxedCommands: true,
    excludedCommands: [],
    enableWeakerNestedSandbox: false,
    network: {
      allowedDomains: [],
      deniedDomains: [],
      allowUnixSockets: [],
      allowAllUnixSockets: false,
      allowLocalBinding: false,
    },
    filesystem: { allowWrite: [], denyWrite: [], denyRead: [], allowRead: [] },
    pending: [],
  };
  const paths = (list: readonly string[] | undefined) => (list ?? []).map((p) => sandboxPath(p, places));
  for (const { path, settings } of layers) {
    const block = settings.sandbox;
    if (block === undefined) continue;
    const full = approved || trusted.includes(path);
    if (!full) {
      const held = looseningKeys(block);
      if (held.length > 0) out.pending.push({ file: path, keys: held });
    }
    // Tightening, from any file.
    if (block.enabled === true) {
      out.enabled = true;
      out.enabledBy = path;
    }
    if (block.autoAllowBashIfSandboxed === false) out.autoAllowBashIfSandboxed = false;
    if (block.allowUnsandboxedCommands === false) out.allowUnsandboxedCommands = false;
    addAll(out.network.deniedDomains, block.network?.deniedDomains);
    addAll(out.filesystem.denyWrite, paths(block.filesystem?.denyWrite));
    addAll(out.filesystem.denyRead, paths(block.filesystem?.denyRead));
    if (!full) continue;
    // Loosening, from the user's own files (or a project the user approved).
    if (block.enabled === false) {
      out.enabled = false;
      out.enabledBy = path;
    }
    if (block.autoAllowBashIfSandboxed === true) out.autoAllowBashIfSandboxed = true;
    if (block.allowUnsandboxedCommands === true) out.allowUnsandboxedCommands = true;
    if (block.enableWeakerNestedSandbox !== undefined)
      out.enableWeakerNestedSandbox = block.enableWeakerNestedSandbox;
    addAll(out.excludedCommands, block.excludedCommands);
    addAll(out.network.allowedDomains, block.network?.allowedDomains);
    addAll(out.network.allowUnixSockets, paths(block.network?.allowUnixSockets));
    if (block.network?.allowAllUnixSockets !== undefined)
      out.network.allowAllUnixSockets = block.network.allowAllUnixSockets;
    if (block.network?.allowLocalBinding !== undefined)
      out.network.allowLocalBinding = block.network.allowLocalBinding;
    addAll(out.filesystem.allowWrite, paths(block.filesystem?.allowWrite));
    addAll(out.filesystem.allowRead, paths(block.filesystem?.allowRead));
  }
  const derived = derivedRules(rules, places);
  addAll(out.filesystem.allowWrite, derived.files.allowWrite);
  addAll(out.filesystem.denyWrite, derived.files.denyWrite);
  addAll(out.filesystem.denyRead, derived.files.denyRead);
  addAll(out.network.allowedDomains, derived.allowedDomains);
  addAll(out.network.deniedDomains, derived.deniedDomains);
  return out;
}

/** What a file's held-back sandbox keys are, for the user: `sandbox.enabled, sandbox.network.allowedDomains`. Pure. */
export function looseningText(pending: PendingSandboxLoosening): string {
  return pending.keys.join(", ");
}
