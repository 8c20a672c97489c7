import { isAbsolute, join, resolve } from "node:path";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { dirProblem } from "../discovery/scan-dir.js";
import { errorCode, type FsOps } from "../io/fs.js";
import { claudeInstalledFile, readClaudeInstalled } from "./claude-installed.js";
import { type LoadedMarketplace, MARKETPLACE_FILE } from "./marketplace.js";
import { INLINE_MARKETPLACE } from "./plugin-data.js";
import { readMarketplace } from "./read-marketplace.js";

/** Where a plugin root was found. */
export type PluginOrigin =
  | { kind: "plugin-dir" }
  | { kind: "marketplace"; marketplace: string; file: string }
  | { kind: "installed" }
  | { kind: "claude-code"; file: string };

/** A plugin dir to load, with the marketplace entry's manifest fields when it came from one. */
export interface PluginCandidate {
  root: string;
  origin: PluginOrigin;
  /**
   * The marketplace part of the plugin's id (`{name}@{marketplace}`), which names its data dir: `inline` for a
   * `--plugin-dir` plugin, the `enabledPlugins` key's for a marketplace or Claude Code install, `installed` for
   * `~/.skillwright/plugins/installed`.
   */
  marketplace: string;
  overlay?: Record<string, unknown>;
}

/** The settings keys plugin discovery reads (a merged `Settings` object fits). */
export interface PluginSettings {
  /** `"name@marketplace": true` enables a marketplace plugin; `"name": false` disables an installed one. */
  enabledPlugins?: Record<string, boolean>;
  /** `{ [name]: { source: { source: "directory", path } | { source: "file", path } | … } }` (Claude Code). */
  extraKnownMarketplaces?: unknown;
}

/** Where {@link findPlugins} looks. */
export interface FindPluginsOptions {
  fs: FsOps;
  /** `--plugin-dir` dirs in the order given; relative ones are resolved against `projectDir`. */
  pluginDirs: readonly string[];
  settings: PluginSettings;
  home: string;
  projectDir: string;
  signal?: AbortSignal;
}

/** The label marketplace keys use for plugins in the installed-plugins dir (`"name@installed": false`). */
export const INSTALLED_MARKETPLACE = "installed";

/** `~/.skillwright/plugins/installed`: each child dir is a plugin that is always loaded unless disabled. Pure. */
export function pluginInstallRoot(home: string): string {
  return join(home, ".skillwright", "plugins", "installed");
}

function expandPath(path: string, home: string, base: string): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return isAbsolute(path) ? path : resolve(base, path);
}

/**
 * The plugin dirs to load, in precedence order (SPEC §11): `--plugin-dir` dirs; then plugins of local
 * marketplaces (the project's `.claude-plugin/marketplace.json`, then each `extraKnownMarketplaces` entry with a
 * `directory` or `file` source) that `enabledPlugins` enables as `"name@marketplace": true`, in marketplace
 * order; then enabled plugins Claude Code installed (`~/.claude/plugins/installed_plugins.json`, see
 * `claude-installed.ts`), in `enabledPlugins` order; then `~/.skillwright/plugins/installed/*` sorted by name. A dir reached twice is kept once (first
 * wins). Never throws for bad content; remote marketplaces and remote plugin sources are reported, not fetched.
 */
export async function findPlugins(
  options: FindPluginsOptions,
): Promise<{ candidates: PluginCandidate[]; diagnostics: Diagnostic[] }> {
  const { fs, home, projectDir, settings } = options;
  const diagnostics: Diagnostic[] = [];
  const candidates: PluginCandidate[] = options.pluginDirs.map((dir) => ({
    root: expandPath(dir, home, projectDir),
    origin: { kind: "plugin-dir" },
    marketplace: INLINE_MARKETPLACE,
  }));

  const marketplaces = await localMarketplaces(options, diagnostics);
  const enabled = Object.entries(settings.enabledPlugins ?? {})
    .filter(([key, on]) => on && key.includes("@"))
    .map(([key]) => key);
  const matched = new Set<string>();
  for (const { marketplace, aliases } of marketplaces) {
    for (const entry of marketplace.plugins) {
      const key = aliases.map((alias) => `${entry.name}@${alias}`).find((k) => enabled.includes(k));
      if (key === undefined) continue;
      matched.add(key);
      if (entry.root === undefined) {
        diagnostics.push(
          diagnostic(
            "warning",
            "plugin-invalid",
            `${key} has a remote source (${entry.remote ?? "unknown"}); skillwright loads local plugins only: clone it and pass --plugin-dir, or put it in ${pluginInstallRoot(home)}`,
            marketplace.file,
          ),
        );
        continue;
      }
      candidates.push({
        root: entry.root,
        origin: { kind: "marketplace", marketplace: marketplace.name, file: marketplace.file },
        marketplace: key.slice(key.lastIndexOf("@") + 1),
        overlay: entry.overlay,
      });
    }
  }
  const known = new Set(marketplaces.flatMap((m) => m.aliases));
  const unmatched = enabled.filter((key) => !matched.has(key));
  const claude = unmatched.length === 0 ? undefined : await readClaudeInstalled(fs, home, projectDir);
  diagnostics.push(...(claude?.diagnostics ?? []));
  for (const key of unmatched) {
    const market = key.slice(key.lastIndexOf("@") + 1);
    const install = claude?.installs.get(key);
    if (install !== undefined) {
      // Installed by Claude Code from a marketplace we do not read: its copy on disk is the plugin.
      candidates.push({
        root: install.installPath,
        origin: { kind: "claude-code", file: claudeInstalledFile(home) },
        marketplace: market,
      });
    } else if (known.has(market)) {
      diagnostics.push(
        diagnostic(
          "warning",
          "plugin-invalid",
          `enabledPlugins: ${key} is not listed in marketplace "${market}"`,
        ),
      );
    } else if (market !== INSTALLED_MARKETPLACE) {
      diagnostics.push(
        diagnostic(
          "info",
          "plugin-invalid",
          `enabledPlugins: ${key}: "${market}" is not a local marketplace and Claude Code has not installed it; ignored`,
        ),
      );
    }
  }

  candidates.push(...(await installedPlugins(fs, home, settings, diagnostics)));
  options.signal?.throwIfAborted();
  return { candidates: await dedupe(fs, candidates, diagnostics), diagnostics };
}

