import { dirname } from "node:path";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { writeFileAtomic } from "../io/atomic-write.js";
import type { FileStat, FsOps } from "../io/fs.js";
import { isRecord } from "../is-record.js";
import type { HeadResult, SkillFileRef } from "../skill/load-skill.js";
import { normalizeMeta } from "../skill/schema.js";
import type { SkillKind, SkillMeta } from "../skill/skill.js";
import { pruneCacheDir } from "./cache-prune.js";

/*
 * A discovery cache: the parsed head of every skill file, kept between runs and trusted only while the file
 * has the same stamp (identity, size, modification and status-change times). A hit costs one stat instead
 * of open/fstat/read/close plus parsing; a CLI run in a project of 1,000 skills starts ~20 ms sooner. Dirs
 * are still listed every run, so added and removed skills are always seen; only file contents are cached.
 */

/** Bump when the shape of a cached entry changes. The caller's key covers code changes (version, build). */
export const HEAD_CACHE_FORMAT = 2;
/**
 * Files whose stamp is this recent are not kept: on a file system with coarse timestamps (1-2 s), a second
 * edit within the same tick that keeps the size would keep the stamp too (git's "racily clean" problem).
 */
export const RACY_WINDOW_MS = 2_000;
/** A cache file larger than this is ignored (and rewritten smaller). */
export const MAX_HEAD_CACHE_BYTES = 64_000_000;

/** What {@link openHeadCache} reads and writes. */
export interface HeadCacheOptions {
  fs: FsOps;
  /** The cache file, e.g. `~/.skillwright/cache/discovery/{project hash}.json`. */
  file: string;
  /** Entries written under another key are ignored: pass the version and the build identity. */
  key: string;
  /** The current time (ms since the epoch), for the racy window. */
  now: number;
}

/** The cache for one discovery: read once, looked up per file, written back once at the end. */
export interface HeadCache {
  /** The head kept for `ref` when the file still has the stamp it had when it was read; else undefined. */
  get(ref: SkillFileRef, stat: FileStat): HeadResult | undefined;
  /** Keeps a head just read, unless its stamp is too recent to trust or it is not plain JSON data. */
  put(ref: SkillFileRef, stat: FileStat, head: HeadResult): void;
  /**
   * Writes the entries this discovery used when they differ from the file (a miss, or a file gone), then
   * prunes old files from the cache dir (`cache-prune.ts`). A write that fails costs only speed: it comes back
   * as an `info` diagnostic, never as an error.
   */
  save(): Promise<Diagnostic | undefined>;
}

/**
 * `[fileId, size, mtimeMs, ctimeMs, name, kind, meta, diagnostics?]`: an array, and `meta` holds only the
 * fields that differ from a skill with empty frontmatter (0 when the head has no meta): a cold `JSON.parse`
 * of 1,000 full entries took 6.6 ms, of these 1.5 ms.
 */
type Entry = [string, number, number, number, string, SkillKind, Partial<SkillMeta> | 0, Diagnostic[]?];

interface CacheFile {
  format: number;
  key: string;
  entries: Record<string, unknown>;
}

/** Reads the cache file (a missing, unreadable, corrupt or foreign one reads as empty). Never throws. */
export async function openHeadCache(options: HeadCacheOptions): Promise<HeadCache> {
  const { fs, file, key, now } = options;
  const loaded = await readEntries(fs, file, key);
  const loadedCount = Object.keys(loaded).length;
  const template = emptyMeta();
  const used = new Map<string, Entry>();
  let changed = false;
  return {
    get(ref, stat) {
      const entry = Object.hasOwn(loaded, ref.path) ? loaded[ref.path] : undefined;
      if (!isEntry(entry) || !matches(entry, ref, stat)) return undefined;
      used.set(ref.path, entry);
      const [fileId, , , , , , meta, diagnostics = []] = entry;
      return meta === 0 ? { diagnostics, fileId } : { meta: expand(template, meta), diagnostics, fileId };
    },
    put(ref, stat, head) {
      changed = true;
      if (isRacy(stat, now) || !isPlainData(head) || head.missing === true) return;
      const meta = head.meta === undefined ? 0 : compact(template, head.meta);
      if (meta === undefined) return;
      const entry: Entry = [stat.fileId, stat.size, stat.mtimeMs, stat.ctimeMs, ref.name, ref.kind, meta];
      if (head.diagnostics.length > 0) entry.push(head.diagnostics);
      used.set(ref.path, entry);
    },
    async save() {
      if (!changed && used.size === loadedCount) return undefined;
      const content: CacheFile = { format: HEAD_CACHE_FORMAT, key, entries: Object.fromEntries(used) };
      try {
        await fs.mkdir(dirname(file));
        await writeFileAtomic(fs, file, JSON.stringify(content));
        await pruneCacheDir(fs, dirname(file), file, now);
        return undefined;
      } catch (error) {
        return diagnostic(
          "info",
          "cache-unwritable",
          `discovery cache not saved (${error instanceof Error ? error.message : String(error)}); the next run reads every skill file again`,
          file,
        );
      }
    },
  };
}

