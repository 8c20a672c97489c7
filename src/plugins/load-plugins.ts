import pLimit from "p-limit";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import type { FsOps } from "../io/fs.js";
import {
  type FindPluginsOptions,
  findPlugins,
  type PluginCandidate,
  type PluginOrigin,
} from "./find-plugins.js";
import type { LoadedPlugin } from "./load-plugin.js";
import { pluginDataRoot } from "./plugin-data.js";

/** How many plugins load at once. */
export const PLUGIN_LOAD_CONCURRENCY = 8;

/** A loaded plugin and where it was found. */
export interface SourcedPlugin extends LoadedPlugin {
  origin: PluginOrigin;
}

/** `findPlugins` options plus where the plugins' data dirs go. */
export interface LoadPluginsOptions extends FindPluginsOptions {
  /** Parent of the plugins' data dirs; default `~/.skillwright/plugins/data`. */
  dataRoot?: string;
}

/**
 * Loads candidate plugin dirs in parallel (bounded by {@link PLUGIN_LOAD_CONCURRENCY}) and returns them in
 * candidate order. Two plugins with the same name: the first wins and the other is `shadowed`. Diagnostics come
 * per plugin, in candidate order. Never throws for bad content; rejects only when `signal` aborts.
 */
export async function loadPluginCandidates(options: {
  fs: FsOps;
  candidates: readonly PluginCandidate[];
  dataRoot: string;
  /** The home whose plugin settings fill in `${user_config.KEY}`. */
  userConfigHome?: string;
  signal?: AbortSignal;
}): Promise<{ plugins: SourcedPlugin[]; diagnostics: Diagnostic[] }> {
  const { fs, dataRoot, signal } = options;
  if (options.candidates.length === 0) return { plugins: [], diagnostics: [] };
  // The loader (manifests, hooks, agents, skills, and through them `yaml`) loads only when there is a plugin.
  const { loadPlugin } = await import("./load-plugin.js");
  const limit = pLimit(PLUGIN_LOAD_CONCURRENCY);
  const results = await Promise.all(
    options.candidates.map((c) =>
      limit(() =>
        loadPlugin({
          fs,
          root: c.root,
          dataRoot,
          marketplace: c.marketplace,
          signal,
          ...(options.userConfigHome === undefined ? {} : { userConfigHome: options.userConfigHome }),
          ...(c.overlay === undefined ? {} : { overlay: c.overlay }),
        }),
      ),
    ),
  );
  const diagnostics: Diagnostic[] = [];
  const plugins: SourcedPlugin[] = [];
  results.forEach((result, i) => {
    diagnostics.push(...result.diagnostics);
    const candidate = options.candidates[i];
    const plugin = result.plugin;
    if (plugin === undefined || candidate === undefined) return;
    const winner = plugins.find((p) => p.name === plugin.name);
    if (winner !== undefined) {
      diagnostics.push(
        diagnostic(
          "warning",
          "shadowed",
          `plugin "${plugin.name}" at ${plugin.root} is shadowed by the plugin of the same name at ${winner.root}`,
          plugin.root,
        ),
      );
      return;
    }
    plugins.push({ ...plugin, origin: candidate.origin });
  });
  return { plugins, diagnostics };
}

/**
 * Finds (`findPlugins`) and loads (`loadPluginCandidates`) every plugin: the same order, the same diagnostics,
 * discovery's first. Deterministic for a given tree.
 */
export async function loadPlugins(
  options: LoadPluginsOptions,
): Promise<{ plugins: SourcedPlugin[]; diagnostics: Diagnostic[] }> {
  const found = await findPlugins(options);
  const loaded = await loadPluginCandidates({
    fs: options.fs,
    candidates: found.candidates,
    dataRoot: options.dataRoot ?? pluginDataRoot(options.home),
    userConfigHome: options.home,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  return { plugins: loaded.plugins, diagnostics: [...found.diagnostics, ...loaded.diagnostics] };
}
