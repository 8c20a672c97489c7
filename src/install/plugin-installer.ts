import { dirname, join, relative } from "node:path";
import { writeFileAtomic } from "../io/atomic-write.js";
import { errorCode, errorMessage, pathKind } from "../io/fs.js";
import { isRecord } from "../is-record.js";
import { pluginInstallRoot } from "../plugins/find-plugins.js";
import { loadPlugin } from "../plugins/load-plugin.js";
import { pluginDataRoot } from "../plugins/plugin-data.js";
import { hashFolder } from "./folder-hash.js";
import type { InstallerDeps } from "./installer-deps.js";
import type { KnownMarketplace, KnownMarketplaces } from "./known-marketplaces.js";
import { describeProblem, installedDrift } from "./lock-check.js";
import { fetchMarketplace, marketplaceCatalog, readKnownMarketplaces } from "./marketplaces.js";
import { gainedPowers, pluginCapabilities } from "./plugin-capabilities.js";
import { lockedPlugins, type PluginLockEntry, withPlugins } from "./plugin-lock.js";
import { parseDependencies, type Release, ResolveError, resolvePlugins } from "./plugin-resolve.js";
import { pickVersion, pluginTag, taggedVersions, type VersionConstraint } from "./plugin-versions.js";
import { copySkillDir, isInside, isPlainFolderName, linkOutOf } from "./skill-tree.js";
import { parseLock, type SkillsLock, scopePlaces } from "./skills-lock.js";

/** The plugin commands' needs: the install commands' and, in a terminal, a way to ask the user. */
export interface PluginInstallerDeps extends InstallerDeps {
  /** Asks a yes/no question; absent when stdin is not a terminal (then nothing is asked). */
  confirm?: (question: string) => Promise<boolean>;
}

/** Options of `plugin install` and `plugin update`. */
export interface PluginInstallOptions {
  /** A semver range over the plugin's release tags (`--version`). */
  range?: string;
  /** Change nothing; fail when the lock, the installed copies or what the marketplace resolves to differ. */
  frozen: boolean;
  /** Accept an update that gains powers without asking (`--yes`). */
  yes: boolean;
}

interface Loaded {
  lock: SkillsLock;
  plugins: Record<string, PluginLockEntry>;
  marketplaces: KnownMarketplaces;
  lockFile: string;
}

async function loadState(deps: InstallerDeps): Promise<Loaded | { error: string }> {
  const lockFile = scopePlaces("user", { projectDir: deps.projectDir, home: deps.home }).lockFile;
  let text: string | undefined;
  try {
    text = await deps.fs.readFile(lockFile);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") return { error: `${lockFile}: ${errorMessage(error)}` };
  }
  const parsed = parseLock(text);
  if ("error" in parsed) return { error: `${lockFile}: ${parsed.error}` };
  const plugins = lockedPlugins(parsed.lock);
  if ("error" in plugins) return { error: `${lockFile}: ${plugins.error}` };
  const known = await readKnownMarketplaces(deps);
  if ("error" in known) return known;
  return { lock: parsed.lock, plugins: plugins.plugins, marketplaces: known.marketplaces, lockFile };
}

/**
 * The plugin state when it reads and holds every one of `names`; else undefined, once the reason is said on
 * `deps.err` (`more` ends the "not installed" line).
 */
async function loadNamed(
  deps: InstallerDeps,
  names: readonly string[],
  more: string,
): Promise<Loaded | undefined> {
  const state = await loadState(deps);
  if ("error" in state) {
    deps.err(`cannot read the plugin state: ${state.error}`);
    return undefined;
  }
  const unknown = names.filter((n) => state.plugins[n] === undefined);
  if (unknown.length > 0) {
    deps.err(`not installed: ${unknown.join(", ")} (${state.lockFile})${more}`);
    return undefined;
  }
  return state;
}

async function writeState(deps: InstallerDeps, state: Loaded, plugins: Record<string, PluginLockEntry>) {
  await deps.fs.mkdir(dirname(state.lockFile));
  const { serializeLock } = await import("./skills-lock.js");
  await writeFileAtomic(deps.fs, state.lockFile, serializeLock(withPlugins(state.lock, plugins)));
}

