import { join } from "node:path";
import pLimit from "p-limit";
import { BUILTIN_AGENTS } from "../agent-types/agent-types.js";
import { type Diagnostic, diagnostic, hasErrors } from "../diagnostics.js";
import { HOOK_EVENTS } from "../hooks/hook-events.js";
import type { FsOps } from "../io/fs.js";
import { type LoadedPlugin, loadPlugin, MANIFEST_FILE } from "./load-plugin.js";
import { PLUGIN_LOAD_CONCURRENCY } from "./load-plugins.js";
import { MARKETPLACE_FILE } from "./marketplace.js";
import { checkMcpServers, mcpTransport } from "./mcp-shape.js";
import { readMarketplace } from "./read-marketplace.js";

/** What `plugin validate` found in one plugin dir. */
export interface PluginReport {
  root: string;
  name?: string;
  version?: string;
  ok: boolean;
  skills: string[];
  commands: string[];
  agents: string[];
  /** Hook count per event. */
  hooks: Record<string, number>;
  /** Server name → transport (`stdio`, `http`, `sse`, or `invalid`). */
  mcpServers: Record<string, string>;
  diagnostics: Diagnostic[];
}

/** What `plugin validate` found under a dir: one plugin, or every local plugin of a marketplace. */
export interface ValidationReport {
  ok: boolean;
  /** Set when the dir is a marketplace (it has a marketplace file and no plugin manifest). */
  marketplace?: { name?: string; file: string; diagnostics: Diagnostic[] };
  plugins: PluginReport[];
}

/**
 * Forked skills whose `agent:` names no built-in agent and no agent of the plugin: a warning (it may be a
 * user or project agent), with the full name when the bare name of one of the plugin's agents was used. Pure.
 */
export function checkForkAgents(plugin: Pick<LoadedPlugin, "name" | "skills" | "agents">): Diagnostic[] {
  const known = new Set([...BUILTIN_AGENTS.map((a) => a.name), ...plugin.agents.map((a) => a.name)]);
  const out: Diagnostic[] = [];
  for (const skill of plugin.skills) {
    if (skill.context !== "fork" || skill.agent === undefined || known.has(skill.agent)) continue;
    const full = `${plugin.name}:${skill.agent}`;
    out.push(
      diagnostic(
        "warning",
        "plugin-invalid",
        known.has(full)
          ? `agent "${skill.agent}" is this plugin's "${full}"; plugin agents are namespaced, write agent: ${full}`
          : `agent "${skill.agent}" is not a built-in agent nor one of this plugin's; it must come from the user's or project's agents`,
        skill.filePath,
      ),
    );
  }
  return out;
}

/**
 * Loads one plugin dir the way the engine does and adds the checks only validation makes: MCP server shapes
 * and fork agent references. Skill and command frontmatter is checked with the engine profile (as
 * `validate`), agents, hooks JSON and manifest paths by the loader. Never throws for bad content.
 */
export async function validatePluginDir(options: {
  fs: FsOps;
  root: string;
  dataRoot: string;
  /** The marketplace part of the plugin's id, for its data dir; default `inline`. */
  marketplace?: string;
  overlay?: Record<string, unknown>;
}): Promise<PluginReport> {
  const { plugin, diagnostics } = await loadPlugin(options);
  const report: PluginReport = {
    root: options.root,
    ok: false,
    skills: [],
    commands: [],
    agents: [],
    hooks: {},
    mcpServers: {},
    diagnostics: [...diagnostics],
  };
  if (plugin !== undefined) {
    report.name = plugin.name;
    if (plugin.manifest.version !== undefined) report.version = plugin.manifest.version;
    report.skills = plugin.skills.filter((s) => s.kind === "skill").map((s) => s.name);
    report.commands = plugin.skills.filter((s) => s.kind === "command").map((s) => s.name);
    report.agents = plugin.agents.map((a) => a.name);
    for (const event of HOOK_EVENTS) {
      const count = (plugin.hooks[event] ?? []).reduce((n, group) => n + group.hooks.length, 0);
      if (count > 0) report.hooks[event] = count;
    }
    for (const [name, config] of Object.entries(plugin.mcpServers)) {
      report.mcpServers[name] = mcpTransport(config) ?? "invalid";
    }
    report.diagnostics.push(...checkMcpServers(plugin.mcpServers, plugin.root), ...checkForkAgents(plugin));
  }
  report.ok = plugin !== undefined && !hasErrors(report.diagnostics);
  return report;
}

async function isFile(fs: FsOps, path: string): Promise<boolean> {
  try {
    return (await fs.stat(path)).kind === "file";
  } catch {
    return false;
  }
}

/**
 * Validates a plugin dir, or, when the dir holds a marketplace file and no plugin manifest, the marketplace
 * and every plugin it lists with a local source (remote ones are noted, not fetched). Never throws.
 */
export async function validatePlugins(options: {
  fs: FsOps;
  dir: string;
  dataRoot: string;
}): Promise<ValidationReport> {
  const { fs, dir, dataRoot } = options;
  const marketplaceFile = join(dir, MARKETPLACE_FILE);
  if ((await isFile(fs, join(dir, MANIFEST_FILE))) || !(await isFile(fs, marketplaceFile))) {
    const report = await validatePluginDir({ fs, root: dir, dataRoot });
    return { ok: report.ok, plugins: [report] };
  }
  const read = await readMarketplace(fs, marketplaceFile);
  const diagnostics = [...read.diagnostics];
  const local: { root: string; overlay: Record<string, unknown>; marketplace?: string }[] = [];
  for (const entry of read.marketplace?.plugins ?? []) {
    if (entry.root === undefined) {
      diagnostics.push(
        diagnostic(
          "info",
          "plugin-invalid",
          `${entry.name}: remote source (${entry.remote ?? "?"}) not checked`,
          marketplaceFile,
        ),
      );
    } else {
      const market = read.marketplace?.name;
      local.push({
        root: entry.root,
        overlay: entry.overlay,
        ...(market === undefined ? {} : { marketplace: market }),
      });
    }
  }
  const limit = pLimit(PLUGIN_LOAD_CONCURRENCY);
  const plugins = await Promise.all(local.map((p) => limit(() => validatePluginDir({ fs, dataRoot, ...p }))));
  const marketplace = {
    file: marketplaceFile,
    diagnostics,
    ...(read.marketplace === undefined ? {} : { name: read.marketplace.name }),
  };
  return { ok: !hasErrors(diagnostics) && plugins.every((p) => p.ok), marketplace, plugins };
}
