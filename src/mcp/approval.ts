import type { Settings } from "../config/settings-schema.js";

/** Where a server's config came from: `--mcp-config` (the user's own act), the project's `.mcp.json`, a plugin. */
export type McpOrigin = "cli" | "project" | "plugin";

/** Claude Code's settings keys for project MCP servers, honoured from user and local settings only. */
export const MCP_APPROVAL_KEYS = {
  enabled: "enabledMcpjsonServers",
  disabled: "disabledMcpjsonServers",
  enableAll: "enableAllProjectMcpServers",
} as const;

/** What user and local settings say about MCP servers, with the file each answer came from. */
export interface McpApprovalSettings {
  /** Server name → the file that lists it in `enabledMcpjsonServers`. */
  enabled: ReadonlyMap<string, string>;
  /** Server name → the file that lists it in `disabledMcpjsonServers` (any settings file: refusing is safe). */
  disabled: ReadonlyMap<string, string>;
  /** The file that sets `enableAllProjectMcpServers: true` (the last one wins), if any. */
  enableAll: string | undefined;
}

/** Whether one server may start, and why. */
export type McpApproval =
  | { state: "approved"; by: string }
  | { state: "pending" }
  | { state: "disabled"; by: string };

/**
 * Collects the approval keys from settings files (lowest precedence first). `enabledMcpjsonServers` and
 * `enableAllProjectMcpServers` count only from `trusted` files (user and local settings: a cloned repository's
 * committed `.claude/settings.json` must not approve its own servers); `disabledMcpjsonServers` counts from any
 * file. Pure.
 */
export function mcpApprovalSettings(
  layers: ReadonlyArray<{ path: string; settings: Settings }>,
  trusted: readonly string[],
): McpApprovalSettings {
  const enabled = new Map<string, string>();
  const disabled = new Map<string, string>();
  let enableAll: string | undefined;
  for (const { path, settings } of layers) {
    for (const name of settings.disabledMcpjsonServers ?? [])
      if (!disabled.has(name)) disabled.set(name, path);
    if (!trusted.includes(path)) continue;
    for (const name of settings.enabledMcpjsonServers ?? []) if (!enabled.has(name)) enabled.set(name, path);
    if (settings.enableAllProjectMcpServers === true) enableAll = path;
    else if (settings.enableAllProjectMcpServers === false) enableAll = undefined;
  }
  return { enabled, disabled, enableAll };
}

/**
 * Decides whether a server may start. `--mcp-config` servers always may (the user named them on the command
 * line). A project or plugin server may when user or local settings list it in `enabledMcpjsonServers`; a
 * project server also when they set `enableAllProjectMcpServers`. `disabledMcpjsonServers` wins over both
 * (Claude Code's order). Pure.
 */
export function approveServer(name: string, origin: McpOrigin, settings: McpApprovalSettings): McpApproval {
  if (origin === "cli") return { state: "approved", by: "--mcp-config" };
  const disabledBy = settings.disabled.get(name);
  if (disabledBy !== undefined) return { state: "disabled", by: disabledBy };
  const enabledBy = settings.enabled.get(name);
  if (enabledBy !== undefined) return { state: "approved", by: enabledBy };
  if (origin === "project" && settings.enableAll !== undefined) {
    return { state: "approved", by: settings.enableAll };
  }
  return { state: "pending" };
}

/** The hint naming what approves a pending server. Pure. */
export function approvalHint(name: string, localSettings: string): string {
  return `approve it with \`skillwright mcp approve ${name}\` (adds it to ${MCP_APPROVAL_KEYS.enabled} in ${localSettings}), or list it there in ~/.claude/settings.json`;
}

/** One configured server, approved or not. */
export interface McpServerEntry {
  name: string;
  origin: McpOrigin;
  /** The file (or `--mcp-config (inline JSON)`, or the plugin root) it came from. */
  source: string;
  /** The plugin it came from, for `origin: "plugin"`. */
  plugin?: string;
  approval: McpApproval;
}