/** A release and what installing it means: its files' hash, its powers, the entry the lock gets. */
interface Planned {
  release: Release;
  entry: PluginLockEntry;
}

/** Reads releases from the registered marketplaces, keeping the temp checkouts to remove at the end. */
function releaseReader(
  deps: InstallerDeps,
  marketplaces: KnownMarketplaces,
  cleanups: (() => Promise<void>)[],
) {
  return async (
    name: string,
    marketplace: string,
    constraints: readonly VersionConstraint[],
  ): Promise<Release> => {
    if (!isPlainFolderName(name)) {
      throw new ResolveError(`"${name}" (from ${marketplace}) is not a plugin name a folder can be made for`);
    }
    const known = marketplaces[marketplace];
    if (known === undefined) {
      throw new ResolveError(
        `${name}@${marketplace}: no marketplace "${marketplace}" is registered; add it with skillwright plugin marketplace add <source>`,
      );
    }
    const read = await marketplaceCatalog(deps, known);
    if ("error" in read) throw new ResolveError(`${name}@${marketplace}: ${read.error}`);
    const listed = read.catalog.plugins.find((p) => p.name === name);
    if (listed === undefined) {
      throw new ResolveError(
        `${name}@${marketplace}: marketplace "${marketplace}" lists no plugin "${name}"`,
      );
    }
    if (listed.root === undefined) {
      throw new ResolveError(
        `${name}@${marketplace}: its source is remote (${listed.remote ?? "unknown"}); skillwright installs plugins kept in the marketplace's own repository`,
      );
    }
    const inRepo = relative(known.installLocation, listed.root);
    let dir = listed.root;
    let version: string | undefined;
    let tag: string | undefined;
    let commit: string | undefined;
    let top = known.installLocation;
    if (constraints.length > 0) {
      if (known.source.source !== "git") {
        throw new ResolveError(
          `${name}@${marketplace}: ${constraints.map((c) => `${c.range} (${c.by})`).join(", ")} cannot be resolved: a folder marketplace has no release tags`,
        );
      }
      const tags = (await deps.run("git", ["-C", known.installLocation, "tag", "--list"], {})).stdout.split(
        "\n",
      );
      const pick = pickVersion(taggedVersions(name, tags), constraints);
      if (pick.kind === "invalid-range") {
        throw new ResolveError(
          `range-conflict: ${name}: "${pick.constraint.range}" (${pick.constraint.by}) is not a semver range`,
        );
      }
      if (pick.kind === "none") {
        throw new ResolveError(
          `${name}@${marketplace}: no release satisfies ${constraints.map((c) => `${c.range} (${c.by})`).join(" and ")}; available: ${pick.available.length === 0 ? `none (tags ${name}--v<version>)` : pick.available.join(", ")}`,
        );
      }
      version = pick.version;
      tag = pluginTag(name, version);
      const temp = await deps.makeTempDir();
      cleanups.push(() => deps.fs.rm(temp));
      const checkout = join(temp, "repo");
      await deps.run("git", ["clone", "--quiet", "--branch", tag, "--", known.installLocation, checkout], {});
      commit = (await deps.run("git", ["-C", checkout, "rev-parse", "HEAD"], {})).stdout.trim();
      dir = join(checkout, inRepo);
      top = checkout;
    } else if (known.source.source === "git") {
      commit = (await deps.run("git", ["-C", known.installLocation, "rev-parse", "HEAD"], {})).stdout.trim();
    }
    if ((await pathKind(deps.fs, dir)) !== "dir") {
      throw new ResolveError(
        `${name}@${marketplace}: ${inRepo} is not a folder${tag === undefined ? "" : ` at ${tag}`}`,
      );
    }
    const [realTop, realDir] = await Promise.all([deps.fs.realpath(top), deps.fs.realpath(dir)]);
    if (!isInside(realTop, realDir)) {
      throw new ResolveError(`${name}@${marketplace}: ${inRepo} is a link out of the marketplace repository`);
    }
    const manifest = await readManifestJson(deps, dir);
    if (version === undefined && typeof manifest.version === "string") version = manifest.version;
    const declared = parseDependencies(manifest.dependencies ?? listed.overlay.dependencies);
    if ("error" in declared) throw new ResolveError(`${name}@${marketplace}: ${declared.error}`);
    return {
      name,
      marketplace,
      ...(version === undefined ? {} : { version }),
      ...(tag === undefined ? {} : { tag }),
      ...(commit === undefined ? {} : { commit }),
      dir,
      dependencies: declared.dependencies,
    };
  };
}

