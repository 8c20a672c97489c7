import { basename, join } from "node:path";
import pLimit from "p-limit";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import type { FileHead, FileStat, FsOps } from "../io/fs.js";
import { lazyYaml, type YamlParser } from "../skill/frontmatter-core.js";
import {
  type LoadResult,
  loadSkillFile,
  readSkillHead,
  readSkillHeadSync,
  type SkillFileRef,
  skillFromHead,
  type YamlHead,
} from "../skill/load-skill.js";
import type { Skill } from "../skill/skill.js";
import type { RootReport, SourceListing } from "../sources/skill-source.js";
import { explainMissingSkill } from "./explain.js";
import type { HeadCache } from "./head-cache.js";
import { dirProblem, scanRoot } from "./scan-dir.js";
import type { SkillRoot } from "./skill-roots.js";

/** True for a path ending in `/skill.md` in some case other than `SKILL.md` (a near-miss skill file). */
function isCaseVariant(path: string | undefined): boolean {
  const file = path === undefined ? "" : basename(path);
  return file.toLowerCase() === "skill.md" && file !== "SKILL.md";
}

/** How many files are read at once. */
export const DISCOVERY_CONCURRENCY = 64;

export interface ScanOptions {
  fs: FsOps;
  /** File roots in precedence order (from `skillRoots`). */
  roots: SkillRoot[];
  signal?: AbortSignal;
  /** Heads kept from earlier runs (see `head-cache.ts`); the caller saves it afterwards. */
  cache?: HeadCache;
  /** The settings' `skills.categories`: roots whose `categories` is `setting` read category folders too. */
  categories?: boolean;
}

type Found = { ref: SkillFileRef };

/**
 * Reads every skill under the roots (SPEC §2), in precedence order (root by root): the same file reached
 * through links loads once, at its first path (deduplicated by device and inode, which is what realpath dedup
 * means and one syscall cheaper; the others are `duplicate-realpath` infos). Name clashes are not resolved
 * here: the catalog does that across every source. Never throws for bad content; deterministic for a given tree.
 * The roots come back with `count` 0 (the catalog counts the skills that survive).
 */
