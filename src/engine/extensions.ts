import { join } from "node:path";
import {
  approvedPermissions,
  grantsText,
  PROJECT_PERMISSIONS_KEY,
  type SettingsPermissions,
} from "../config/project-permissions.js";
import { type EffectiveSandbox, effectiveSandbox, looseningText } from "../config/project-sandbox.js";
import { type LoadedSettings, loadSettings, userAndLocalSettingsFiles } from "../config/settings.js";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { approvedSettingsHooks, PROJECT_HOOKS_KEY, type SettingsHooks } from "../hooks/settings-hooks.js";
import type { FsOps } from "../io/fs.js";
import { approvalHint, approveServer, type McpServerEntry, mcpApprovalSettings } from "../mcp/approval.js";
import { loadMcpConfigs, parseMcpConfig } from "../mcp/config.js";
import type { McpServerConfig } from "../mcp/config-schema.js";
import type { McpManager } from "../mcp/manager.js";
import { loadPlugins, type SourcedPlugin } from "../plugins/load-plugins.js";
import { ensurePluginDataDir, usesPluginDataDir } from "../plugins/plugin-vars.js";

export interface ExtensionInputs {
  fs: FsOps;
  cwd: string;
  home: string;
  projectDir: string;
  /** The selected named environment's dir: its `settings.json` is read after the user settings. */
  environmentDir?: string;
  env: Record<string, string | undefined>;
  pluginDirs: readonly string[];
  /** `--mcp-config` values: file paths or inline JSON. */
  mcpConfigs: readonly string[];
  clientVersion: string;
  /**
   * Whether discovery starts the approved MCP servers to list their prompts and skills. False for the offline
   * commands (`list`, `show`, `doctor` without `--start-mcp`): they never run a server's command.
   */
  startMcp: boolean;
  /** `--strict-mcp-config`: only `mcpConfigs`; the project's `.mcp.json` and plugin servers are not read. */
  strictMcpConfig?: boolean;
  /**
   * A reload: keep this MCP manager (its servers keep running) and the server list it was made from, instead of
   * making them from the configs.
   */
  keepMcp?: Pick<Extensions, "mcp" | "mcpServers" | "mcpFor" | "mcpServerConfigs">;
  /**
   * The MCP servers named by skills' needs (issue #42): the manager starts them only when such a skill is
   * invoked. Asked when the servers first start. Absent: none.
   */
  heldMcpServers?: () => Promise<ReadonlySet<string>>;
  /** A server's prompts or skills changed (`list_changed`): the engine rediscovers. */
  onMcpListChanged?: () => void;
}

/** Settings, plugins and MCP servers of one engine, loaded once. */
export interface Extensions {
  settings: LoadedSettings;
  /** The settings hooks that may run (a project's committed settings wait for `enableProjectHooks`). */
  settingsHooks: SettingsHooks;
  /** The permission rules that apply (a project's committed grants wait for `enableProjectPermissions`). */
  permissions: SettingsPermissions;
  /** The sandbox the settings ask for (a project's committed settings only tighten it until approved). */
  sandbox: EffectiveSandbox;
  plugins: SourcedPlugin[];
  /** The approved MCP servers; undefined when none is. Nothing starts until it is used. */
  mcp: McpManager | undefined;
  /** Every configured MCP server with its origin and approval, in config order (first name wins). */
  mcpServers: McpServerEntry[];
  /** The approved servers' configurations, by name (what a kept tool list is keyed by). */
  mcpServerConfigs: Readonly<Record<string, McpServerConfig>>;
  /** Whether discovery lists MCP prompts and skills (starting the approved servers). */
  startMcp: boolean;
  /**
   * A separate manager for some approved servers only (e.g. `show mcp__{server}__{name}`: the user asked for
   * that server's skill); the caller closes it. Undefined when none of `names` is approved.
   */
  mcpFor(names: readonly string[]): Promise<McpManager | undefined>;
  diagnostics: Diagnostic[];
}

/**
 * Loads settings, then plugins (`--plugin-dir`, enabled marketplace plugins, installed ones), then the MCP
 * configs (`--mcp-config` first, the project's `.mcp.json`, then each plugin's servers; first name wins). MCP
 * servers are not started here: the manager starts them on first use. Never throws for bad content.
 */
