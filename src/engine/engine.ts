import { dirname, join } from "node:path";
import {
  type BundledRegistry,
  type BundledSkillDefinition,
  createBundledRegistry,
} from "../bundled/register.js";
import { createCatalog, type Discovery, type SkillCatalog } from "../catalog/catalog.js";
import { projectDirs } from "../config/project.js";
import type { Diagnostic } from "../diagnostics.js";
import { cacheFileFor } from "../discovery/cache-file.js";
import { createFileSource } from "../discovery/file-source.js";
import { type SkillRoot, skillRoots } from "../discovery/skill-roots.js";
import { type EnvironmentRef, resolveEnvironment } from "../environments/environments.js";
import { type SkillInfo, skillInfoOf, skillsInfoForToolDescription } from "../environments/skill-info.js";
import { createNodeFs, type FsOps } from "../io/fs.js";
import { promptTemplateDirs } from "../prompt-templates/load-templates.js";
import { answersTo } from "../skill/skill.js";
import { mcpServersNeeded } from "../skill/skill-needs.js";
import { type SkillFilter, type SkillSwitches, skillFilterFrom } from "../skill-filter.js";
import { analyzedName, analyzedText } from "../skill-search/analyze.js";
import { INDEX_CACHE_SUFFIX, type IndexCacheOptions } from "../skill-search/index-cache.js";
import type { SkillSource } from "../sources/skill-source.js";
import { type SkillWatcher, startSkillWatcher, type WatchOptions } from "../watch/skill-watcher.js";
import { createMcpSource, createPluginSource } from "./extension-sources.js";
import type { Extensions } from "./extensions.js";
import { hostNeedFacts } from "./need-facts.js";

/** The skill search's analysis, which the discovery cache keeps each head's terms by. */
const HEAD_TERMS = { name: analyzedName, text: analyzedText };
/** Where the engine looks and what it uses: the directories, the environment, and the injected file system. */
export interface EngineOptions {
  cwd: string;
  home: string;
  /** The environment (for `SKILLWRIGHT_*` settings and MCP servers); never read from `process.env` here. */
  env?: Record<string, string | undefined>;
  fs?: FsOps;
  addDirs?: string[];
  /** `--skills-dir` dirs: plain folders of skills (`{dir}/{name}/SKILL.md`), loaded as project skills. */
  skillsDirs?: string[];
  /**
   * Skills switched on or off for this engine's sessions (`--skills`, `--no-skills`), on top of the settings
   * files' `skills.disabled`. A disabled skill is neither listed nor invocable; `doctor` says why.
   */
  skills?: SkillSwitches;
  /** `--strict-mcp-config`: only the `mcpConfigs` servers; the project's `.mcp.json` and plugin servers are ignored. */
  strictMcpConfig?: boolean;
  /** `--plugin-dir` dirs. */
  pluginDirs?: string[];
  /** `--mcp-config` file paths or inline JSON. */
  mcpConfigs?: string[];
  /**
   * Whether discovery starts the approved MCP servers to list their prompts and skills (default true). The
   * offline CLI commands turn it off; sessions still start approved servers for their tools.
   */
  startMcp?: boolean;
  /** The package's `bundled-skills/` dir; undefined ships none. */
  bundledDir?: string;
  /** Where code-registered bundled skills extract their files. Default `~/.skillwright/bundled`. */
  bundledExtractRoot?: string;
  /** Reported to MCP servers. */
  version?: string;
  /**
   * Keep parsed skill heads between runs in `dir`, one file per project (see `discovery/head-cache.ts` and
   * `discovery/cache-file.ts`); entries written under another `key` (version and build) are ignored. Off when
   * absent: the CLI turns it on.
   */
  discoveryCache?: { dir: string; key: string };
  /** The clock, for the discovery cache. Default `Date.now`. */
  now?: () => number;
  /**
   * The application's own skill sources (e.g. `createMemorySource()`), composed with the file roots, plugins,
   * MCP and bundled skills. Each sits at its `rank` (managed 100, user 200, project 300, plugin 400, MCP 500,
   * bundled 600; default 550, after MCP and before bundled; a lower rank wins a name clash);
   * sources of the same rank keep this order. A change a source reports rescans, and open sessions get the
   * listing delta on their next request.
   */
  sources?: SkillSource[];
  /**
   * A named environment (`--env`): `~/.skillwright/environments/{name}/` adds its `skills/` (just below the managed
   * skills in precedence), its `settings.json` (after the user settings) and its `agents/`. An unknown name makes
   * discovery reject with `UnknownEnvironmentError`. `switchEnvironment` changes it later.
   */
  environment?: string;
  /**
   * Live reload: watch the skill roots (and the nearest existing parent of those not there yet); a burst of
   * changes becomes one `reload()`, so open sessions get one listing delta. Off by default; `close()` stops it.
   * Over a file system that is not the host's (`fs.host` unset), only with a `watch` function of its own.
   */
  watch?: boolean | WatchOptions;
}