export async function scanSkillRoots(options: ScanOptions): Promise<SourceListing & { roots: RootReport[] }> {
  const { fs, roots } = options;
  const limit = pLimit(DISCOVERY_CONCURRENCY);
  const scans = await Promise.all(roots.map((root) => limit(() => scanRoot(fs, root))));
  const diagnostics: Diagnostic[] = scans.flatMap((s) => s.diagnostics);

  const found: Found[] = scans.flatMap((scan) => scan.files.map((ref) => ({ ref })));
  const results: LoadResult[] = new Array(found.length);
  const loadYaml = lazyYaml();
  const { cache } = options;
  const statSync = fs.statSync?.bind(fs);
  // Without a synchronous stat, a cache's misses are read (after their stat) by the asynchronous pass.
  const readHeadSync = cache === undefined || statSync !== undefined ? fs.readHeadSync?.bind(fs) : undefined;
  // Each index the synchronous pass could not finish alone, for the asynchronous one.
  let rest: number[] = found.map((_, index) => index);
  if (cache !== undefined) {
    // One pass over the cache: a hit costs one stat, synchronous when the fs has `statSync`.
    const stats =
      statSync === undefined
        ? await Promise.all(found.map((f) => limit(() => fs.stat(f.ref.path).catch(() => undefined))))
        : undefined;
    rest = cache.lookup(
      found.map((f) => f.ref),
      (index) =>
        stats === undefined ? fileStatSync(statSync, (found[index] as Found).ref.path) : stats[index],
      (index, head) => {
        results[index] = skillFromHead(fs, (found[index] as Found).ref, head);
      },
    );
  }
  if (readHeadSync !== undefined) {
    // One synchronous pass (open, fstat, read the head, parse): no promise per file. Heads that need `yaml` wait
    // for it to load once; the few that need more than the head (errors to explain) go through `readSkillHead`.
    // With a cache, each file is stat'ed before it is read (its stamp for the cache).
    const pass = readHeadsSync(fs, readHeadSync, found, rest, results, {
      cache,
      statSync,
      signal: options.signal,
    });
    rest = pass.rest;
    const needYaml = pass.needYaml;
    if (needYaml.length > 0) {
      const yaml = await loadYaml();
      for (const { index, head, stat } of needYaml) {
        const ref = (found[index] as Found).ref;
        const finished = head.finish(yaml);
        if (stat !== undefined) cache?.put(ref, stat, finished);
        results[index] = skillFromHead(fs, ref, finished);
      }
    }
  }
  // One pass per file (open, fstat, read the head, parse) by a fixed pool of workers: no per-file promise
  // fan-out to hold in memory, and the file identity from fstat replaces a separate realpath phase.
  let next = 0;
  const worker = async () => {
    while (next < rest.length) {
      const index = rest[next] as number;
      next += 1;
      options.signal?.throwIfAborted();
      const f = found[index] as Found;
      results[index] = await load(fs, f.ref, options.cache, loadYaml);
    }
  };
  await Promise.all(Array.from({ length: Math.min(DISCOVERY_CONCURRENCY, rest.length) }, worker));

  const skills: Skill[] = [];
  const firstPathOf = new Map<string, string>();
  const missing: Found[] = [];
  const unreachable: { f: Found; diagnostics: Diagnostic[] }[] = [];
  // Found but left out (by an error, or a markdown file that is not a skill): a call of one says it was skipped.
  const skipped: string[] = scans.flatMap((s) => s.ignored);
  const take = (f: Found, result: LoadResult) => {
    if (result.missing === true) {
      if (f.ref.kind === "skill") missing.push(f);
      return;
    }
    const first = result.fileId === undefined ? undefined : firstPathOf.get(result.fileId);
    if (first !== undefined) {
      diagnostics.push(
        diagnostic(
          "info",
          "duplicate-realpath",
          `same file as ${first}; loaded once, from there`,
          f.ref.path,
        ),
      );
      return;
    }
    if (result.fileId !== undefined) firstPathOf.set(result.fileId, f.ref.path);
    if (result.skill === undefined) skipped.push(f.ref.name);
    if (result.skill === undefined && f.ref.kind === "skill") {
      unreachable.push({ f, diagnostics: result.diagnostics });
      return;
    }
    for (const d of result.diagnostics) diagnostics.push(d);
    if (result.skill !== undefined) skills.push(result.skill);
  };
  for (let index = 0; index < found.length; index += 1)
    take(found[index] as Found, results[index] as LoadResult);
  if (missing.length > 0) {
    // A folder with no SKILL.md may be a category folder: its skill folders are read where the root allows it.
    const categories = await categoryFolders(fs, roots, missing.splice(0), options.categories === true);
    diagnostics.push(...categories.diagnostics);
    missing.push(...categories.missing);
    const loaded = await Promise.all(
      categories.found.map((f) => limit(() => load(fs, f.ref, options.cache, loadYaml))),
    );
    categories.found.forEach((f, index) => {
      take(f, loaded[index] as LoadResult);
    });
  }
  const explained = await Promise.all(
    missing.map((f) => limit(() => explainMissingSkill(fs, f.ref.baseDir))),
  );
  for (const [index, d] of explained.entries()) {
    diagnostics.push(d);
    // A `skill.md` in the wrong case is the skill's file, found and skipped.
    if (d.code === "ignored-file" && isCaseVariant(d.path)) skipped.push((missing[index] as Found).ref.name);
  }
  // A SKILL.md that could not be opened: name the dir when the dir itself is the problem (locked, a loop).
  for (const { f, diagnostics: own } of unreachable) {
    const dirError = await fs.readdir(f.ref.baseDir).then(
      () => undefined,
      (error: unknown) => error,
    );
    diagnostics.push(...(dirError === undefined ? own : [dirProblem(f.ref.baseDir, dirError)]));
  }
  return {
    skills,
    diagnostics,
    ...(skipped.length === 0 ? {} : { skipped }),
    roots: scans.map((s) => ({
      dir: s.root.dir,
      source: s.root.source,
      label: s.root.label,
      exists: s.exists,
      count: 0,
    })),
  };
}

/**
 * The category folders among the `missing` skill folders (no SKILL.md): a folder whose child folders hold a
 * SKILL.md. Under a root whose `categories` is `always`, or `setting` with `enabled`, each such child is a skill
 * to read (named by its own folder; the category is a folder only), with a `category-folder` info when only the
 * setting finds them. The other folders stay `missing`, to be explained (`explainMissingSkill` says how to have
 * a category read). Never throws.
 */
async function categoryFolders(
  fs: FsOps,
  roots: readonly SkillRoot[],
  missing: readonly Found[],
  enabled: boolean,
): Promise<{ found: Found[]; missing: Found[]; diagnostics: Diagnostic[] }> {
  const out = { found: [] as Found[], missing: [] as Found[], diagnostics: [] as Diagnostic[] };
  const modes = new Map(roots.map((root) => [root.dir, root.categories]));
  for (const f of missing) {
    const mode = modes.get(f.ref.root);
    const reads = mode === "always" || (mode === "setting" && enabled);
    const children = reads ? await skillFoldersIn(fs, f.ref.baseDir) : [];
    if (children.length === 0) {
      out.missing.push(f);
      continue;
    }
    const names = children.join(", ");
    if (mode === "setting") {
      out.diagnostics.push(
        diagnostic(
          "info",
          "category-folder",
          `a category folder: its skills (${names}) are found only because the settings say "skills": { "categories": true }`,
          f.ref.baseDir,
        ),
      );
    }
    for (const name of children) {
      const baseDir = join(f.ref.baseDir, name);
      out.found.push({ ref: { ...f.ref, name, baseDir, path: join(baseDir, "SKILL.md") } });
    }
  }
  return out;
}

/** The child folders of `dir` (sorted; dot-folders left out) that hold a `SKILL.md`. Never throws. */
async function skillFoldersIn(fs: FsOps, dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir).catch(() => []);
  const names: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name.startsWith(".") || (entry.kind !== "dir" && entry.kind !== "symlink")) continue;
    const stat = await fs.stat(join(dir, entry.name, "SKILL.md")).catch(() => undefined);
    if (stat?.kind === "file") names.push(entry.name);
  }
  return names;
}