async function localMarketplaces(
  options: FindPluginsOptions,
  diagnostics: Diagnostic[],
): Promise<{ marketplace: LoadedMarketplace; aliases: string[] }[]> {
  const { fs, home, projectDir } = options;
  const files: { file: string; key?: string; required: boolean }[] = [
    { file: join(projectDir, MARKETPLACE_FILE), required: false },
  ];
  const extra = options.settings.extraKnownMarketplaces;
  if (typeof extra === "object" && extra !== null && !Array.isArray(extra)) {
    const { knownMarketplaceSchema, localMarketplaceSourceSchema } = await import("./parse-marketplace.js");
    for (const [key, value] of Object.entries(extra)) {
      const known = knownMarketplaceSchema().safeParse(value);
      if (!known.success) {
        diagnostics.push(
          diagnostic(
            "warning",
            "settings-invalid",
            `extraKnownMarketplaces.${key}: needs a \`source\`; ignored`,
          ),
        );
        continue;
      }
      const local = localMarketplaceSourceSchema().safeParse(known.data.source);
      if (!local.success) {
        diagnostics.push(
          diagnostic(
            "info",
            "plugin-invalid",
            `extraKnownMarketplaces.${key}: "${known.data.source.source}" marketplaces are not fetched; only "directory" and "file" sources are read`,
          ),
        );
        continue;
      }
      const path = expandPath(local.data.path, home, projectDir);
      files.push({
        file: local.data.source === "file" ? path : join(path, MARKETPLACE_FILE),
        key,
        required: true,
      });
    }
  }
  const out: { marketplace: LoadedMarketplace; aliases: string[] }[] = [];
  for (const { file, key, required } of files) {
    const read = await readMarketplace(fs, file);
    diagnostics.push(...read.diagnostics);
    if (read.missing === true && required) {
      diagnostics.push(diagnostic("warning", "plugin-invalid", `marketplace file not found`, file));
    }
    const marketplace = read.marketplace;
    if (marketplace === undefined) continue;
    const aliases =
      key === undefined || key === marketplace.name ? [marketplace.name] : [key, marketplace.name];
    const same = out.find((m) => m.marketplace.file === file);
    if (same !== undefined) same.aliases.push(...aliases.filter((a) => !same.aliases.includes(a)));
    else out.push({ marketplace, aliases });
  }
  return out;
}

async function installedPlugins(
  fs: FsOps,
  home: string,
  settings: PluginSettings,
  diagnostics: Diagnostic[],
): Promise<PluginCandidate[]> {
  const dir = pluginInstallRoot(home);
  let entries: Awaited<ReturnType<FsOps["readdir"]>>;
  try {
    entries = await fs.readdir(dir);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") diagnostics.push(dirProblem(dir, error));
    return [];
  }
  const off = settings.enabledPlugins ?? {};
  return entries
    .filter((e) => !e.name.startsWith(".") && (e.kind === "dir" || e.kind === "symlink"))
    .map((e) => e.name)
    .filter((name) => off[name] !== false && off[`${name}@${INSTALLED_MARKETPLACE}`] !== false)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => ({
      root: join(dir, name),
      origin: { kind: "installed" },
      marketplace: INSTALLED_MARKETPLACE,
    }));
}

async function dedupe(
  fs: FsOps,
  candidates: PluginCandidate[],
  diagnostics: Diagnostic[],
): Promise<PluginCandidate[]> {
  const reals = await Promise.all(candidates.map((c) => fs.realpath(c.root).catch(() => c.root)));
  const seen = new Map<string, string>();
  return candidates.filter((candidate, i) => {
    const real = reals[i] ?? candidate.root;
    const first = seen.get(real);
    if (first !== undefined) {
      diagnostics.push(
        diagnostic(
          "info",
          "duplicate-realpath",
          `same plugin dir as ${first}; loaded once, from there`,
          candidate.root,
        ),
      );
      return false;
    }
    seen.set(real, candidate.root);
    return true;
  });
}
