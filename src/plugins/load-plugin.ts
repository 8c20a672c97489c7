import { basename, join } from "node:path";
import type { AgentType } from "../agent-types/agent-types.js";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import type { HooksConfig } from "../hooks/schema.js";
import { errorCode, errorMessage, type FsOps } from "../io/fs.js";
import { isRecord } from "../is-record.js";
import type { PluginRef, Skill } from "../skill/skill.js";
import { checkConfined } from "./confine.js";
import { readJsonFile } from "./json-file.js";
import { loadPluginAgents } from "./load-agents.js";
import { type ConfigSource, loadPluginHooks, loadPluginMcpServers } from "./load-configs.js";
import { type ComponentTarget, loadPluginSkills } from "./load-skills.js";
import {
  COMPONENT_FIELDS,
  type ConfigRef,
  componentPaths,
  type PluginManifest,
  parseManifest,
  resolvePluginPath,
} from "./manifest.js";
import { INLINE_MARKETPLACE, pluginDataDir } from "./plugin-data.js";
import {
  configureHint,
  effectiveUserConfig,
  missingUserConfig,
  readUserConfigValues,
  referencedKeys,
  userConfigOptions,
} from "./user-config.js";

/** The manifest, relative to the plugin root. */
export const MANIFEST_FILE = join(".claude-plugin", "plugin.json");
/** The default component locations, relative to the plugin root (SPEC §11). */
export const DEFAULT_COMPONENT_PATHS = {
  skills: "skills",
  commands: "commands",
  agents: "agents",
  hooks: join("hooks", "hooks.json"),
  mcpServers: ".mcp.json",
} as const;

/** A plugin ready to register: namespaced skills and agents, hooks and raw MCP server configs. */
export interface LoadedPlugin {
  name: string;
  /** The plugin dir, as given (`${CLAUDE_PLUGIN_ROOT}`). */
  root: string;
  /**
   * `${CLAUDE_PLUGIN_DATA}`: `{dataRoot}/{name}-{marketplace}` (see `pluginDataDir`); not created until used.
   */
  dataDir: string;
  manifest: PluginManifest;
  /** Skills then commands, named `{plugin}:{name}`; commands have `kind: "command"`. */
  skills: Skill[];
  /** Agent types named `{plugin}:{agent}`, `source: "plugin"`. */
  agents: AgentType[];
  /** From `hooks/hooks.json` and the manifest, plugin placeholders substituted. */
  hooks: HooksConfig;
  /** Raw server configs from `.mcp.json` and the manifest, plugin placeholders substituted in every string. */
  mcpServers: Record<string, unknown>;
}

/** Input of {@link loadPlugin}. */
export interface LoadPluginOptions {
  fs: FsOps;
  root: string;
  /** Parent of every plugin's data dir, e.g. `~/.skillwright/plugins/data`. */
  dataRoot: string;
  /** The marketplace part of the plugin's id, naming its data dir; default `inline` (a `--plugin-dir` plugin). */
  marketplace?: string;
  /**
   * Manifest fields from a marketplace entry: when there is a `plugin.json` they fill in the fields it lacks
   * and their component paths are added to its own; without one they are the whole manifest.
   */
  overlay?: Record<string, unknown>;
  /**
   * The home whose `.skillwright/plugins` settings fill in `${user_config.KEY}` (see `user-config.ts`); absent:
   * placeholders stay as written (as when installing: what a plugin can do is judged without its settings).
   */
  userConfigHome?: string;
  signal?: AbortSignal;
}

/** The plugin when its manifest was usable, and every problem found. */
export interface LoadPluginResult {
  plugin?: LoadedPlugin;
  diagnostics: Diagnostic[];
}

