import { HOOK_EVENTS } from "../hooks/hook-events.js";
import type { HooksConfig } from "../hooks/schema.js";
import type { FsOps } from "../io/fs.js";
import { USER_CONFIG_PLACEHOLDER } from "./user-config.js";

/** The two values a plugin's config may reference (SPEC §11). */
export interface PluginVars {
  /** `${CLAUDE_PLUGIN_ROOT}`: the plugin dir. */
  root: string;
  /** `${CLAUDE_PLUGIN_DATA}`: the plugin's private data dir (not created until used). */
  dataDir: string;
  /** `${user_config.KEY}`: the plugin's configured settings (absent keys stay as written). */
  userConfig?: Readonly<Record<string, string>>;
  /** The keys of `userConfig` marked sensitive: left out of the text a hook is shown by. */
  sensitiveKeys?: ReadonlySet<string>;
}

/** `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` (braced form only), replaced in one pass. */
export const PLUGIN_PLACEHOLDER = /\$\{CLAUDE_PLUGIN_(ROOT|DATA)\}/g;

/**
 * Replaces `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` in one string, then each `${user_config.KEY}`
 * the plugin has a value for; other text is untouched. Pure.
 */
export function substitutePluginString(text: string, vars: PluginVars): string {
  const plugin = text.replace(PLUGIN_PLACEHOLDER, (_match, which: string) =>
    which === "ROOT" ? vars.root : vars.dataDir,
  );
  const config = vars.userConfig;
  if (config === undefined) return plugin;
  return plugin.replace(USER_CONFIG_PLACEHOLDER, (match, key: string) =>
    Object.hasOwn(config, key) ? (config[key] ?? match) : match,
  );
}

/**
 * Returns a deep copy of a JSON value with both placeholders replaced in every string value (object keys
 * are left alone). Pure.
 */
export function substitutePluginValue(value: unknown, vars: PluginVars): unknown {
  if (typeof value === "string") return substitutePluginString(value, vars);
  if (Array.isArray(value)) return value.map((item) => substitutePluginValue(item, vars));
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (key === "__proto__") continue;
      out[key] = substitutePluginValue(item, vars);
    }
    return out;
  }
  return value;
}

/**
 * A copy of a hooks config with both placeholders replaced in every command hook's command. A command that got
 * a sensitive value is also given `shown`, the same text with the sensitive placeholders as written: warnings and
 * block reasons (which reach the model) name the hook by it. Pure.
 */
export function substitutePluginHooks(config: HooksConfig, vars: PluginVars): HooksConfig {
  const secret = vars.sensitiveKeys;
  const values = vars.userConfig;
  const shownVars: PluginVars =
    secret === undefined || values === undefined
      ? vars
      : { ...vars, userConfig: Object.fromEntries(Object.entries(values).filter(([k]) => !secret.has(k))) };
  const command = (text: string) => {
    const run = substitutePluginString(text, vars);
    const shown = substitutePluginString(text, shownVars);
    return shown === run ? { command: run } : { command: run, shown };
  };
  const out: HooksConfig = {};
  for (const event of HOOK_EVENTS) {
    const groups = config[event];
    if (groups === undefined) continue;
    out[event] = groups.map((group) => ({
      ...group,
      hooks: group.hooks.map((hook) =>
        hook.type === "command" ? { ...hook, ...command(hook.command) } : hook,
      ),
    }));
  }
  return out;
}

/**
 * True when a plugin's hooks or MCP servers reference its data dir, so the host should create it (with
 * {@link ensurePluginDataDir}) before running them. Pure.
 */
export function usesPluginDataDir(plugin: {
  dataDir: string;
  hooks: HooksConfig;
  mcpServers: Record<string, unknown>;
}): boolean {
  return JSON.stringify([plugin.hooks, plugin.mcpServers]).includes(
    JSON.stringify(plugin.dataDir).slice(1, -1),
  );
}

/** Creates the plugin's data dir (and its parents) when it does not exist yet. Rejects on fs errors. */
export async function ensurePluginDataDir(fs: FsOps, plugin: { dataDir: string }): Promise<void> {
  await fs.mkdir(plugin.dataDir);
}
