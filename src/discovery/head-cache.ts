import { dirname } from "node:path";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { writeFileAtomic } from "../io/atomic-write.js";
import type { FileStat, FsOps } from "../io/fs.js";
import { isRecord } from "../is-record.js";
import type { HeadResult, SkillFileRef } from "../skill/load-skill.js";
import { normalizeMeta } from "../skill/schema.js";
import type { SkillKind, SkillMeta } from "../skill/skill.js";
import { nameFieldText, type SkillTermAnalyzers, type SkillTerms } from "../skill/skill-terms.js";
import { pruneCacheDir } from "./cache-prune.js";

/*
 * A discovery cache: the parsed head of every skill file, kept between runs and trusted only while the file
 * has the same stamp (identity, size, modification and status-change times). A hit costs one stat instead
 * of open/fstat/read/close plus parsing; a CLI run in a project of 1,000 skills starts ~20 ms sooner. Dirs
 * are still listed every run, so added and removed skills are always seen; only file contents are cached.
 *
 * The file is line-delimited: a header line `{"format":4,"key":…}`, then one JSON array per file. A discovery
 * looks its files up in one synchronous pass over the lines, parsing one line at a time and handing each hit on
 * at once: no map of every entry, and the text is dropped when the pass ends (at 50k skills the whole parsed
 * file beside the text was ~50 MB of the CLI's peak memory).
 */

/** Bump when the shape of a cached entry changes. The caller's key covers code changes (version, build). */
export const HEAD_CACHE_FORMAT = 4;
/**
 * Files whose stamp is this recent are not kept: on a file system with coarse timestamps (1-2 s), a second
 * edit within the same tick that keeps the size would keep the stamp too (git's "racily clean" problem).
 */
export const RACY_WINDOW_MS = 2_000;
/** A cache file larger than this is ignored (and rewritten smaller). */
export const MAX_HEAD_CACHE_BYTES = 64_000_000;
/** A first line longer than this is no header of ours (a format-2 file is one long line): it is not parsed. */
const MAX_HEADER_CHARS = 4_096;
/** The cache file is read in chunks of this size: each decoded chunk is a small, short-lived string. */
const CHUNK_BYTES = 64 * 1_024;

/** What {@link openHeadCache} reads and writes. */
export interface HeadCacheOptions {
  fs: FsOps;
  /** The cache file, e.g. `~/.skillwright/cache/discovery/{project hash}.json`. */
  file: string;
  /** Entries written under another key are ignored: pass the version and the build identity. */
  key: string;
  /** The current time (ms since the epoch), for the racy window. */
  now: number;
  /**
   * The skill search's analysis: when given, each head put is kept with its fields' search terms
   * (`skill-terms.ts`), and each hit comes back with them. The key must cover the analysis (it is the build's).
   */
  analyze?: SkillTermAnalyzers;
}