async function readManifestJson(deps: InstallerDeps, dir: string): Promise<Record<string, unknown>> {
  try {
    const json: unknown = JSON.parse(await deps.fs.readFile(join(dir, ".claude-plugin", "plugin.json")));
    return isRecord(json) ? json : {};
  } catch {
    return {};
  }
}

/** Ranges installed plugins (other than `replacing`) put on their dependencies. Pure. */
function heldConstraints(
  plugins: Record<string, PluginLockEntry>,
  replacing: ReadonlySet<string>,
): Map<string, VersionConstraint[]> {
  const held = new Map<string, VersionConstraint[]>();
  for (const [name, entry] of Object.entries(plugins)) {
    if (replacing.has(name)) continue;
    for (const dep of entry.dependencies) {
      if (dep.range === undefined) continue;
      held.set(dep.name, [...(held.get(dep.name) ?? []), { range: dep.range, by: name }]);
    }
  }
  return held;
}

async function plan(
  deps: PluginInstallerDeps,
  state: Loaded,
  root: { name: string; marketplace: string; range?: string },
  cleanups: (() => Promise<void>)[],
): Promise<Planned[]> {
  const known = state.marketplaces[root.marketplace];
  const rootCatalog = known === undefined ? undefined : await marketplaceCatalog(deps, known);
  const allowRaw =
    rootCatalog !== undefined && "json" in rootCatalog
      ? rootCatalog.json.allowCrossMarketplaceDependenciesOn
      : undefined;
  const releases = await resolvePlugins(root, {
    release: releaseReader(deps, state.marketplaces, cleanups),
    crossMarketplaceAllowed: Array.isArray(allowRaw)
      ? allowRaw.filter((x): x is string => typeof x === "string")
      : [],
    held: heldConstraints(state.plugins, new Set([root.name])),
  });
  const planned: Planned[] = [];
  for (const release of releases) {
    const loaded = await loadPlugin({
      fs: deps.fs,
      root: release.dir,
      dataRoot: pluginDataRoot(deps.home),
      marketplace: release.marketplace,
    });
    if (loaded.plugin === undefined) {
      const why = loaded.diagnostics.find((d) => d.severity === "error")?.message ?? "it does not load";
      throw new ResolveError(`${release.name}@${release.marketplace}: ${why}`);
    }
    const hash = await hashFolder(deps.fs, release.dir);
    const isRoot = release.name === root.name;
    const before = state.plugins[release.name];
    planned.push({
      release,
      entry: {
        source: `${release.name}@${release.marketplace}`,
        sourceType: "marketplace-plugin",
        marketplace: release.marketplace,
        ...(release.version === undefined ? {} : { version: release.version }),
        ...(release.tag === undefined ? {} : { tag: release.tag }),
        ...(isRoot
          ? root.range === undefined
            ? {}
            : { range: root.range }
          : before?.range === undefined
            ? {}
            : { range: before.range }),
        ...(release.commit === undefined ? {} : { commit: release.commit }),
        computedHash: hash.computedHash,
        files: {},
        capabilities: await pluginCapabilities(deps.fs, deps.modes, loaded.plugin, deps.signal),
        dependencies: release.dependencies.map((d) => ({
          name: d.name,
          marketplace: d.marketplace ?? release.marketplace,
          ...(d.range === undefined ? {} : { range: d.range }),
        })),
        // A plugin first installed as a dependency stays marked so (the root's mark is settled by the caller).
        ...(before === undefined || before.autoInstalled === true ? { autoInstalled: true } : {}),
      },
    });
  }
  return planned;
}

