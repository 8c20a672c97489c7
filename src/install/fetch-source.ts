import { join } from "node:path";
import * as z from "zod";
import { type FsOps, pathKind } from "../io/fs.js";
import { findPlugins, type PluginSettings } from "../plugins/find-plugins.js";
import type { InstallSource } from "./install-source.js";
import type { RunProcess } from "./run-process.js";

/** What fetching needs: the file system, a process runner (git, npm, tar), temp dirs and the plugin settings. */
export interface FetchDeps {
  fs: FsOps;
  run: RunProcess;
  /** Makes a new empty temp dir and returns its real path. */
  makeTempDir: () => Promise<string>;
  /** The merged settings' plugin keys (`extraKnownMarketplaces`), for `plugin@marketplace`. */
  pluginSettings: () => Promise<PluginSettings>;
  home: string;
  projectDir: string;
  /** Shows that fetching `label` is under way until the returned function is called; absent: silent. */
  progress?: (label: string) => () => void;
}

/** A source's tree on disk: the dir to look for skills in, and what it came from. */
export interface FetchedSource {
  /** The source's top (the repository, package or plugin root): no skill may reach outside it. */
  root: string;
  /** Where to look for skills (the root, or `subpath` inside it). */
  searchDir: string;
  /** The commit a git source was at. */
  commit?: string;
  /** The npm package's version. */
  version?: string;
  /** Removes what fetching made (a clone, an unpacked package); a local dir is left alone. */
  cleanup: () => Promise<void>;
}

/** A source that could not be fetched, with the reason for the user. */
export class FetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FetchError";
  }
}

const NpmPackOutput = z.array(z.looseObject({ filename: z.string(), version: z.string().optional() })).min(1);

/** Whether `dir` is a bare git repository (a `HEAD` file beside `objects/` and `refs/`). */
export async function isBareRepository(fs: FsOps, dir: string): Promise<boolean> {
  return (
    (await pathKind(fs, join(dir, "HEAD"))) === "file" &&
    (await pathKind(fs, join(dir, "objects"))) === "dir" &&
    (await pathKind(fs, join(dir, "refs"))) === "dir"
  );
}

async function cloneGit(
  deps: FetchDeps,
  url: string,
  ref: string | undefined,
  subpath: string | undefined,
  signal?: AbortSignal,
): Promise<FetchedSource> {
  const temp = await deps.makeTempDir();
  const cleanup = () => deps.fs.rm(temp);
  const dest = join(temp, "repo");
  try {
    await deps.run(
      "git",
      ["clone", "--quiet", "--depth", "1", ...(ref === undefined ? [] : ["--branch", ref]), "--", url, dest],
      { signal },
    );
    const commit = (await deps.run("git", ["-C", dest, "rev-parse", "HEAD"], { signal })).stdout.trim();
    return { root: dest, searchDir: subpath === undefined ? dest : join(dest, subpath), commit, cleanup };
  } catch (error) {
    await cleanup();
    throw new FetchError(
      `cannot clone ${url}${ref === undefined ? "" : ` at ${ref}`}: ${String(error instanceof Error ? error.message : error)}`,
    );
  }
}

async function packNpm(deps: FetchDeps, spec: string, signal?: AbortSignal): Promise<FetchedSource> {
  const temp = await deps.makeTempDir();
  const cleanup = () => deps.fs.rm(temp);
  try {
    const packed = await deps.run("npm", ["pack", spec, "--json", "--pack-destination", temp], {
      cwd: temp,
      signal,
    });
    const parsed = NpmPackOutput.safeParse(JSON.parse(packed.stdout));
    if (!parsed.success) throw new Error(`npm pack printed no package: ${packed.stdout.slice(0, 200)}`);
    const first = parsed.data[0];
    if (first === undefined) throw new Error("npm pack printed no package");
    const unpacked = join(temp, "unpacked");
    await deps.fs.mkdir(unpacked);
    await deps.run("tar", ["-xzf", join(temp, first.filename), "-C", unpacked], { signal });
    const root = join(unpacked, "package");
    return {
      root,
      searchDir: root,
      ...(first.version === undefined ? {} : { version: first.version }),
      cleanup,
    };
  } catch (error) {
    await cleanup();
    throw new FetchError(
      `cannot fetch npm package ${spec}: ${String(error instanceof Error ? error.message : error)}`,
    );
  }
}

async function marketplacePlugin(
  deps: FetchDeps,
  plugin: string,
  marketplace: string,
  signal?: AbortSignal,
): Promise<FetchedSource> {
  const key = `${plugin}@${marketplace}`;
  const settings = await deps.pluginSettings();
  const found = await findPlugins({
    fs: deps.fs,
    pluginDirs: [],
    settings: { ...settings, enabledPlugins: { [key]: true } },
    home: deps.home,
    projectDir: deps.projectDir,
    ...(signal === undefined ? {} : { signal }),
  });
  const candidate = found.candidates.find(
    (c) => c.origin.kind === "marketplace" && c.marketplace === marketplace,
  );
  if (candidate === undefined) {
    // A listed plugin with a remote source is reported by plugin discovery, which says what to do instead.
    const remote = found.diagnostics.find((d) => d.message.startsWith(`${key} has a remote source`));
    throw new FetchError(
      remote?.message ??
        `${key}: no known marketplace "${marketplace}" lists a plugin "${plugin}" (skillwright knows the project's .claude-plugin/marketplace.json and the "directory" and "file" marketplaces of extraKnownMarketplaces in settings)`,
    );
  }
  const real = await deps.fs.realpath(candidate.root);
  return { root: real, searchDir: real, cleanup: async () => undefined };
}

/**
 * Brings a source's tree onto disk: a git clone (`git clone --depth 1`, the ref's tip) into a temp dir, an npm
 * package through `npm pack` and `tar`, a marketplace plugin's dir, or a local dir as it is (a bare repository
 * given by path is cloned). Throws {@link FetchError} with the reason; nothing is left behind then.
 */
export async function fetchSource(
  deps: FetchDeps,
  source: InstallSource,
  signal?: AbortSignal,
): Promise<FetchedSource> {
  const done = source.kind === "local" ? undefined : deps.progress?.(`fetching ${source.lockSource}`);
  try {
    return await fetchAny(deps, source, signal);
  } finally {
    done?.();
  }
}

/** {@link fetchSource} by the source's kind. */
async function fetchAny(
  deps: FetchDeps,
  source: InstallSource,
  signal?: AbortSignal,
): Promise<FetchedSource> {
  switch (source.kind) {
    case "git":
      return cloneGit(deps, source.url, source.ref, source.subpath, signal);
    case "npm":
      return packNpm(deps, source.spec, signal);
    case "marketplace":
      return marketplacePlugin(deps, source.plugin, source.marketplace, signal);
    case "local": {
      const kind = await pathKind(deps.fs, source.path);
      if (kind !== "dir") throw new FetchError(`${source.path} is not a directory`);
      if (await isBareRepository(deps.fs, source.path)) {
        return cloneGit(deps, source.path, undefined, undefined, signal);
      }
      const real = await deps.fs.realpath(source.path);
      return { root: real, searchDir: real, cleanup: async () => undefined };
    }
  }
}
