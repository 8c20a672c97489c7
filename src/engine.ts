import { join } from "node:path";
import { type BundledRegistry, createBundledRegistry } from "./bundled/register.js";
import { projectDirs } from "./config/project.js";
import { createSkillCatalog, type SkillCatalog } from "./discovery/catalog.js";
import { type Discovery, discoverSkills } from "./discovery/discover.js";
import { type SkillRoot, skillRoots } from "./discovery/sources.js";
import { createNodeFs, type FsOps } from "./io/fs.js";

export interface EngineOptions {
  cwd: string;
  home: string;
  /** The environment (for `SKILLWRIGHT_*` settings); never read from `process.env` here. */
  env?: Record<string, string | undefined>;
  fs?: FsOps;
  addDirs?: string[];
  /** The package's `bundled-skills/` dir; undefined ships none. */
  bundledDir?: string;
  /** Where code-registered bundled skills extract their files. Default `~/.skillwright/bundled`. */
  bundledExtractRoot?: string;
}

export interface Engine {
  readonly cwd: string;
  readonly home: string;
  readonly fs: FsOps;
  readonly bundled: BundledRegistry;
  /** The file roots in precedence order, and the git root when there is one. */
  roots(): Promise<{ roots: SkillRoot[]; gitRoot?: string; projectDir: string }>;
  /** Memoised discovery (SPEC §2). */
  readonly catalog: SkillCatalog;
  discover(): Promise<Discovery>;
  reload(): Promise<Discovery>;
}

/** The composition root: config → discovery. Wiring only; the decisions live in the modules it joins. */
export function createEngine(options: EngineOptions): Engine {
  const fs = options.fs ?? createNodeFs();
  const env = options.env ?? {};
  const bundled = createBundledRegistry({
    fs,
    extractRoot: options.bundledExtractRoot ?? join(options.home, ".skillwright", "bundled"),
  });
  let rootsMemo: ReturnType<Engine["roots"]> | undefined;
  const roots: Engine["roots"] = () => {
    rootsMemo ??= (async () => {
      const project = await projectDirs(fs, options.cwd, options.home);
      const managedDir = env.SKILLWRIGHT_MANAGED_DIR;
      const list = skillRoots({
        home: options.home,
        ...(managedDir ? { managedDir } : {}),
        projectDirs: project.dirs,
        addDirs: options.addDirs ?? [],
        ...(options.bundledDir === undefined ? {} : { bundledDir: options.bundledDir }),
      });
      const projectDir = project.gitRoot ?? options.cwd;
      return project.gitRoot === undefined
        ? { roots: list, projectDir }
        : { roots: list, gitRoot: project.gitRoot, projectDir };
    })();
    return rootsMemo;
  };
  const catalog = createSkillCatalog(async () =>
    discoverSkills({ fs, roots: (await roots()).roots, extraSkills: bundled.skills() }),
  );
  return {
    cwd: options.cwd,
    home: options.home,
    fs,
    bundled,
    roots,
    catalog,
    discover: () => catalog.get(),
    reload: () => catalog.reload(),
  };
}