/**
 * One project's skills engine: discovers skills (memoised; `reload` rescans), holds plugins, MCP servers and
 * settings, and is what `openSession` opens sessions on. `close` stops its MCP servers.
 */
export interface Engine {
  readonly cwd: string;
  readonly home: string;
  readonly env: Record<string, string | undefined>;
  readonly fs: FsOps;
  /** The `--add-dir` dirs as given (absolute), in order: also directories commands may write to. */
  readonly addDirs: readonly string[];
  readonly bundled: BundledRegistry;
  /**
   * Adds a skill defined in code (SPEC §2 bundled) to the engine's bundled memory source; its `files` are its
   * references and are extracted to a private dir on first use (paths that escape it refuse the skill); a skill
   * without files writes nothing. Open sessions get it as a listing delta. Returns the diagnostics.
   */
  registerBundledSkill(definition: BundledSkillDefinition): Diagnostic[];
  /**
   * The file roots in precedence order, the git root when there is one, and the selected named environment.
   * Rejects with `UnknownEnvironmentError` when the selected environment does not exist.
   */
  roots(): Promise<{
    roots: SkillRoot[];
    gitRoot?: string;
    projectDir: string;
    environment?: EnvironmentRef;
  }>;
  /** Settings, plugins and MCP servers (loaded once; MCP servers start on first use). */
  extensions(): Promise<Extensions>;
  /** Which skills are switched off: settings `skills.disabled` (each traced to its file) and the switches. */
  skillFilter(): Promise<SkillFilter>;
  /** Memoised discovery (SPEC §2), plugin and MCP skills included; disabled skills are in `disabled`. */
  readonly catalog: SkillCatalog;
  discover(): Promise<Discovery>;
  /**
   * Reads the settings files and plugins again and rescans every skill source (`/reload`); open sessions get the
   * change (listing delta, settings hooks and permission rules). MCP servers keep running.
   */
  reload(): Promise<Discovery>;
  /** The selected named environment's name, if any. */
  currentEnvironment(): string | undefined;
  /**
   * Selects the named environment `name` (undefined: none) and rescans as `reload()` does, so open sessions get
   * the listing delta on their next request; a watcher follows the new roots. Rejects with
   * `UnknownEnvironmentError` (listing the environments that exist) and keeps the current one when there is no
   * such environment.
   */
  switchEnvironment(name: string | undefined): Promise<Discovery>;
  /**
   * Replaces the skill switches (`--skills`, `--no-skills`, a session's `/skills off`) and rescans as
   * `reload()` does: open sessions stop offering what is now off and get what is back as a listing delta.
   */
  switchSkills(switches: SkillSwitches): Promise<Discovery>;
  /** The skill switches in force. */
  skillSwitches(): SkillSwitches;
  /** Every enabled skill, in listing order, as `{ id, name, description, path, source }` (SPEC §17). */
  listSkills(): Promise<SkillInfo[]>;
  /** The enabled skill answering to `id` (its name or alias), or undefined. */
  getSkill(id: string): Promise<SkillInfo | undefined>;
  /** One `- {id}: {description}` line per model-invocable skill, for an application's own tool description. */
  getSkillsInfoForToolDescription(): Promise<string>;
  /**
   * Where the skill search keeps its index between runs: `search/` beside the discovery cache dir, one file per
   * project, under the discovery cache's key. Undefined when the engine has no discovery cache.
   */
  searchIndexCache(): Promise<IndexCacheOptions | undefined>;
  /** Stops the skill watcher and MCP servers. Idempotent. */
  close(): Promise<void>;
}

