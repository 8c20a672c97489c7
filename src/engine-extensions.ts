import { join } from "node:path";
import { type LoadedSettings, loadSettings } from "./config/settings.js";
import type { Diagnostic } from "./diagnostics.js";
import type { FsOps } from "./io/fs.js";
import { loadMcpConfigs, parseMcpConfig } from "./mcp/config.js";
import type { McpManager } from "./mcp/manager.js";
import { loadPlugins, type SourcedPlugin } from "./plugins/load-plugins.js";
import { ensurePluginDataDir, usesPluginDataDir } from "./plugins/plugin-vars.js";
import type { Skill } from "./skill/skill.js";

export interface ExtensionInputs {
  fs: FsOps;
  cwd: string;
  home: string;
  projectDir: string;
  env: Record<string, string | undefined>;
  pluginDirs: readonly string[];
  /** `--mcp-config` values: file paths or inline JSON. */
  mcpConfigs: readonly string[];
  clientVersion: string;
  /** `--strict-mcp-config`: only `mcpConfigs`; the project's `.mcp.json` and plugin servers are not read. */
  strictMcpConfig?: boolean;
  /** A reload: keep this MCP manager (its servers keep running) instead of making one from the configs. */
  keepMcp?: { mcp: McpManager | undefined };
  /** A server's prompts or skills changed (`list_changed`): the engine rediscovers. */
  onMcpListChanged?: () => void;
}

/** Settings, plugins and MCP servers of one engine, loaded once. */
export interface Extensions {
  settings: LoadedSettings;
  plugins: SourcedPlugin[];
  /** Undefined when no MCP server is configured anywhere. */
  mcp: McpManager | undefined;
  diagnostics: Diagnostic[];
}

/**
 * Loads settings, then plugins (`--plugin-dir`, enabled marketplace plugins, installed ones), then the MCP
 * configs (`--mcp-config` first, the project's `.mcp.json`, then each plugin's servers; first name wins). MCP
 * servers are not started here: the manager starts them on first use. Never throws for bad content.
 */
export async function loadExtensions(inputs: ExtensionInputs): Promise<Extensions> {
  const { fs } = inputs;
  const settings = await loadSettings({ fs, home: inputs.home, projectDir: inputs.projectDir });
  const loaded = await loadPlugins({
    fs,
    pluginDirs: inputs.pluginDirs,
    settings: settings.settings,
    home: inputs.home,
    projectDir: inputs.projectDir,
  });
  const diagnostics: Diagnostic[] = [...settings.diagnostics, ...loaded.diagnostics];
  const env = inputs.env;
  if (inputs.keepMcp !== undefined) {
    return { settings, plugins: loaded.plugins, mcp: inputs.keepMcp.mcp, diagnostics };
  }
  const strict = inputs.strictMcpConfig === true;
  const configs = await loadMcpConfigs({
    fs,
    files: [
      ...inputs.mcpConfigs,
      ...(strict ? [] : [{ path: join(inputs.projectDir, ".mcp.json"), optional: true }]),
    ],
    env,
    cwd: inputs.cwd,
  });
  diagnostics.push(...configs.diagnostics);
  const servers = { ...configs.servers };
  for (const plugin of strict ? [] : loaded.plugins) {
    if (Object.keys(plugin.mcpServers).length === 0) continue;
    if (usesPluginDataDir(plugin)) await ensurePluginDataDir(fs, plugin).catch(() => undefined);
    const parsed = parseMcpConfig(JSON.stringify({ mcpServers: plugin.mcpServers }), {
      source: plugin.root,
      env: { ...env, CLAUDE_PLUGIN_ROOT: plugin.root, CLAUDE_PLUGIN_DATA: plugin.dataDir },
    });
    diagnostics.push(...parsed.diagnostics);
    for (const [name, config] of Object.entries(parsed.servers)) servers[name] ??= config;
  }
  // The MCP SDK costs ~400 ms to load: only when a server is configured.
  const mcp =
    Object.keys(servers).length === 0
      ? undefined
      : (await import("./mcp/manager.js")).createMcpManager({
          servers,
          env,
          cwd: inputs.cwd,
          clientInfo: { name: "skillwright", version: inputs.clientVersion },
          ...(inputs.onMcpListChanged === undefined ? {} : { onListChanged: inputs.onMcpListChanged }),
        });
  return { settings, plugins: loaded.plugins, mcp, diagnostics };
}

/** Plugin skills, then MCP prompts and skills (starting the servers), in listing order. */
export async function extensionSkills(
  extensions: Extensions,
): Promise<{ skills: Skill[]; diagnostics: Diagnostic[] }> {
  const skills = extensions.plugins.flatMap((p) => p.skills);
  if (extensions.mcp === undefined) return { skills, diagnostics: [] };
  const [prompts, mcpSkills] = await Promise.all([extensions.mcp.prompts(), extensions.mcp.skills()]);
  return { skills: [...skills, ...prompts, ...mcpSkills], diagnostics: extensions.mcp.diagnostics() };
}
