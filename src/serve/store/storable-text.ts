/**
 * What PostgreSQL (and PGlite) cannot hold in a `text` or `jsonb` value: the NUL character (U+0000), and a
 * lone surrogate (a UTF-16 half with no partner: it has no UTF-8 form). Everything a served session stores
 * from the model goes through {@link storableText} or {@link storableJson} first; what a client sends with
 * either is refused instead ({@link unstorableIn}).
 */

/** What replaces each NUL and each lone surrogate in stored text: U+FFFD, the Unicode replacement character. */
export const REPLACEMENT_CHARACTER = "\uFFFD";

// Matched on UTF-16 code units (no `u` flag): a NUL, a high surrogate with no low one after it, or a low
// surrogate with no high one before it.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the NUL is what this looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const EVERY_UNSTORABLE = new RegExp(UNSTORABLE.source, "g");

/** Why a string cannot be stored as it is. */
export type Unstorable = "NUL" | "lone surrogate";

/** The first reason `text` cannot be stored as it is; undefined when it can. Pure. */
export function unstorableText(text: string): Unstorable | undefined {
  const found = UNSTORABLE.exec(text);
  if (found === null) return undefined;
  return found[0] === "\u0000" ? "NUL" : "lone surrogate";
}

/** `text` with each NUL and each lone surrogate replaced by {@link REPLACEMENT_CHARACTER}. Pure. */
export function storableText(text: string): string {
  return unstorableText(text) === undefined ? text : text.replace(EVERY_UNSTORABLE, REPLACEMENT_CHARACTER);
}

/**
 * `value` (a JSON value: what `JSON.parse` gives, or an event about to be stored) with {@link storableText}
 * applied to every string and every object key at any depth. Returns `value` itself when nothing needed
 * replacing; otherwise a copy (the input is never changed). Values that are not strings, arrays or plain
 * objects are kept as they are. Pure.
 */
export function storableJson<T>(value: T): T {
  return unstorableIn(value) === undefined ? value : (replaced(value) as T);
}

function replaced(value: unknown): unknown {
  if (typeof value === "string") return storableText(value);
  if (Array.isArray(value)) return value.map(replaced);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[storableText(key)] = replaced(inner);
    return out;
  }
  return value;
}

/** Where {@link unstorableIn} found a string that cannot be stored: its field path and why. */
export interface UnstorableField {
  /** The field's path from the value's root, dot-separated (`events.0.content.0.text`); "" for the root. */
  path: string;
  reason: Unstorable;
}

/**
 * The first string (or object key) in `value` that cannot be stored, depth first in key order, with its
 * path; undefined when there is none. A key that cannot be stored is named by its parent's path. Pure.
 */
export function unstorableIn(value: unknown, path = ""): UnstorableField | undefined {
  if (typeof value === "string") {
    const reason = unstorableText(value);
    return reason === undefined ? undefined : { path, reason };
  }
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((inner, i) => [String(i), inner])
    : isPlainObject(value)
      ? Object.entries(value)
      : [];
  for (const [key, inner] of entries) {
    const keyReason = Array.isArray(value) ? undefined : unstorableText(key);
    if (keyReason !== undefined) return { path, reason: keyReason };
    const found = unstorableIn(inner, path === "" ? key : `${path}.${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
