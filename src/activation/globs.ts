import { isAbsolute, relative, resolve, sep } from "node:path";
import ignore, { type Ignore } from "ignore";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import type { Skill } from "../skill/skill.js";
import { expandBraces } from "./braces.js";

/** Most patterns one skill's `paths:` may expand to (braces included); the rest are dropped with a warning. */
export const MAX_PATTERNS_PER_SKILL = 1_000;
/** A fallback `ignore` instance caches every path it saw; it is replaced after this many tests. */
export const FALLBACK_CACHE_LIMIT = 10_000;

/**
 * One `paths:` pattern, compiled once. `test` answers for the pattern's body (without a leading `!`) with the
 * semantics of the `ignore` package (gitignore syntax, case-insensitive): true when the body matches the path
 * or one of its parent dirs.
 */
export interface CompiledGlob {
  /** The pattern as given (after brace expansion and `./` normalisation). */
  pattern: string;
  /** A leading `!`: the pattern re-includes what earlier ones matched. */
  negated: boolean;
  /**
   * Tests a `/`-separated path relative to the cwd (no leading `./` or `/`; a trailing `/` marks a dir).
   * Never throws.
   */
  test(relPath: string): boolean;
  /**
   * A literal every matching path holds, lower-cased: `ext2:{x}` / `ext:{x}` (some path segment's text after
   * its second-last / last dot) or `seg:{x}` (some path segment). Undefined when any path may match.
   */
  key?: string;
}

/** The patterns of one skill, bounded, with a diagnostic when the bound cut some. */
export interface SkillPatterns {
  patterns: string[];
  diagnostics: Diagnostic[];
}

/**
 * Expands a conditional skill's `paths:` globs (already split by discovery) into gitignore patterns: braces
 * expanded (`expandBraces`), a leading `./` read as `/` (anchored at the cwd, which is what the author meant;
 * raw gitignore would never match it). At most `MAX_PATTERNS_PER_SKILL` patterns are kept, in order; over it
 * the rest are dropped and a `field-invalid` warning names the skill. Empty for a non-conditional skill. Pure.
 */
export function skillPatterns(skill: Pick<Skill, "name" | "paths" | "filePath">): SkillPatterns {
  const patterns: string[] = [];
  let truncated = false;
  for (const glob of skill.paths ?? []) {
    const room = MAX_PATTERNS_PER_SKILL - patterns.length;
    const expansion = expandBraces(glob, room);
    for (const pattern of expansion.patterns) patterns.push(normalizePattern(pattern));
    if (expansion.truncated) {
      truncated = true;
      break;
    }
  }
  const diagnostics = truncated
    ? [
        diagnostic(
          "warning",
          "field-invalid",
          `paths of skill "${skill.name}" expand to more than ${MAX_PATTERNS_PER_SKILL} patterns; only the first ${MAX_PATTERNS_PER_SKILL} are used`,
          skill.filePath === "" ? undefined : skill.filePath,
        ),
      ]
    : [];
  return { patterns, diagnostics };
}

function normalizePattern(pattern: string): string {
  if (pattern.startsWith("./")) return pattern.slice(1);
  if (pattern.startsWith("!./")) return `!${pattern.slice(2)}`;
  return pattern;
}

/**
 * Compiles one gitignore pattern. Blank lines and `#` comments give undefined (they match nothing).
 * Patterns made of literals, `*`, `?` and `**` (nearly all real ones) become one regular expression;
 * anything else (bracket classes, backslash escapes, bare `**`) is delegated to an `ignore` instance, so every
 * pattern behaves exactly as `ignore` would. Pure.
 */
export function compileGlob(pattern: string): CompiledGlob | undefined {
  if (pattern.trim() === "" || pattern.startsWith("#")) return undefined;
  const negated = pattern.startsWith("!");
  const body = negated ? pattern.slice(1) : pattern;
  if (body === "") return undefined;
  const shape = shapeOf(body);
  const simple = UNSUPPORTED.test(body) ? undefined : compileSimple(shape);
  const glob: CompiledGlob =
    simple === undefined
      ? { pattern, negated, test: fallbackTest(body) }
      : { pattern, negated, test: (relPath) => simple.test(relPath) };
  const key = UNKEYABLE.test(body)
    ? undefined
    : indexKey(shape.segments, simple === undefined ? SPECIAL : WILDCARDS);
  if (key !== undefined) glob.key = key;
  return glob;
}

/** An `ignore`-backed test whose path cache is dropped every `FALLBACK_CACHE_LIMIT` calls. */
function fallbackTest(body: string): (relPath: string) => boolean {
  let rules: Ignore | undefined;
  let calls = 0;
  return (relPath) => {
    if (rules === undefined || calls >= FALLBACK_CACHE_LIMIT) {
      rules = ignore({ allowRelativePaths: true }).add(body);
      calls = 0;
    }
    calls += 1;
    return rules.ignores(relPath);
  };
}

/** Left to `ignore`: bracket classes, escapes, and what `ignore` strips or splits on (see `UNKEYABLE`). */
const UNSUPPORTED = /[[\\\r\n\uFEFF]|\s$/;
/** `ignore` trims trailing spaces, splits on line breaks and drops a BOM: no literal key can be trusted. */
const UNKEYABLE = /[\r\n\uFEFF]|\s$/;
const REGEX_SPECIAL = /[.+^${}()|\]/]/g;
const WILDCARDS = /[*?]/;
/** What may not appear in a literal index key of a pattern `ignore` compiles. */
const SPECIAL = /[*?[\]\\]/;