/** The composition root: config → discovery. Wiring only; the decisions live in the modules it joins. */
export function createEngine(options: EngineOptions): Engine {
  const fs = options.fs ?? createNodeFs();
  const env = options.env ?? {};
  const bundled = createBundledRegistry({
    fs,
    extractRoot: options.bundledExtractRoot ?? join(options.home, ".skillwright", "bundled"),
  });
  let environmentName = options.environment;
  let rootsMemo: ReturnType<Engine["roots"]> | undefined;
  const roots: Engine["roots"] = () => {
    const selected = environmentName;
    rootsMemo ??= (async () => {
      const environment =
        selected === undefined ? undefined : await resolveEnvironment(fs, options.home, selected);
      const project = await projectDirs(fs, options.cwd, options.home);
      const managedDir = env.SKILLWRIGHT_MANAGED_DIR;
      const list = skillRoots({
        home: options.home,
        ...(managedDir ? { managedDir } : {}),
        projectDirs: project.dirs,
        addDirs: options.addDirs ?? [],
        skillsDirs: options.skillsDirs ?? [],
        ...(options.bundledDir === undefined ? {} : { bundledDir: options.bundledDir }),
        ...(environment === undefined ? {} : { environment }),
      });
      const projectDir = project.gitRoot ?? options.cwd;
      return {
        roots: list,
        projectDir,
        ...(project.gitRoot === undefined ? {} : { gitRoot: project.gitRoot }),
        ...(environment === undefined ? {} : { environment }),
      };
    })();
    return rootsMemo;
  };
  let extensionsMemo: Promise<Extensions> | undefined;
  const mcp = createMcpSource(() => extensions());
  const extensions = () => {
    extensionsMemo ??= loadAll(undefined);
    return extensionsMemo;
  };
  /**
   * Loads settings, plugins and MCP configs; `keep` carries a running MCP manager over a reload. Their modules
   * (and zod, which validates them) are imported here, on first discovery, not when the package is imported.
   */
  const loadAll = (
    keep: Pick<Extensions, "mcp" | "mcpServers" | "mcpFor" | "mcpServerConfigs"> | undefined,
  ) =>
    roots().then(async ({ projectDir, environment }) =>
      (await import("./extensions.js")).loadExtensions({
        fs,
        ...(environment === undefined ? {} : { environmentDir: environment.dir }),
        cwd: options.cwd,
        home: options.home,
        projectDir,
        env,
        pluginDirs: options.pluginDirs ?? [],
        mcpConfigs: options.mcpConfigs ?? [],
        ...(options.strictMcpConfig === true ? { strictMcpConfig: true } : {}),
        ...(keep === undefined ? {} : { keepMcp: keep }),
        clientVersion: options.version ?? "0.0.0",
        startMcp: options.startMcp ?? true,
        // Sessions follow the catalog: skills a server publishes later reach the model as a listing delta.
        onMcpListChanged: mcp.changed,
        heldMcpServers,
      }),
    );
  const appSources = options.sources ?? [];
  let switches: SkillSwitches = options.skills ?? {};
  const skillFilter = async () => skillFilterFrom((await extensions()).settings.layers, switches);
  const cacheOptions = options.discoveryCache;
  const fileFolders = createFileSource({
    fs,
    roots,
    categories: async () => (await extensions()).settings.settings.skills?.categories === true,
    // The heads are kept with their search terms, so that no run analyses an unchanged description again.
    ...(cacheOptions === undefined
      ? {}
      : { cache: { ...cacheOptions, now: options.now ?? Date.now, analyze: HEAD_TERMS } }),
  });
  // The catalog's latest listing of the skill folders, which the held servers below are read from: the catalog
  // asks the folders before the MCP source, so a session scans them once.
  let latestFiles: ReturnType<SkillSource["list"]> | undefined;
  const files: SkillSource = {
    ...fileFolders,
    list: (signal) => {
      latestFiles = fileFolders.list(signal);
      return latestFiles;
    },
  };
  // The servers only skills need start when such a skill is invoked (issue #42): named by the needs of the file
  // and plugin skills (the MCP source is not asked: it is what starts the others).
  const heldMcpServers = async (): Promise<ReadonlySet<string>> => {
    const [listing, loaded] = await Promise.all([latestFiles ?? files.list(), extensions()]);
    return new Set(mcpServersNeeded([...listing.skills, ...loaded.plugins.flatMap((p) => p.skills)]));
  };
  const catalog = createCatalog({
    sources: [files, createPluginSource(extensions), mcp.source, bundled.source, ...appSources],
    filter: skillFilter,
    needFacts: async (commands) =>
      hostNeedFacts({ fs, env, commands, mcpServers: (await extensions()).mcpServers }),
  });
  const reload = async () => {
    const previous = extensionsMemo === undefined ? undefined : await extensionsMemo.catch(() => undefined);
    extensionsMemo = loadAll(previous);
    return catalog.reload();
  };
  const discover = () => catalog.get();
  const watchOptions = options.watch === true ? {} : options.watch === false ? undefined : options.watch;
  // A file system that is not the host's is watched only through a `watch` function handed in with it.
  const watcher: SkillWatcher | undefined =
    watchOptions === undefined || (watchOptions.watch === undefined && fs.host !== true)
      ? undefined
      : startSkillWatcher({
          ...watchOptions,
          fs,
          // The skill roots, and the prompt template folders (templates follow a reload too).
          roots: async () => {
            const found = await roots();
            return [
              ...found.roots.filter((r) => r.source !== "bundled").map((r) => r.dir),
              ...promptTemplateDirs({ home: options.home, projectDir: found.projectDir }),
            ];
          },
          onChange: reload,
        });
  return {
    cwd: options.cwd,
    home: options.home,
    env,
    fs,
    async searchIndexCache() {
      if (cacheOptions === undefined) return undefined;
      const { projectDir } = await roots();
      const file = cacheFileFor(join(dirname(cacheOptions.dir), "search"), projectDir).replace(
        /\.json$/,
        INDEX_CACHE_SUFFIX,
      );
      return { fs, file, key: cacheOptions.key };
    },
    addDirs: [...(options.addDirs ?? [])],
    bundled,
    roots,
    extensions,
    skillFilter,
    catalog,
    registerBundledSkill: (definition) => bundled.register(definition),
    discover,
    reload,
    currentEnvironment: () => environmentName,
    async switchEnvironment(name) {
      if (name !== undefined) await resolveEnvironment(fs, options.home, name);
      environmentName = name;
      rootsMemo = undefined;
      await watcher?.rearm();
      return reload();
    },
    switchSkills(next) {
      switches = next;
      return reload();
    },
    skillSwitches: () => switches,
    listSkills: async () => (await discover()).skills.map(skillInfoOf),
    async getSkill(id) {
      const skill = (await discover()).skills.find((s) => answersTo(s, id));
      return skill === undefined ? undefined : skillInfoOf(skill);
    },
    getSkillsInfoForToolDescription: async () => skillsInfoForToolDescription((await discover()).skills),
    async close() {
      catalog.close();
      await watcher?.close();
      if (extensionsMemo === undefined) return;
      await (await extensionsMemo.catch(() => undefined))?.mcp?.close();
    },
  };
}