const label = (entry: { version?: string | undefined; commit?: string | undefined }) =>
  entry.version ?? (entry.commit === undefined ? "(unversioned)" : entry.commit.slice(0, 12));

/** The installed copy's drift from its lock entry, as a line, or undefined. */
async function driftOf(
  deps: InstallerDeps,
  name: string,
  entry: PluginLockEntry,
): Promise<string | undefined> {
  const dir = join(pluginInstallRoot(deps.home), name);
  const installed = (await pathKind(deps.fs, dir)) === "dir" ? await hashFolder(deps.fs, dir) : undefined;
  const drift = installedDrift(
    {
      source: entry.source,
      sourceType: entry.sourceType,
      computedHash: entry.computedHash,
      skillwright: { files: entry.files },
    },
    installed,
  );
  return drift === undefined ? undefined : describeProblem(drift);
}

/** `--frozen`: every planned plugin is locked as it resolves now and installed as locked. */
async function frozenVerdict(
  deps: PluginInstallerDeps,
  state: Loaded,
  planned: readonly Planned[],
): Promise<number> {
  let failed = false;
  for (const { release, entry } of planned) {
    const locked = state.plugins[release.name];
    const problems: string[] = [];
    if (locked === undefined) problems.push("not in the lock");
    else {
      if (locked.computedHash !== entry.computedHash || locked.version !== entry.version) {
        problems.push(`locked ${label(locked)}, resolves to ${label(entry)}`);
      }
      const drift = await driftOf(deps, release.name, locked);
      if (drift !== undefined) problems.push(drift);
    }
    if (problems.length > 0) failed = true;
    for (const p of problems) deps.err(`✗ ${release.name}: ${p}`);
    if (problems.length === 0) deps.out(`✓ ${release.name} ${label(locked ?? entry)}: matches the lock`);
  }
  if (failed)
    deps.err("--frozen: the lock, the installed plugins and the marketplace differ; nothing was changed");
  return failed ? 1 : 0;
}

/**
 * Checks, reports and installs planned plugins (dependencies first): a plugin whose copy has local edits, a
 * folder no lock entry owns, or an update that gains powers without consent (a yes in a terminal, else `--yes`)
 * stops everything before anything is written. Returns the exit code.
 */