interface Shape {
  segments: string[];
  anchored: boolean;
  dirOnly: boolean;
}

/** Splits a pattern body into segments: trailing `/` → dir-only; leading or inner `/` → anchored. */
function shapeOf(body: string): Shape {
  let rest = body;
  const dirOnly = rest.endsWith("/");
  if (dirOnly) rest = rest.slice(0, -1);
  let anchored = rest.includes("/");
  if (rest.startsWith("/")) rest = rest.slice(1);
  const segments = rest.split("/").map((s) => (/^\*{2,}$/.test(s) ? "**" : s));
  while (segments[0] === "**" && segments.length > 1) {
    segments.shift();
    anchored = false;
  }
  return { segments, anchored, dirOnly };
}

/** The simple subset of gitignore as one regex over the whole path, folding in the parent-dir rule. */
function compileSimple({ segments, anchored, dirOnly }: Shape): RegExp | undefined {
  if (segments.some((s) => s === "") || (segments.length === 1 && segments[0] === "**")) return undefined;
  let source = anchored ? "^" : "(?:^|/)";
  const last = segments.length - 1;
  for (const [i, segment] of segments.entries()) {
    if (segment === "**") {
      // Middle `/**/`: zero or more dirs. Trailing `/**`: everything inside, never the dir itself.
      if (i < last) source += "(?:/[^/]+)*";
      else source += dirOnly ? "(?:/[^/]+)+/" : "/[\\s\\S]";
      continue;
    }
    if (i > 0) source += "/";
    source += segmentSource(segment);
  }
  if (segments[last] !== "**") source += dirOnly ? "/" : "(?=/|$)";
  return new RegExp(source, "i");
}

function segmentSource(segment: string): string {
  if (/^\*+$/.test(segment)) return "[^/]+";
  return segment.replace(REGEX_SPECIAL, "\\$&").replace(/\*+/g, "[^/]*").replace(/\?/g, "[^/]");
}

/**
 * A literal some segment of every matching path holds, most selective first: the last segment's text after
 * its second-last dot (`ext2:d.ts`), after its last dot (`ext:ts`), then the last literal segment. A pattern
 * segment matches exactly one path segment, so the key is sound; `special` lists what is not literal.
 */
function indexKey(segments: readonly string[], special: RegExp): string | undefined {
  const lastSegment = segments[segments.length - 1] ?? "**";
  if (lastSegment !== "**") {
    const dot = lastSegment.lastIndexOf(".");
    const ext = lastSegment.slice(dot + 1);
    if (dot >= 0 && !special.test(ext)) {
      const dot2 = lastSegment.lastIndexOf(".", dot - 1);
      const ext2 = lastSegment.slice(dot2 + 1);
      if (dot > 0 && dot2 >= 0 && !special.test(ext2)) return `ext2:${ext2.toLowerCase()}`;
      return `ext:${ext.toLowerCase()}`;
    }
  }
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i] ?? "**";
    if (segment !== "**" && segment !== "" && !special.test(segment)) return `seg:${segment.toLowerCase()}`;
  }
  return undefined;
}

/** The kinds of index key, in the order `forEachPathKey` reports them for a segment. */
export const KEY_KINDS = ["seg", "ext", "ext2"] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

/**
 * Reports the index keys a path offers (see `CompiledGlob.key`), lower-cased, without building `kind:value`
 * strings: for each segment, `seg` with the segment, `ext` with the text after its last dot and `ext2` with
 * the text after its second-last dot, when it has those dots. Pure.
 */
export function forEachPathKey(relPath: string, visit: (kind: KeyKind, value: string) => void): void {
  const lower = relPath.toLowerCase();
  let from = 0;
  while (from < lower.length) {
    let to = lower.indexOf("/", from);
    if (to < 0) to = lower.length;
    if (to > from) {
      const segment = lower.slice(from, to);
      visit("seg", segment);
      const dot = segment.lastIndexOf(".");
      if (dot >= 0) {
        visit("ext", segment.slice(dot + 1));
        const dot2 = dot > 0 ? segment.lastIndexOf(".", dot - 1) : -1;
        if (dot2 >= 0) visit("ext2", segment.slice(dot2 + 1));
      }
    }
    from = to + 1;
  }
}

/** The index keys of a path as `kind:value` strings, in `forEachPathKey` order. Pure. */
export function pathKeys(relPath: string): string[] {
  const keys: string[] = [];
  forEachPathKey(relPath, (kind, value) => keys.push(`${kind}:${value}`));
  return keys;
}

/** `.` or `..` segments, empty segments or a trailing slash: left to `path.relative`. */
const UNCLEAN_PATH = /(?:^|\/)\.{1,2}(?:\/|$)|\/\/|^\/|\/$/;

/**
 * The path of `target` relative to `cwd`, `/`-separated, for matching; undefined when it is the cwd itself or
 * outside it (paths outside the cwd never match). A relative `target` is taken as relative to the cwd. Pure.
 */
export function matchPath(cwd: string, target: string): string | undefined {
  // Fast path for the common case, a clean absolute path below the cwd: no `path` normalisation needed.
  if (sep === "/" && target.length > cwd.length + 1 && target.startsWith(cwd) && target[cwd.length] === "/") {
    const rest = target.slice(cwd.length + 1);
    if (cwd !== "/" && !UNCLEAN_PATH.test(rest)) return rest;
  }
  const rel = relative(cwd, resolve(cwd, target));
  if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return sep === "/" ? rel : rel.split(sep).join("/");
}