export async function loadExtensions(inputs: ExtensionInputs): Promise<Extensions> {
  const { fs } = inputs;
  const settings = await loadSettings(inputs);
  const loaded = await loadPlugins({
    fs,
    pluginDirs: inputs.pluginDirs,
    settings: settings.settings,
    home: inputs.home,
    projectDir: inputs.projectDir,
  });
  const diagnostics: Diagnostic[] = [...settings.diagnostics, ...loaded.diagnostics];
  const trusted = userAndLocalSettingsFiles(inputs);
  const settingsHooks = approvedSettingsHooks(settings.layers, trusted);
  const permissions = approvedPermissions(settings.layers, trusted);
  const sandbox = effectiveSandbox(settings.layers, trusted, permissions.rules, inputs);
  const localSettingsFile = join(inputs.projectDir, ".claude", "settings.local.json");
  for (const file of settingsHooks.pending) {
    diagnostics.push(
      diagnostic(
        "info",
        "hooks-unapproved",
        `hooks in ${file} do not run: a project's committed settings need approval; run \`skillwright hooks approve\` (sets ${PROJECT_HOOKS_KEY} in ${localSettingsFile}), or set it in ~/.claude/settings.json`,
        file,
      ),
    );
  }
  for (const pending of permissions.pending) {
    diagnostics.push(
      diagnostic(
        "info",
        "permissions-unapproved",
        `grants in ${pending.file} do not apply (${grantsText(pending)}): a project's committed settings need approval; run \`skillwright permissions approve\` (sets ${PROJECT_PERMISSIONS_KEY} in ${localSettingsFile}), or set it in ~/.claude/settings.json`,
        pending.file,
      ),
    );
  }
  for (const pending of sandbox.pending) {
    diagnostics.push(
      diagnostic(
        "info",
        "sandbox-unapproved",
        `sandbox settings in ${pending.file} that loosen it do not apply (${looseningText(pending)}): a project's committed settings may only tighten the sandbox until approved; run \`skillwright permissions approve\` (sets ${PROJECT_PERMISSIONS_KEY} in ${localSettingsFile}), or set them in ${localSettingsFile}`,
        pending.file,
      ),
    );
  }
  const env = inputs.env;
  if (inputs.keepMcp !== undefined) {
    const { mcp, mcpServers, mcpFor, mcpServerConfigs } = inputs.keepMcp;
    return {
      settings,
      settingsHooks,
      permissions,
      sandbox,
      plugins: loaded.plugins,
      mcp,
      mcpServers,
      mcpFor,
      mcpServerConfigs,
      startMcp: inputs.startMcp,
      diagnostics,
    };
  }
  const strict = inputs.strictMcpConfig === true;
  const projectMcpJson = join(inputs.projectDir, ".mcp.json");
  const configs = await loadMcpConfigs({
    fs,
    files: [...inputs.mcpConfigs, ...(strict ? [] : [{ path: projectMcpJson, optional: true }])],
    env,
    cwd: inputs.cwd,
  });
  diagnostics.push(...configs.diagnostics);
  const servers: Record<string, McpServerConfig> = { ...configs.servers };
  const approvals = mcpApprovalSettings(settings.layers, trusted);
  const entries: McpServerEntry[] = Object.keys(configs.servers).map((name) => {
    const source = configs.sources[name] ?? projectMcpJson;
    const origin = source === projectMcpJson ? "project" : "cli";
    return { name, origin, source, approval: approveServer(name, origin, approvals) };
  });
  for (const plugin of strict ? [] : loaded.plugins) {
    if (Object.keys(plugin.mcpServers).length === 0) continue;
    if (usesPluginDataDir(plugin)) await ensurePluginDataDir(fs, plugin).catch(() => undefined);
    const parsed = await parseMcpConfig(JSON.stringify({ mcpServers: plugin.mcpServers }), {
      source: plugin.root,
      env: { ...env, CLAUDE_PLUGIN_ROOT: plugin.root, CLAUDE_PLUGIN_DATA: plugin.dataDir },
    });
    diagnostics.push(...parsed.diagnostics);
    for (const [name, config] of Object.entries(parsed.servers)) {
      if (servers[name] !== undefined) continue;
      servers[name] = config;
      const approval = approveServer(name, "plugin", approvals);
      entries.push({ name, origin: "plugin", source: plugin.root, plugin: plugin.name, approval });
    }
  }
  const localSettings = join(inputs.projectDir, ".claude", "settings.local.json");
  for (const entry of entries) {
    if (entry.approval.state !== "pending") continue;
    const from = entry.origin === "plugin" ? `plugin "${entry.plugin}"` : entry.source;
    diagnostics.push(
      diagnostic(
        "info",
        "mcp-unapproved",
        `MCP server "${entry.name}" from ${from} is not started: it waits for approval; ${approvalHint(entry.name, localSettings)}`,
        entry.source,
      ),
    );
  }
  const approved = entries.filter((e) => e.approval.state === "approved").map((e) => e.name);
  const approvedConfigs: Record<string, McpServerConfig> = {};
  for (const name of approved) {
    const config = servers[name];
    if (config !== undefined) approvedConfigs[name] = config;
  }
  const managerFor = async (names: readonly string[], held?: () => Promise<ReadonlySet<string>>) => {
    const chosen: Record<string, McpServerConfig> = {};
    for (const name of approved) {
      const config = servers[name];
      if (names.includes(name) && config !== undefined) chosen[name] = config;
    }
    if (Object.keys(chosen).length === 0) return undefined;
    // The MCP SDK costs ~400 ms to load: only when a server may start.
    return (await import("../mcp/manager.js")).createMcpManager({
      servers: chosen,
      env,
      cwd: inputs.cwd,
      clientInfo: { name: "skillwright", version: inputs.clientVersion },
      ...(inputs.onMcpListChanged === undefined ? {} : { onListChanged: inputs.onMcpListChanged }),
      ...(held === undefined ? {} : { held }),
    });
  };
  const mcp = await managerFor(approved, inputs.heldMcpServers);
  return {
    settings,
    settingsHooks,
    permissions,
    sandbox,
    plugins: loaded.plugins,
    mcp,
    mcpServers: entries,
    mcpServerConfigs: approvedConfigs,
    startMcp: inputs.startMcp,
    mcpFor: (names) => managerFor(names),
    diagnostics,
  };
}