/** The meta of a skill whose frontmatter is empty: what compacted entries leave out. */
function emptyMeta(): SkillMeta {
  return normalizeMeta({ data: {}, kind: "skill", dirName: "x", firstBodyLine: undefined, path: "" }).meta;
}

/** The fields that differ from the template; undefined when a template field is missing (not storable). */
function compact(template: SkillMeta, meta: SkillMeta): Partial<SkillMeta> | undefined {
  const defaults: Record<string, unknown> = { ...template };
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(meta)) {
    if (value === undefined && defaults[field] !== undefined) return undefined;
    if (!sameData(value, defaults[field])) out[field] = value;
  }
  return out;
}

/** The full meta back: the template overlaid with the stored fields; arrays and objects never shared. */
function expand(template: SkillMeta, stored: Partial<SkillMeta>): SkillMeta {
  const meta: SkillMeta = { ...template, ...stored };
  if (stored.argumentNames === undefined) meta.argumentNames = [...template.argumentNames];
  if (stored.allowedTools === undefined) meta.allowedTools = [...template.allowedTools];
  if (stored.disallowedTools === undefined) meta.disallowedTools = [...template.disallowedTools];
  if (stored.extra === undefined) meta.extra = { ...template.extra };
  return meta;
}

/** Equal as JSON data; only called with plain data. */
function sameData(a: unknown, b: unknown): boolean {
  return (
    a === b || (typeof a === "object" && typeof b === "object" && JSON.stringify(a) === JSON.stringify(b))
  );
}

async function readEntries(fs: FsOps, file: string, key: string): Promise<Record<string, unknown>> {
  try {
    const stat = await fs.stat(file);
    if (stat.kind !== "file" || stat.size > MAX_HEAD_CACHE_BYTES) return {};
    const parsed: unknown = JSON.parse(await fs.readFile(file));
    if (!isCacheFile(parsed) || parsed.format !== HEAD_CACHE_FORMAT || parsed.key !== key) return {};
    return parsed.entries;
  } catch {
    return {};
  }
}

function matches(entry: Entry, ref: SkillFileRef, stat: FileStat): boolean {
  return (
    entry[0] === stat.fileId &&
    entry[1] === stat.size &&
    entry[2] === stat.mtimeMs &&
    entry[3] === stat.ctimeMs &&
    entry[4] === ref.name &&
    entry[5] === ref.kind
  );
}

/** True when the file changed within {@link RACY_WINDOW_MS} of `now` (or claims a time in the future). */
export function isRacy(stat: Pick<FileStat, "mtimeMs" | "ctimeMs">, now: number): boolean {
  return Math.max(stat.mtimeMs, stat.ctimeMs) > now - RACY_WINDOW_MS;
}

/**
 * True when JSON keeps `value` as it is: strings, finite numbers, booleans, null, arrays and plain objects of
 * those (an `undefined` property is fine: it reads back as absent). YAML's `.inf`, `-0`, a Date or an alias
 * cycle (`a: &x { b: *x }`) would not be.
 */
export function isPlainData(value: unknown): boolean {
  return plainData(value, new Set());
}

/** `ancestors`: the objects on the path from the root, so that a cycle ends the walk instead of the stack. */
function plainData(value: unknown, ancestors: Set<object>): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
  if (typeof value !== "object" || ancestors.has(value)) return false;
  const isArray = Array.isArray(value);
  const proto: unknown = Object.getPrototypeOf(value);
  if (!isArray && proto !== Object.prototype && proto !== null) return false;
  ancestors.add(value);
  // `Array.from` turns holes into undefined, which JSON would write as null.
  const plain = isArray
    ? Array.from(value as unknown[]).every((v) => v !== undefined && plainData(v, ancestors))
    : Object.values(value).every((v) => v === undefined || plainData(v, ancestors));
  ancestors.delete(value);
  return plain;
}

function isCacheFile(value: unknown): value is CacheFile {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.format === "number" && typeof v.key === "string" && isRecord(v.entries);
}

/** The tuple's shape and the meta fields code downstream relies on (checked at lookup, one entry at a time). */
function isEntry(value: unknown): value is Entry {
  if (!Array.isArray(value) || value.length < 7 || value.length > 8) return false;
  const [fileId, size, mtimeMs, ctimeMs, name, kind, meta, diagnostics] = value as unknown[];
  if (typeof fileId !== "string" || typeof name !== "string" || (kind !== "skill" && kind !== "command")) {
    return false;
  }
  if (typeof size !== "number" || typeof mtimeMs !== "number" || typeof ctimeMs !== "number") return false;
  if (diagnostics !== undefined && !Array.isArray(diagnostics)) return false;
  if (meta === 0) return true;
  if (!isRecord(meta)) return false;
  const listOk = (field: string) => meta[field] === undefined || Array.isArray(meta[field]);
  return (
    (meta.description === undefined || typeof meta.description === "string") &&
    listOk("argumentNames") &&
    listOk("allowedTools") &&
    listOk("disallowedTools") &&
    (meta.extra === undefined || isRecord(meta.extra))
  );
}