/** The stat of a regular file, or undefined (gone, unreadable, not a file, or no `statSync`). */
function fileStatSync(
  statSync: ((path: string) => FileStat) | undefined,
  path: string,
): FileStat | undefined {
  try {
    const stat = statSync?.(path);
    return stat?.kind === "file" ? stat : undefined;
  } catch {
    return undefined;
  }
}

/** What the synchronous pass needs besides the files: the cache (each file stat'ed before it is read) and the signal. */
interface SyncPassOptions {
  cache: HeadCache | undefined;
  statSync: ((path: string) => FileStat) | undefined;
  signal: AbortSignal | undefined;
}

/**
 * The synchronous pass of {@link scanSkillRoots} over the `pending` indexes of `found` (open, fstat, read the
 * head, parse): no promise per file. Fills `results` for the heads it finishes (and puts them into the cache);
 * returns the indexes it could not finish alone (`rest`, for `readSkillHead`) and the heads waiting for `yaml`.
 * A function of its own so that V8 optimises this loop, not the whole of `scanSkillRoots`, when it gets hot.
 */
function readHeadsSync(
  fs: FsOps,
  readHeadSync: NonNullable<FsOps["readHeadSync"]>,
  found: readonly Found[],
  pending: readonly number[],
  results: LoadResult[],
  { cache, statSync, signal }: SyncPassOptions,
): { rest: number[]; needYaml: { index: number; head: YamlHead; stat: FileStat | undefined }[] } {
  const rest: number[] = [];
  const needYaml: { index: number; head: YamlHead; stat: FileStat | undefined }[] = [];
  // A file reached again through a link is not read again (its id is known after fstat): the dedup in
  // `scanSkillRoots` reports it. Files are met in `found` order, so the first path read is the first path kept.
  // With a cache every path is read, so that each has its own entry: a skipped path kept as "nothing here"
  // would lose the skill once the first path goes away, and one left out would be read again every warm run.
  const readIds = new Set<string>();
  const keep =
    cache !== undefined
      ? undefined
      : (fileId: string): boolean => {
          if (readIds.has(fileId)) return false;
          readIds.add(fileId);
          return true;
        };
  // With a cache, a head is stamped by the fstat its own read made before reading (`FileHead.mtimeMs`): no stat
  // of the path per file. An fs whose heads carry no times has each file stat'ed before it is read instead.
  let stampsFromReads = cache !== undefined;
  let read: FileHead | undefined;
  const readStamped: typeof readHeadSync = (path, maxBytes, keepId) => {
    read = readHeadSync(path, maxBytes, keepId);
    return read;
  };
  for (const index of pending) {
    signal?.throwIfAborted();
    const ref = (found[index] as Found).ref;
    let stat: FileStat | undefined;
    let step: ReturnType<typeof readSkillHeadSync>;
    if (cache === undefined) step = readSkillHeadSync(readHeadSync, ref, keep);
    else if (stampsFromReads) {
      read = undefined;
      step = readSkillHeadSync(readStamped, ref, keep);
      stat = read === undefined ? undefined : stampOf(read);
      // A head with no times: this fs does not give them. Its file is not kept; the rest are stat'ed first.
      if (read !== undefined && stat === undefined) stampsFromReads = false;
      // Nothing read (a name refused before reading): its result does not depend on the file's bytes.
      else if (read === undefined && step !== undefined) stat = fileStatSync(statSync, ref.path);
    } else {
      stat = fileStatSync(statSync, ref.path);
      step = stat === undefined ? undefined : readSkillHeadSync(readHeadSync, ref, keep);
    }
    if (step === undefined) rest.push(index);
    else if ("finish" in step) needYaml.push({ index, head: step, stat });
    else {
      if (stat !== undefined) cache?.put(ref, stat, step);
      results[index] = skillFromHead(fs, ref, step);
    }
  }
  return { rest, needYaml };
}

/** The stamp of a head read with its file's times (see `FileHead.mtimeMs`), or undefined without them. */
function stampOf(head: FileHead): FileStat | undefined {
  if (head.mtimeMs === undefined || head.ctimeMs === undefined) return undefined;
  return { kind: "file", size: head.size, mtimeMs: head.mtimeMs, ctimeMs: head.ctimeMs, fileId: head.fileId };
}

/** Loads a skill file a cache missed (or every file, without a cache), putting its head into the cache. */
async function load(
  fs: FsOps,
  ref: SkillFileRef,
  cache: HeadCache | undefined,
  loadYaml: () => Promise<YamlParser>,
): Promise<LoadResult> {
  if (cache === undefined) return loadSkillFile(fs, ref, loadYaml);
  const stat = await fs.stat(ref.path).catch(() => undefined);
  if (stat?.kind !== "file") return loadSkillFile(fs, ref, loadYaml);
  // Read after the stat: a file that changes in between is stored under its old stamp, so it misses next time.
  const head = await readSkillHead(fs, ref, loadYaml);
  cache.put(ref, stat, head);
  return skillFromHead(fs, ref, head);
}