async function apply(
  deps: PluginInstallerDeps,
  state: Loaded,
  planned: readonly Planned[],
  options: PluginInstallOptions,
): Promise<number> {
  const root = pluginInstallRoot(deps.home);
  const refusals: string[] = [];
  const changing: Planned[] = [];
  for (const item of planned) {
    const { release, entry } = item;
    const locked = state.plugins[release.name];
    const target = join(root, release.name);
    if (
      locked !== undefined &&
      locked.computedHash === entry.computedHash &&
      (await driftOf(deps, release.name, locked)) === undefined
    ) {
      deps.out(`${release.name} ${label(locked)}: up to date`);
      continue;
    }
    const link = await linkOutOf(deps.fs, await deps.fs.realpath(release.dir), release.dir);
    if (link !== undefined) {
      refusals.push(`${release.name}: refused: ${link}`);
      continue;
    }
    deps.out(
      `${release.name}@${release.marketplace} ${label(entry)}${entry.tag === undefined ? "" : ` (tag ${entry.tag})`}`,
    );
    deps.out(entry.capabilities.length === 0 ? "  can: nothing beyond its instructions" : "  can:");
    for (const line of entry.capabilities) deps.out(`    ${line}`);
    if (locked === undefined) {
      if ((await pathKind(deps.fs, target)) !== undefined) {
        refusals.push(
          `${release.name}: refused: ${target} exists and no lock entry owns it; remove or rename it first`,
        );
        continue;
      }
    } else {
      const drift = await driftOf(deps, release.name, locked);
      if (drift !== undefined && drift !== "locked but not installed") {
        refusals.push(
          `${release.name}: refused: ${drift}; installing would overwrite those edits (uninstall it first)`,
        );
        continue;
      }
      const gains = gainedPowers(locked.capabilities, entry.capabilities);
      if (gains.length > 0) {
        deps.out(`  gains over ${label(locked)}: ${gains.map((g) => `+${g}`).join(", ")}`);
        const asked =
          options.yes ||
          (deps.confirm !== undefined &&
            (await deps.confirm(`Update ${release.name} to ${label(entry)} with these new powers?`)));
        if (!asked) {
          refusals.push(
            `${release.name}: the update to ${label(entry)} gains ${gains.length} power(s) since it was approved (${gains.map((g) => `+${g}`).join(", ")}); run it in a terminal to be asked, or again with --yes to accept`,
          );
          continue;
        }
      }
    }
    changing.push(item);
  }
  if (refusals.length > 0) {
    for (const line of refusals) deps.err(line);
    deps.err("nothing was installed");
    return 1;
  }
  if (changing.length === 0) return 0;
  const staging = join(root, `.skillwright-staging-${crypto.randomUUID().slice(0, 8)}`);
  const movedAside: { target: string; aside: string }[] = [];
  const placed: string[] = [];
  const next = { ...state.plugins };
  await deps.fs.mkdir(staging);
  try {
    for (const { release, entry } of changing) {
      const staged = join(staging, release.name);
      await copySkillDir(deps.fs, deps.modes, release.dir, staged);
      next[release.name] = { ...entry, files: (await hashFolder(deps.fs, staged)).files };
    }
    for (const { release } of changing) {
      const target = join(root, release.name);
      if ((await pathKind(deps.fs, target)) !== undefined) {
        const aside = join(staging, `${release.name}.previous`);
        await deps.fs.rename(target, aside);
        movedAside.push({ target, aside });
      }
      await deps.fs.rename(join(staging, release.name), target);
      placed.push(target);
    }
    await writeState(deps, state, next);
  } catch (error) {
    for (const target of placed) await deps.fs.rm(target).catch(() => undefined);
    for (const { target, aside } of movedAside) await deps.fs.rename(aside, target).catch(() => undefined);
    deps.err(`install failed, nothing was installed: ${errorMessage(error)}`);
    return 1;
  } finally {
    await deps.fs.rm(staging).catch(() => undefined);
  }
  state.plugins = next;
  for (const { release, entry } of changing) {
    deps.out(
      `installed ${release.name} ${label(entry)} → ${join(root, release.name)}${entry.autoInstalled === true ? " (dependency)" : ""}`,
    );
  }
  deps.out(`lock: ${state.lockFile}`);
  return 0;
}

function splitId(id: string): { name: string; marketplace: string } | undefined {
  const at = id.lastIndexOf("@");
  if (at <= 0 || at === id.length - 1) return undefined;
  return { name: id.slice(0, at), marketplace: id.slice(at + 1) };
}

async function withCleanups<T>(run: (cleanups: (() => Promise<void>)[]) => Promise<T>): Promise<T> {
  const cleanups: (() => Promise<void>)[] = [];
  try {
    return await run(cleanups);
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
  }
}

/**
 * `plugin install name@marketplace [--version RANGE] [--frozen] [--yes]`: resolves the plugin and its dependencies
 * in the registered marketplaces (a range: the highest `{name}--v{version}` tag meeting it; none: the listed copy),
 * prints what each can do, installs them into `~/.skillwright/plugins/installed/` and locks them in the user
 * lock. Returns the exit code.
 */
export async function installPlugin(
  deps: PluginInstallerDeps,
  id: string,
  options: PluginInstallOptions,
): Promise<number> {
  const parts = splitId(id);
  if (parts === undefined) {
    deps.err(`give the plugin as name@marketplace (not "${id}")`);
    return 2;
  }
  const state = await loadState(deps);
  if ("error" in state) {
    deps.err(`cannot read the plugin state: ${state.error}`);
    return 1;
  }
  const locked = state.plugins[parts.name];
  if (locked !== undefined && locked.marketplace !== parts.marketplace) {
    deps.err(
      `${parts.name} is installed from ${locked.marketplace}; uninstall it first to install it from ${parts.marketplace}`,
    );
    return 1;
  }
  return withCleanups(async (cleanups) => {
    let planned: Planned[];
    try {
      planned = await plan(
        deps,
        state,
        { ...parts, ...(options.range === undefined ? {} : { range: options.range }) },
        cleanups,
      );
    } catch (error) {
      deps.err(errorMessage(error));
      return 1;
    }
    if (options.frozen) return frozenVerdict(deps, state, planned);
    const rootEntry = planned.find((p) => p.release.name === parts.name);
    if (rootEntry !== undefined) delete rootEntry.entry.autoInstalled;
    const code = await apply(deps, state, planned, options);
    const added = planned.filter(
      (p) => p.entry.autoInstalled === true && state.plugins[p.release.name] !== undefined,
    );
    if (code === 0 && added.length > 0) {
      deps.out(`dependencies: ${added.map((p) => `${p.release.name} ${label(p.entry)}`).join(", ")}`);
    }
    return code;
  });
}

