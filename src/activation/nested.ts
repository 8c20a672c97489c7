import { dirname, join, relative, resolve, sep } from "node:path";
import pLimit from "p-limit";
import { isInside } from "../config/project.js";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { explainMissingSkill } from "../discovery/explain.js";
import { scanRoot } from "../discovery/scan-dir.js";
import type { SkillRoot } from "../discovery/skill-roots.js";
import type { FsOps } from "../io/fs.js";
import { loadSkillFile } from "../skill/load-skill.js";
import type { Skill } from "../skill/skill.js";
import { type NestedRootLabel, nestedAnnouncement } from "./announce.js";
import { createIgnoredDirCheck } from "./ignored-dirs.js";

/** The skills dirs looked for in each dir below the cwd, in precedence order. */
export const NESTED_SKILLS_DIRS: readonly (readonly [string, string])[] = [
  [".claude", "skills"],
  [".agents", "skills"],
];
/** Skill files read at once by one `discover` call. */
export const NESTED_LOAD_CONCURRENCY = 16;

/**
 * The dirs whose nested skills a touched path can reveal: the path's dir and each ancestor up to (not
 * including) `cwd`, deepest first. Empty when the path is not below the cwd. A relative path is taken as
 * relative to the cwd. Pure.
 */
export function dirsBelowCwd(cwd: string, touched: string): string[] {
  const dirs: string[] = [];
  for (let dir = dirname(resolve(cwd, touched)); dir !== cwd && isInside(dir, cwd); dir = dirname(dir)) {
    dirs.push(dir);
  }
  return dirs;
}

/** Options of `nestedSkillDirs`. */
export interface NestedSkillDirsOptions {
  fs: FsOps;
  cwd: string;
  /** The touched file (absolute, or relative to the cwd). */
  touched: string;
  /** True for a git-ignored dir (see `createIgnoredDirCheck`); its skills dirs are not looked for. */
  isIgnored: (absDir: string) => boolean | Promise<boolean>;
}

/**
 * The existing `.claude/skills` and `.agents/skills` dirs in the touched file's dir and its ancestors below
 * the cwd, deepest first (`.claude` before `.agents` in one dir), skipping ignored dirs. Never rejects for a
 * missing or unreadable dir.
 */
export async function nestedSkillDirs(options: NestedSkillDirsOptions): Promise<string[]> {
  const found = await Promise.all(
    dirsBelowCwd(options.cwd, options.touched).map((dir) => skillsDirsIn(options.fs, dir, options.isIgnored)),
  );
  return found.flat();
}

async function skillsDirsIn(
  fs: FsOps,
  dir: string,
  isIgnored: (absDir: string) => boolean | Promise<boolean>,
): Promise<string[]> {
  if (await isIgnored(dir)) return [];
  const candidates = NESTED_SKILLS_DIRS.map((parts) => join(dir, ...parts));
  const exists = await Promise.all(
    candidates.map((path) =>
      fs.stat(path).then(
        (s) => s.kind === "dir",
        () => false,
      ),
    ),
  );
  return candidates.filter((_, i) => exists[i]);
}

/** What one `discover` call found. */
export interface NestedDiscovery {
  /** New skills, renamed on a clash, in the order of `roots` (each root's skills sorted by dir name). */
  skills: Skill[];
  /** One `<system-reminder>` block per root with announceable skills (see `nestedAnnouncement`). */
  announcements: string[];
  diagnostics: Diagnostic[];
  /** The skills dirs loaded by this call, deepest first per touched path. */
  roots: string[];
}

interface LoadedFile {
  path: string;
  /** Undefined when the skill dir holds no readable `SKILL.md`. */
  real?: string;
  skill?: Skill;
  diagnostics: Diagnostic[];
}

/** Options of `createNestedDiscovery`. */
export interface NestedDiscoveryOptions {
  fs: FsOps;
  cwd: string;
  /** The repository root, when above the cwd: its `.gitignore` files apply too. */
  gitRoot?: string;
  /** Skills dirs already loaded at start (e.g. `--add-dir` dirs below the cwd); never loaded again. */
  loadedRoots?: Iterable<string>;
  /** Replaces the `.gitignore` check (default: `createIgnoredDirCheck({ fs, cwd, gitRoot })`). */
  isIgnored?: (absDir: string) => boolean | Promise<boolean>;
}

/** Session-owned nested skill discovery (SPEC §9). */
export interface NestedDiscoverer {
  /**
   * Looks for skills dirs revealed by the touched paths (each dir below the cwd is examined once per session),
   * loads their skills with source `project`, and announces them. A name already in `existingNames` or taken
   * by an earlier nested skill becomes `{rel}:{name}` (`rel` = the dir holding `.claude`, relative to the cwd);
   * when that is taken too the skill is dropped with a `shadowed` warning. An alias that is taken is dropped.
   * Conditional skills are returned (to be added to the activation state) but not announced; neither are
   * skills with `disable-model-invocation`. Never rejects for bad content; rejects when `signal` aborts.
   */
  discover(
    touched: readonly string[],
    existingNames: ReadonlySet<string>,
    signal?: AbortSignal,
  ): Promise<NestedDiscovery>;
}

