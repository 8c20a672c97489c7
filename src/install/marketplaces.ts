import { dirname, join } from "node:path";
import { writeFileAtomic } from "../io/atomic-write.js";
import { errorCode, errorMessage, pathKind } from "../io/fs.js";
import { type LoadedMarketplace, MARKETPLACE_FILE } from "../plugins/marketplace.js";
import { readMarketplace } from "../plugins/read-marketplace.js";
import { isBareRepository } from "./fetch-source.js";
import type { InstallerDeps } from "./installer-deps.js";
import {
  type KnownMarketplace,
  type KnownMarketplaces,
  knownMarketplacesFile,
  type MarketplaceSource,
  marketplaceCloneDir,
  parseKnownMarketplaces,
  parseMarketplaceArgument,
  pluginsHome,
  serializeKnownMarketplaces,
} from "./known-marketplaces.js";
import { isPlainFolderName } from "./skill-tree.js";

/** The registered marketplaces, or why the registry cannot be read (then nothing is written over it). */
export async function readKnownMarketplaces(
  deps: InstallerDeps,
): Promise<{ marketplaces: KnownMarketplaces } | { error: string }> {
  const file = knownMarketplacesFile(deps.home);
  let text: string | undefined;
  try {
    text = await deps.fs.readFile(file);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") return { error: `${file}: ${errorMessage(error)}` };
  }
  const parsed = parseKnownMarketplaces(text);
  return "error" in parsed ? { error: `${file}: ${parsed.error}` } : parsed;
}

async function writeKnownMarketplaces(deps: InstallerDeps, marketplaces: KnownMarketplaces): Promise<void> {
  const file = knownMarketplacesFile(deps.home);
  await deps.fs.mkdir(dirname(file));
  await writeFileAtomic(deps.fs, file, serializeKnownMarketplaces(marketplaces));
}

/** A registered marketplace's catalog as it is on disk now, or why it cannot be read. */
export async function marketplaceCatalog(
  deps: InstallerDeps,
  known: KnownMarketplace,
): Promise<{ catalog: LoadedMarketplace; json: Record<string, unknown> } | { error: string }> {
  const file = join(known.installLocation, MARKETPLACE_FILE);
  const read = await readMarketplace(deps.fs, file);
  if (read.marketplace === undefined) {
    const why = read.missing === true ? "no .claude-plugin/marketplace.json" : read.diagnostics[0]?.message;
    return { error: `${file}: ${why ?? "not a marketplace"}` };
  }
  const json = JSON.parse(await deps.fs.readFile(file)) as Record<string, unknown>;
  return { catalog: read.marketplace, json };
}

async function isGitWorkTree(deps: InstallerDeps, dir: string): Promise<boolean> {
  return (await pathKind(deps.fs, join(dir, ".git"))) !== undefined || (await isBareRepository(deps.fs, dir));
}

/**
 * `plugin marketplace add <source>`: a git source (URL, `owner/repo`, or a local path to a repository) is cloned
 * whole (its tags are the plugins' releases) into `~/.skillwright/plugins/marketplaces/{name}`; another local
 * folder is read where it is. The marketplace is registered under the `name` its `marketplace.json` gives.
 * Returns the exit code.
 */
export async function addMarketplace(deps: InstallerDeps, input: string): Promise<number> {
  const parsed = parseMarketplaceArgument(input, { cwd: deps.cwd, home: deps.home });
  if ("error" in parsed) {
    deps.err(parsed.error);
    return 2;
  }
  const read = await readKnownMarketplaces(deps);
  if ("error" in read) {
    deps.err(`cannot read the registered marketplaces: ${read.error}`);
    return 1;
  }
  let source: MarketplaceSource;
  if (parsed.kind === "path") {
    const kind = await pathKind(deps.fs, parsed.path);
    if (kind !== "dir") {
      deps.err(`${parsed.path} is not a directory`);
      return 1;
    }
    source = (await isGitWorkTree(deps, parsed.path))
      ? { source: "git", url: parsed.path }
      : { source: "directory", path: parsed.path };
  } else {
    source = { source: "git", url: parsed.url };
  }
  let staged: string | undefined;
  let location = source.source === "directory" ? source.path : "";
  if (source.source === "git") {
    await deps.fs.mkdir(join(pluginsHome(deps.home), "marketplaces"));
    staged = join(pluginsHome(deps.home), "marketplaces", `.adding-${crypto.randomUUID().slice(0, 8)}`);
    const done = deps.progress?.(`cloning ${source.url}`);
    try {
      await deps.run("git", ["clone", "--quiet", "--", source.url, staged], { signal: deps.signal });
    } catch (error) {
      await deps.fs.rm(staged).catch(() => undefined);
      deps.err(`cannot clone ${source.url}: ${errorMessage(error)}`);
      return 1;
    } finally {
      done?.();
    }
    location = staged;
  }
  const catalog = await marketplaceCatalog(deps, { source, installLocation: location, lastUpdated: "" });
  if ("error" in catalog) {
    if (staged !== undefined) await deps.fs.rm(staged).catch(() => undefined);
    deps.err(`not a marketplace: ${catalog.error}`);
    return 1;
  }
  const name = catalog.catalog.name;
  if (!isPlainFolderName(name)) {
    if (staged !== undefined) await deps.fs.rm(staged).catch(() => undefined);
    deps.err(`refused: the marketplace's name "${name}" is not a plain folder name`);
    return 1;
  }
  const existing = read.marketplaces[name];
  if (existing !== undefined) {
    if (staged !== undefined) await deps.fs.rm(staged).catch(() => undefined);
    deps.err(
      `a marketplace named "${name}" is already registered (from ${sourceText(existing.source)}); remove it first: skillwright plugin marketplace remove ${name}`,
    );
    return 1;
  }
  if (staged !== undefined) {
    location = marketplaceCloneDir(deps.home, name);
    await deps.fs.rm(location).catch(() => undefined);
    await deps.fs.rename(staged, location);
  }
  const entry: KnownMarketplace = {
    source,
    installLocation: location,
    lastUpdated: new Date().toISOString(),
  };
  await writeKnownMarketplaces(deps, { ...read.marketplaces, [name]: entry });
  deps.out(`added marketplace ${name} (${sourceText(source)}): ${catalog.catalog.plugins.length} plugin(s)`);
  for (const plugin of catalog.catalog.plugins) deps.out(`  ${plugin.name}@${name}`);
  return 0;
}