/**
 * `plugin update [name...] [--frozen] [--yes]`: fetches each installed plugin's marketplace (not under
 * `--frozen`), resolves it again at the range it was installed at, and installs what moved; one that gains powers
 * is asked about again (a terminal), else refused without `--yes`.
 */
export async function updatePlugins(
  deps: PluginInstallerDeps,
  names: readonly string[],
  options: PluginInstallOptions,
): Promise<number> {
  const state = await loadNamed(deps, names, "");
  if (state === undefined) return 1;
  const chosen =
    names.length > 0
      ? [...names]
      : Object.keys(state.plugins)
          .filter((n) => state.plugins[n]?.autoInstalled !== true)
          .sort();
  if (chosen.length === 0) {
    deps.out("no plugins installed");
    return 0;
  }
  if (!options.frozen) {
    const markets = new Set(chosen.map((n) => state.plugins[n]?.marketplace ?? ""));
    for (const market of markets) {
      const known: KnownMarketplace | undefined = state.marketplaces[market];
      if (known === undefined) continue;
      try {
        await fetchMarketplace(deps, market, known);
      } catch (error) {
        deps.err(`cannot update marketplace ${market}: ${errorMessage(error)}`);
        return 1;
      }
    }
  }
  let code = 0;
  for (const name of chosen) {
    const entry = state.plugins[name];
    if (entry === undefined) continue;
    const result = await withCleanups(async (cleanups) => {
      let planned: Planned[];
      try {
        planned = await plan(
          deps,
          state,
          {
            name,
            marketplace: entry.marketplace,
            ...(entry.range === undefined ? {} : { range: entry.range }),
          },
          cleanups,
        );
      } catch (error) {
        deps.err(errorMessage(error));
        return 1;
      }
      if (entry.autoInstalled !== true) {
        const rootEntry = planned.find((p) => p.release.name === name);
        if (rootEntry !== undefined) delete rootEntry.entry.autoInstalled;
      }
      return options.frozen ? frozenVerdict(deps, state, planned) : apply(deps, state, planned, options);
    });
    if (result !== 0) code = result;
  }
  return code;
}

/** `plugin uninstall <name...>`: removes each installed plugin and its lock entry; refuses one another needs. */
export async function uninstallPlugins(deps: InstallerDeps, names: readonly string[]): Promise<number> {
  if (names.length === 0) {
    deps.err("uninstall needs the name of an installed plugin");
    return 2;
  }
  const state = await loadNamed(deps, names, "; skillwright uninstalls only plugins it installed");
  if (state === undefined) return 1;
  for (const name of names) {
    const needing = Object.entries(state.plugins)
      .filter(([other, e]) => !names.includes(other) && e.dependencies.some((d) => d.name === name))
      .map(([other]) => other);
    if (needing.length > 0) {
      deps.err(`${name} is needed by ${needing.join(", ")}; uninstall those first`);
      return 1;
    }
  }
  const next = { ...state.plugins };
  for (const name of names) delete next[name];
  try {
    await writeState(deps, state, next);
    for (const name of names) {
      await deps.fs.rm(join(pluginInstallRoot(deps.home), name));
      deps.out(`uninstalled ${name}`);
    }
  } catch (error) {
    deps.err(`uninstall failed: ${errorMessage(error)}`);
    return 1;
  }
  return 0;
}