function asList(value: unknown): unknown[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/**
 * Loads one plugin dir (SPEC §11): the manifest (optional: without one the plugin is named after its dir),
 * then skills, commands, agents, hooks and MCP servers from the default locations plus the manifest's paths
 * (which add to the defaults). Every file read must resolve (symlinks followed) inside the plugin root's real
 * path; one that leaves it is refused with `plugin-path-escape` and never read. Never throws for bad content: a
 * plugin whose manifest is unusable yields only diagnostics; a bad component is a diagnostic and the rest still
 * loads. Rejects only when `signal` aborts.
 */
export async function loadPlugin(options: LoadPluginOptions): Promise<LoadPluginResult> {
  try {
    return await load(options);
  } catch (error) {
    if (options.signal?.aborted === true) throw error;
    return {
      diagnostics: [
        diagnostic("error", "plugin-invalid", `plugin failed to load: ${errorMessage(error)}`, options.root),
      ],
    };
  }
}

async function load(options: LoadPluginOptions): Promise<LoadPluginResult> {
  const { fs, root, signal } = options;
  const diagnostics: Diagnostic[] = [];
  try {
    if ((await fs.stat(root)).kind !== "dir") {
      return { diagnostics: [diagnostic("error", "plugin-invalid", "plugin path is not a directory", root)] };
    }
  } catch (error) {
    const code = errorCode(error);
    const message =
      code === "ENOENT" ? "plugin directory does not exist" : `cannot read: ${errorMessage(error)}`;
    return { diagnostics: [diagnostic("error", "plugin-invalid", message, root)] };
  }

  // The plugin root's real path: every file the plugin contributes must resolve inside it (issue 16.2).
  const realRoot = await fs.realpath(root);
  const manifestPath = join(root, MANIFEST_FILE);
  const manifestEscape = await checkConfined(fs, manifestPath, realRoot);
  if (manifestEscape !== undefined) return { diagnostics: [manifestEscape] };
  const read = await readJsonFile(fs, manifestPath, "plugin-invalid");
  if (read.kind === "invalid") return { diagnostics: [read.diagnostic] };
  const own = read.kind === "ok" ? read.value : undefined;
  const json = mergeOverlay(own, options.overlay, root, manifestPath, diagnostics);
  const parsed = parseManifest(json, read.kind === "ok" ? manifestPath : root);
  diagnostics.push(...parsed.diagnostics);
  const manifest = parsed.manifest;
  if (manifest === undefined) return { diagnostics };
  signal?.throwIfAborted();

  const name = manifest.name;
  const dataDir = pluginDataDir(options.dataRoot, name, options.marketplace ?? INLINE_MARKETPLACE);
  const configOptions = userConfigOptions(isRecord(json) ? json.userConfig : undefined);
  const effective =
    options.userConfigHome === undefined || configOptions.length === 0
      ? undefined
      : effectiveUserConfig(configOptions, await readUserConfigValues(fs, options.userConfigHome, name));
  // Skills and agents see the non-sensitive values only (as in Claude Code): their text reaches the model.
  const shown =
    effective === undefined
      ? undefined
      : Object.fromEntries(
          configOptions.flatMap((o) => {
            const value = effective[o.key];
            return o.sensitive || value === undefined ? [] : [[o.key, value]];
          }),
        );
  const plugin: PluginRef = { name, root, dataDir, ...(shown === undefined ? {} : { userConfig: shown }) };
  const vars = {
    root,
    dataDir,
    ...(effective === undefined
      ? {}
      : {
          userConfig: effective,
          sensitiveKeys: new Set(configOptions.filter((o) => o.sensitive).map((o) => o.key)),
        }),
  };
  const where = read.kind === "ok" ? manifestPath : root;
  const targets = (field: "skills" | "commands" | "agents"): ComponentTarget[] => [
    { path: join(root, DEFAULT_COMPONENT_PATHS[field]), required: false },
    ...resolvePaths(root, componentPaths(manifest[field]), field, where, diagnostics).map((path) => ({
      path,
      required: true,
    })),
  ];
  const configs = (field: "hooks" | "mcpServers"): ConfigSource[] => [
    { kind: "file", path: join(root, DEFAULT_COMPONENT_PATHS[field]), required: false },
    ...configSources(root, manifest[field], field, where, diagnostics),
  ];
  const skillTargets = targets("skills");
  const commandTargets = targets("commands");
  const agentTargets = targets("agents");
  const hookSources = configs("hooks");
  const mcpSources = configs("mcpServers");

  const [skills, agents, hooks, mcp] = await Promise.all([
    loadPluginSkills({ fs, plugin, skills: skillTargets, commands: commandTargets, realRoot, signal }),
    loadPluginAgents({ fs, pluginName: name, targets: agentTargets, realRoot, signal }),
    loadPluginHooks(fs, hookSources, vars, realRoot),
    loadPluginMcpServers(fs, mcpSources, vars, realRoot),
  ]);
  diagnostics.push(...skills.diagnostics, ...agents.diagnostics, ...hooks.diagnostics, ...mcp.diagnostics);
  if (effective !== undefined) {
    const unresolved = referencedKeys(JSON.stringify([hooks.hooks, mcp.mcpServers]));
    const missing = missingUserConfig(configOptions, effective, unresolved);
    if (missing.length > 0) {
      diagnostics.push(
        diagnostic(
          "error",
          "plugin-config-missing",
          `plugin "${name}" needs ${missing.map((o) => o.key).join(", ")} set: run \`${configureHint(
            name,
            missing.map((o) => o.key),
          )}\``,
          root,
        ),
      );
    }
  }
  return {
    plugin: {
      name,
      root,
      dataDir,
      manifest,
      skills: skills.skills,
      agents: agents.agents,
      hooks: hooks.hooks,
      mcpServers: mcp.mcpServers,
    },
    diagnostics,
  };
}

/** The manifest JSON to parse: `plugin.json`, the marketplace overlay, or a name from the dir. */
function mergeOverlay(
  own: unknown,
  overlay: Record<string, unknown> | undefined,
  root: string,
  manifestPath: string,
  diagnostics: Diagnostic[],
): unknown {
  if (own === undefined) {
    if (overlay !== undefined) return { ...overlay };
    diagnostics.push(
      diagnostic(
        "info",
        "plugin-invalid",
        `no ${MANIFEST_FILE}; the plugin is named after its directory`,
        root,
      ),
    );
    return { name: basename(root) };
  }
  if (overlay === undefined || !isRecord(own)) return own;
  const merged: Record<string, unknown> = { ...own };
  if (typeof overlay.name === "string" && typeof own.name === "string" && overlay.name !== own.name) {
    diagnostics.push(
      diagnostic(
        "warning",
        "plugin-invalid",
        `marketplace entry "${overlay.name}" names a plugin whose manifest says "${own.name}"; using "${own.name}"`,
        manifestPath,
      ),
    );
  }
  for (const [key, value] of Object.entries(overlay)) {
    if (key === "name" || key === "__proto__") continue;
    if (!(key in own)) merged[key] = value;
    else if ((COMPONENT_FIELDS as readonly string[]).includes(key))
      merged[key] = [...asList(own[key]), ...asList(value)];
  }
  return merged;
}

function resolvePaths(
  root: string,
  raws: readonly string[],
  field: string,
  where: string,
  diagnostics: Diagnostic[],
): string[] {
  const out: string[] = [];
  for (const raw of raws) {
    const resolved = resolvePluginPath(root, raw);
    if (!resolved.ok) {
      diagnostics.push(diagnostic("error", "plugin-invalid", `${field}: ${resolved.reason}`, where));
      continue;
    }
    if (resolved.warning !== undefined) {
      diagnostics.push(diagnostic("warning", "plugin-invalid", `${field}: ${resolved.warning}`, where));
    }
    out.push(resolved.path);
  }
  return out;
}

function configSources(
  root: string,
  value: ConfigRef | undefined,
  field: string,
  where: string,
  diagnostics: Diagnostic[],
): ConfigSource[] {
  const out: ConfigSource[] = [];
  for (const item of asList(value)) {
    if (typeof item === "string") {
      for (const path of resolvePaths(root, [item], field, where, diagnostics)) {
        out.push({ kind: "file", path, required: true });
      }
    } else {
      out.push({ kind: "inline", value: item, where });
    }
  }
  return out;
}