/** Creates the nested discovery of one session. */
export function createNestedDiscovery(options: NestedDiscoveryOptions): NestedDiscoverer {
  const { fs, cwd } = options;
  const isIgnored =
    options.isIgnored ??
    createIgnoredDirCheck(
      options.gitRoot === undefined ? { fs, cwd } : { fs, cwd, gitRoot: options.gitRoot },
    );
  const loadedRoots = new Set(options.loadedRoots ?? []);
  const examined = new Set<string>();
  const seenReal = new Set<string>();
  const taken = new Map<string, string>();
  const limit = pLimit(NESTED_LOAD_CONCURRENCY);

  return {
    async discover(touched, existingNames, signal) {
      const result: NestedDiscovery = { skills: [], announcements: [], diagnostics: [], roots: [] };
      // Dirs are claimed at once, so that concurrent calls never load the same root; released on failure.
      const dirs: string[] = [];
      for (const path of touched) {
        for (const dir of dirsBelowCwd(cwd, path)) {
          if (examined.has(dir)) continue;
          examined.add(dir);
          dirs.push(dir);
        }
      }
      if (dirs.length === 0) return result;
      const loaded: { root: string; files: LoadedFile[]; diagnostics: Diagnostic[] }[] = [];
      try {
        const perDir = await Promise.all(dirs.map((dir) => limit(() => skillsDirsIn(fs, dir, isIgnored))));
        for (const root of perDir.flat()) {
          if (loadedRoots.has(root)) continue;
          signal?.throwIfAborted();
          loaded.push({ root, ...(await loadRoot(root, signal)) });
        }
        signal?.throwIfAborted();
      } catch (error) {
        for (const dir of dirs) examined.delete(dir);
        throw error;
      }

      // From here on nothing awaits: names and realpaths are committed in one step, in a fixed order.
      for (const { root, files, diagnostics } of loaded) {
        loadedRoots.add(root);
        result.roots.push(root);
        result.diagnostics.push(...diagnostics);
        const label = labelOf(cwd, root);
        const kept: Skill[] = [];
        for (const file of files) {
          if (file.real !== undefined && seenReal.has(file.real)) {
            const message = "same file as a nested skill loaded before; loaded once";
            result.diagnostics.push(diagnostic("info", "duplicate-realpath", message, file.path));
            continue;
          }
          if (file.real !== undefined) seenReal.add(file.real);
          result.diagnostics.push(...file.diagnostics);
          const named = file.skill && rename(file.skill, label, existingNames, result.diagnostics);
          if (named !== undefined) kept.push(named);
        }
        result.skills.push(...kept);
        const announced = kept.filter((s) => s.paths === undefined && !s.disableModelInvocation);
        if (announced.length > 0) result.announcements.push(nestedAnnouncement(label, announced));
      }
      return result;
    },
  };

  /** Scans one root and loads its files (in parallel); dedup and naming happen later, in order. */
  async function loadRoot(
    root: string,
    signal?: AbortSignal,
  ): Promise<{ files: LoadedFile[]; diagnostics: Diagnostic[] }> {
    const skillRoot: SkillRoot = { dir: root, source: "project", layout: "skills", label: "nested" };
    const scan = await scanRoot(fs, skillRoot);
    const files = await Promise.all(
      scan.files.map((ref) =>
        limit(async (): Promise<LoadedFile> => {
          signal?.throwIfAborted();
          let real: string;
          try {
            real = await fs.realpath(ref.path);
          } catch {
            return { path: ref.path, diagnostics: [await explainMissingSkill(fs, ref.baseDir)] };
          }
          const { skill, diagnostics } = await loadSkillFile(fs, ref);
          return skill === undefined
            ? { path: ref.path, real, diagnostics }
            : { path: ref.path, real, skill, diagnostics };
        }),
      ),
    );
    return { files, diagnostics: scan.diagnostics };
  }

  function rename(
    skill: Skill,
    label: NestedRootLabel,
    existing: ReadonlySet<string>,
    diagnostics: Diagnostic[],
  ): Skill | undefined {
    const isTaken = (name: string) => existing.has(name) || taken.has(name);
    const name = isTaken(skill.name) ? `${label.base}:${skill.name}` : skill.name;
    if (isTaken(name)) {
      const winner = taken.get(name);
      const by = winner === undefined ? "an existing skill" : `the nested skill at ${winner}`;
      diagnostics.push(
        diagnostic(
          "warning",
          "shadowed",
          `skill "${skill.name}" at ${skill.filePath} is shadowed by ${by} named "${name}"`,
          skill.filePath,
        ),
      );
      return undefined;
    }
    let renamed: Skill = name === skill.name ? skill : { ...skill, name };
    if (renamed.alias !== undefined && isTaken(renamed.alias)) {
      renamed = { ...renamed };
      delete renamed.alias;
    }
    taken.set(name, skill.filePath);
    if (renamed.alias !== undefined) taken.set(renamed.alias, skill.filePath);
    return renamed;
  }
}

function labelOf(cwd: string, root: string): NestedRootLabel {
  const slash = (p: string) => p.split(sep).join("/");
  return { root: slash(relative(cwd, root)), base: slash(relative(cwd, dirname(dirname(root)))) };
}