/** A source for the user. Pure. */
export function sourceText(source: MarketplaceSource): string {
  return source.source === "git" ? `git ${source.url}` : `directory ${source.path}`;
}

/** `plugin marketplace list [--json]`. */
export async function listMarketplaces(deps: InstallerDeps, json: boolean): Promise<number> {
  const read = await readKnownMarketplaces(deps);
  if ("error" in read) {
    deps.err(`cannot read the registered marketplaces: ${read.error}`);
    return 1;
  }
  const names = Object.keys(read.marketplaces).sort();
  if (json) {
    deps.out(
      JSON.stringify(
        names.map((name) => ({ name, ...read.marketplaces[name] })),
        null,
        2,
      ),
    );
    return 0;
  }
  if (names.length === 0)
    deps.out("no marketplaces: add one with skillwright plugin marketplace add <source>");
  for (const name of names) {
    const known = read.marketplaces[name];
    if (known !== undefined) deps.out(`${name}  ${sourceText(known.source)}  (${known.installLocation})`);
  }
  return 0;
}

/** Brings one git marketplace's clone to its remote's default branch and tags (moved tags follow). */
export async function fetchMarketplace(
  deps: InstallerDeps,
  name: string,
  known: KnownMarketplace,
): Promise<void> {
  if (known.source.source !== "git") return;
  const dir = known.installLocation;
  const done = deps.progress?.(`fetching marketplace ${name}`);
  try {
    await deps.run(
      "git",
      [
        "-C",
        dir,
        "fetch",
        "--quiet",
        "--force",
        "--prune",
        "--prune-tags",
        "--tags",
        "origin",
        "+refs/heads/*:refs/remotes/origin/*",
      ],
      { signal: deps.signal },
    );
    await deps.run("git", ["-C", dir, "reset", "--quiet", "--hard", "origin/HEAD"], { signal: deps.signal });
  } finally {
    done?.();
  }
}

/** `plugin marketplace update [name...]`: re-fetches each (all when none is named). */
export async function updateMarketplaces(deps: InstallerDeps, names: readonly string[]): Promise<number> {
  const read = await readKnownMarketplaces(deps);
  if ("error" in read) {
    deps.err(`cannot read the registered marketplaces: ${read.error}`);
    return 1;
  }
  const chosen = names.length === 0 ? Object.keys(read.marketplaces).sort() : [...names];
  let code = 0;
  const next = { ...read.marketplaces };
  for (const name of chosen) {
    const known = read.marketplaces[name];
    if (known === undefined) {
      deps.err(`no marketplace named ${name} is registered`);
      code = 1;
      continue;
    }
    try {
      await fetchMarketplace(deps, name, known);
      next[name] = { ...known, lastUpdated: new Date().toISOString() };
      deps.out(`updated marketplace ${name}`);
    } catch (error) {
      deps.err(`cannot update marketplace ${name}: ${errorMessage(error)}`);
      code = 1;
    }
  }
  await writeKnownMarketplaces(deps, next);
  return code;
}

/**
 * `plugin marketplace remove <name>`: forgets it and deletes its clone (a folder marketplace is left where it
 * is). Plugins installed from it stay installed until `plugin uninstall`.
 */
export async function removeMarketplace(deps: InstallerDeps, name: string): Promise<number> {
  const read = await readKnownMarketplaces(deps);
  if ("error" in read) {
    deps.err(`cannot read the registered marketplaces: ${read.error}`);
    return 1;
  }
  const known = read.marketplaces[name];
  if (known === undefined) {
    deps.err(`no marketplace named ${name} is registered`);
    return 1;
  }
  const next = { ...read.marketplaces };
  delete next[name];
  await writeKnownMarketplaces(deps, next);
  if (known.source.source === "git") await deps.fs.rm(known.installLocation);
  deps.out(
    `removed marketplace ${name}; plugins installed from it stay installed (skillwright plugin uninstall <name>)`,
  );
  return 0;
}