/** The cache for one discovery: read once, looked up once, then the misses put, written back once at the end. */
export interface HeadCache {
  /**
   * Looks up the files of one discovery in a single synchronous pass over the cache (call it once): for each
   * entry whose file is in `refs` and still has the stamp `stat(index)` reports, calls `onHit(index, head)`.
   * Returns the indexes of the refs not served, ascending. `stat` is called only for refs that have an entry,
   * and may return undefined (the file is gone or unreadable: a miss).
   */
  lookup(
    refs: readonly SkillFileRef[],
    stat: (index: number) => FileStat | undefined,
    onHit: (index: number, head: HeadResult) => void,
  ): number[];
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
 * `[path, fileId, size, mtimeMs, ctimeMs, name, kind, meta, terms, diagnostics?]`, one line each: an array, and
 * `meta` holds only the fields that differ from a skill with empty frontmatter (0 when the head has no meta): a
 * cold `JSON.parse` of 1,000 full entries took 6.6 ms, of these 1.5 ms. `terms`: the search terms of the
 * name field, description, `when_to_use` and argument hint (0: not analysed, or no meta).
 */
type Entry = [
  string,
  string,
  number,
  number,
  number,
  string,
  SkillKind,
  Partial<SkillMeta> | 0,
  StoredTerms | 0,
  Diagnostic[]?,
];
/**
 * The `…Terms` strings of a {@link SkillTerms}, in its order; the texts are the meta's own, and the name field's
 * that of the entry's name (a plugin's skill answers to another name: its terms are analysed afresh).
 */
type StoredTerms = [string, string, string, string];

/** Reads the cache file (a missing, unreadable, corrupt or foreign one reads as empty). Never throws. */
export async function openHeadCache(options: HeadCacheOptions): Promise<HeadCache> {
  const { fs, file, key, now, analyze } = options;
  // Every line of the file, the header first, read when called; dropped after `lookup` unless a rewrite will
  // copy the lines it used (read again then: holding every hit line would hold the whole text).
  let lines = await cacheLines(fs, file);
  // The numbers (0: the first entry line) of the lines `lookup` served from, ascending.
  let usedLines: number[] = [];
  const template = emptyMeta();
  // The template as a record, for `compact` (made once, not per put).
  const defaults: Record<string, unknown> = { ...template };
  const puts = new Map<string, Entry>();
  let changed = false;
  return {
    lookup(refs, stat, onHit) {
      const served = new Uint8Array(refs.length);
      // First index of each path, and the next index with the same path (-1: none): a path listed twice in
      // `refs` is served from one line.
      const firstIndex = new Map<string, number>();
      const nextIndex = new Int32Array(refs.length).fill(-1);
      // For each first index, the last index with its path so far (the chain's tail).
      const tail = new Int32Array(refs.length);
      for (let index = 0; index < refs.length; index += 1) {
        const path = (refs[index] as SkillFileRef).path;
        const first = firstIndex.get(path);
        if (first === undefined) {
          firstIndex.set(path, index);
          tail[index] = index;
        } else {
          nextIndex[tail[first] ?? first] = index;
          tail[first] = index;
        }
      }
      let count = 0;
      const used: number[] = [];
      let header = true;
      // One call per line, not a generator step: a thousand lines cost a thousand resumptions each.
      const visit = (line: string): boolean => {
        if (header) {
          header = false;
          return isOurHeader(line, key);
        }
        const entry = parseEntry(line);
        let hit = false;
        for (let index = entry === undefined ? -1 : (firstIndex.get(entry[0]) ?? -1); index !== -1; ) {
          const ref = refs[index];
          if (served[index] === 0 && entry !== undefined && ref !== undefined) {
            const current = stat(index);
            if (current?.kind === "file" && matches(entry, ref, current)) {
              served[index] = 1;
              hit = true;
              onHit(index, headOf(template, entry));
            }
          }
          index = nextIndex[index] ?? -1;
        }
        if (hit) used.push(count);
        count += 1;
        return true;
      };
      try {
        lines?.(visit);
      } catch {
        // A file that cannot be read to the end (replaced by a dir, a read error): what was served stands.
        changed = true;
      }
      const missed: number[] = [];
      for (let index = 0; index < refs.length; index += 1) if (served[index] === 0) missed.push(index);
      // A line not used is a file gone or changed: the file is rewritten. The misses may add entries too.
      if (used.length < count) changed = true;
      if (changed || missed.length > 0) usedLines = used;
      else lines = undefined;
      return missed;
    },
    put(ref, stat, head) {
      changed = true;
      if (isRacy(stat, now) || !isPlainData(head) || head.missing === true) return;
      const meta = head.meta === undefined ? 0 : compact(defaults, head.meta);
      if (meta === undefined) return;
      const entry: Entry = [
        ref.path,
        stat.fileId,
        stat.size,
        stat.mtimeMs,
        stat.ctimeMs,
        ref.name,
        ref.kind,
        meta,
        analyze === undefined || head.meta === undefined ? 0 : storedTerms(analyze, ref.name, head.meta),
      ];
      if (head.diagnostics.length > 0) entry.push(head.diagnostics);
      puts.set(ref.path, entry);
    },
    async save() {
      if (!changed) return undefined;
      // Each line is encoded as it is made: at 50k skills an array of every line, then their join, held ~40 MB
      // more than the bytes written.
      const out = lineEncoder();
      out.append(JSON.stringify({ format: HEAD_CACHE_FORMAT, key }));
      if (lines !== undefined && usedLines.length > 0) copyLines(lines, key, usedLines, out.append);
      lines = undefined;
      usedLines = [];
      for (const entry of puts.values()) out.append(JSON.stringify(entry));
      puts.clear();
      const content = out.bytes();
      try {
        await fs.mkdir(dirname(file));
        await writeFileAtomic(fs, file, content);
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

/**
 * Hands the entry lines numbered in `numbers` (ascending; 0 is the first line after the header) to `out`, when
 * the header is still ours. A file rewritten by another run in between gives that run's lines: each is an entry
 * checked against its file's stamp like any other. Never throws (lines it cannot read are left out).
 */
function copyLines(lines: LineReader, key: string, numbers: number[], out: (line: string) => void): void {
  try {
    let number = -1;
    let next = 0;
    lines((line) => {
      if (number === -1 && !isOurHeader(line, key)) return false;
      if (number === numbers[next]) {
        out(line);
        next += 1;
        if (next === numbers.length) return false;
      }
      number += 1;
      return true;
    });
  } catch {
    // Left out: the next run reads those files again.
  }
}

/** Lines appended one at a time, as UTF-8 bytes, each ended by a newline. */
function lineEncoder(): { append(line: string): void; bytes(): Uint8Array } {
  let buffer = Buffer.allocUnsafe(64 * 1_024);
  let length = 0;
  const append = (line: string) => {
    const needed = length + Buffer.byteLength(line) + 1;
    if (needed > buffer.length) {
      const bigger = Buffer.allocUnsafe(Math.max(needed, Math.ceil(buffer.length * 1.5)));
      buffer.copy(bigger, 0, 0, length);
      buffer = bigger;
    }
    length += buffer.write(line, length);
    buffer[length] = 0x0a;
    length += 1;
  };
  return { append, bytes: () => buffer.subarray(0, length) };
}

/** True when `line` is the header this build writes (format and key). */
function isOurHeader(line: string, key: string): boolean {
  if (line.length > MAX_HEADER_CHARS) return false;
  try {
    const header: unknown = JSON.parse(line);
    return isRecord(header) && header.format === HEAD_CACHE_FORMAT && header.key === key;
  } catch {
    return false;
  }
}

/**
 * Hands each line of a file to `visit`, in order, until `visit` returns false or the lines end. Throws when the
 * file cannot be read to the end. A callback per line, not a generator: a step of a generator (two, nested)
 * per line was most of what a warm discovery spent between parsing lines.
 */
type LineReader = (visit: (line: string) => boolean) => void;

/**
 * The cache file's lines, read when called: in chunks through `readChunksSync` when the fs has it (each chunk
 * decoded, split and dropped before the next: the whole text is never held), else from the whole text read
 * now. Undefined when there is no readable file of an acceptable size.
 */
async function cacheLines(fs: FsOps, file: string): Promise<LineReader | undefined> {
  try {
    const stat = await fs.stat(file);
    if (stat.kind !== "file" || stat.size > MAX_HEAD_CACHE_BYTES) return undefined;
    const readChunksSync = fs.readChunksSync?.bind(fs);
    if (readChunksSync !== undefined)
      return (visit) => linesOfChunks(readChunksSync(file, CHUNK_BYTES), visit);
    const text = await fs.readFile(file);
    return (visit) => void visitLines(text.endsWith("\n") ? text.slice(0, -1) : text, visit);
  } catch {
    return undefined;
  }
}

/** `text.split("\n")`, one line at a time to `visit`; false when `visit` stopped the lines. */
function visitLines(text: string, visit: (line: string) => boolean): boolean {
  let start = 0;
  for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n", start)) {
    if (!visit(text.slice(start, newline))) return false;
    start = newline + 1;
  }
  return visit(text.slice(start));
}

/**
 * The lines of UTF-8 text read in chunks, to `visit`: each chunk up to its last newline is decoded at once (a
 * newline byte is never part of a multi-byte character), the rest carried into the next. A first line longer
 * than {@link MAX_HEADER_CHARS} bytes ends the lines (no header of ours: a format-2 file is one long line).
 */
function linesOfChunks(chunks: Iterable<Uint8Array>, visit: (line: string) => boolean): void {
  let carry: Buffer = Buffer.alloc(0);
  let first = true;
  const visitFirst = (line: string): boolean => {
    if (!first) return visit(line);
    if (line.length > MAX_HEADER_CHARS) return false;
    first = false;
    return visit(line);
  };
  for (const chunk of chunks) {
    const last = chunk.lastIndexOf(0x0a);
    if (last === -1) {
      carry = Buffer.concat([carry, chunk]);
      if (first && carry.length > MAX_HEADER_CHARS) return;
      continue;
    }
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    // Complete lines, without the newline that ends the last of them. The carry may end inside a character that
    // this chunk finishes: decoded together, never apart.
    const text =
      carry.length === 0
        ? bytes.toString("utf8", 0, last)
        : Buffer.concat([carry, bytes.subarray(0, last)]).toString("utf8");
    carry = Buffer.from(bytes.subarray(last + 1));
    if (!visitLines(text, first ? visitFirst : visit)) return;
  }
  if (carry.length > 0) visit(carry.toString("utf8"));
}

/** The head an entry keeps. */
function headOf(template: SkillMeta, entry: Entry): HeadResult {
  // Indexes, not a destructuring pattern: that steps an array iterator per element.
  const fileId = entry[1];
  const meta = entry[7];
  const stored = entry[8];
  const diagnostics = entry[9] ?? [];
  if (meta === 0) return { diagnostics, fileId };
  const full = expand(template, meta);
  return stored === 0
    ? { meta: full, diagnostics, fileId }
    : { meta: full, diagnostics, fileId, terms: termsOf(entry[5], full, stored) };
}

/** The search terms a put keeps for a head's meta. */
function storedTerms(analyze: SkillTermAnalyzers, name: string, meta: SkillMeta): StoredTerms {
  return [
    analyze.name(nameFieldText(name, meta.alias)),
    analyze.text(meta.description),
    analyze.text(meta.whenToUse ?? ""),
    analyze.text(meta.argumentHint ?? ""),
  ];
}

/** The terms an entry kept, beside the texts they were analysed from (the meta it kept with them). */
function termsOf(name: string, meta: SkillMeta, stored: StoredTerms): SkillTerms {
  return {
    name: nameFieldText(name, meta.alias),
    nameTerms: stored[0],
    description: meta.description,
    descriptionTerms: stored[1],
    whenToUse: meta.whenToUse ?? "",
    whenToUseTerms: stored[2],
    argumentHint: meta.argumentHint ?? "",
    argumentHintTerms: stored[3],
  };
}

/** One line's entry, or undefined when it is not valid JSON or not an entry. */
function parseEntry(line: string): Entry | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isEntry(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The meta of a skill whose frontmatter is empty: what compacted entries leave out. */
function emptyMeta(): SkillMeta {
  return normalizeMeta({ data: {}, kind: "skill", dirName: "x", firstBodyLine: undefined, path: "" }).meta;
}

/** The fields that differ from the template; undefined when a template field is missing (not storable). */
function compact(defaults: Record<string, unknown>, meta: SkillMeta): Partial<SkillMeta> | undefined {
  const out: Record<string, unknown> = {};
  // Keys, not entries: no [field, value] array per field.
  const fields = Object.keys(meta);
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] as string;
    const value: unknown = Reflect.get(meta, field);
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
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  // Most lists and maps of a head are as empty as the template's: equal without writing either out.
  if (Array.isArray(a) && Array.isArray(b) && a.length === 0 && b.length === 0) return true;
  return JSON.stringify(a) === JSON.stringify(b);
}

function matches(entry: Entry, ref: SkillFileRef, stat: FileStat): boolean {
  return (
    entry[1] === stat.fileId &&
    entry[2] === stat.size &&
    entry[3] === stat.mtimeMs &&
    entry[4] === stat.ctimeMs &&
    entry[5] === ref.name &&
    entry[6] === ref.kind
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
  const plain = isArray ? plainItems(value as unknown[], ancestors) : plainValues(value, ancestors);
  ancestors.delete(value);
  return plain;
}

/** Every item plain data; a hole (read as undefined, which JSON would write as null) is not. */
function plainItems(items: unknown[], ancestors: Set<object>): boolean {
  for (let i = 0; i < items.length; i += 1) {
    const item = items[i];
    if (item === undefined || !plainData(item, ancestors)) return false;
  }
  return true;
}

/** Every own enumerable value plain data or undefined (read back as absent). */
function plainValues(value: object, ancestors: Set<object>): boolean {
  const values = Object.values(value);
  for (let i = 0; i < values.length; i += 1) {
    const item = values[i];
    if (item !== undefined && !plainData(item, ancestors)) return false;
  }
  return true;
}

/** The tuple's shape and the meta fields code downstream relies on (checked at lookup, one entry at a time). */
function isEntry(value: unknown): value is Entry {
  if (!Array.isArray(value) || value.length < 9 || value.length > 10) return false;
  const path: unknown = value[0];
  const fileId: unknown = value[1];
  const size: unknown = value[2];
  const mtimeMs: unknown = value[3];
  const ctimeMs: unknown = value[4];
  const name: unknown = value[5];
  const kind: unknown = value[6];
  const meta: unknown = value[7];
  const terms: unknown = value[8];
  const diagnostics: unknown = value[9];
  if (typeof path !== "string" || typeof fileId !== "string" || typeof name !== "string") return false;
  if (kind !== "skill" && kind !== "command") return false;
  if (typeof size !== "number" || typeof mtimeMs !== "number" || typeof ctimeMs !== "number") return false;
  if (diagnostics !== undefined && !Array.isArray(diagnostics)) return false;
  if (terms !== 0 && !isStoredTerms(terms)) return false;
  if (meta === 0) return terms === 0;
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

/** Four strings. */
function isStoredTerms(value: unknown): value is StoredTerms {
  return (
    Array.isArray(value) &&
    value.length === 4 &&
    typeof value[0] === "string" &&
    typeof value[1] === "string" &&
    typeof value[2] === "string" &&
    typeof value[3] === "string"
  );
}
