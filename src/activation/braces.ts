/** The result of expanding one glob's braces. */
export interface BraceExpansion {
  /** The expanded patterns in shell order (left group outermost), at most `limit` of them. */
  patterns: string[];
  /** True when the glob expanded to more than `limit` patterns and the rest were dropped. */
  truncated: boolean;
}

interface Group {
  start: number;
  end: number;
  /** The alternatives, produced lazily so a huge range never materialises past the cap. */
  alternatives(cap: number): string[];
}

const NUMERIC_RANGE = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/;
const LETTER_RANGE = /^([a-zA-Z])\.\.([a-zA-Z])(?:\.\.(-?\d+))?$/;

/**
 * Expands shell braces in a glob, as bash does: `src/{a,b}/*.{ts,tsx}` gives four patterns, groups nest
 * (`{a,b/{c,d}}`), `{,x}` gives an empty alternative, `{1..3}`, `{01..10..3}` and `{a..c}` are ranges. A group
 * with neither a top-level comma nor a range (`{a}`, `{}`) and an unclosed `{` stay literal; a
 * backslash-escaped brace or comma is literal and keeps its backslash (the glob compiler reads it).
 * Stops after `limit` patterns (`truncated` tells). Pure.
 */
export function expandBraces(glob: string, limit: number): BraceExpansion {
  const cap = Math.max(0, Math.floor(limit));
  const out = expand(glob, cap + 1);
  return out.length > cap
    ? { patterns: out.slice(0, cap), truncated: true }
    : { patterns: out, truncated: false };
}

function expand(text: string, cap: number): string[] {
  const group = firstGroup(text);
  if (group === undefined) return [text];
  const prefix = text.slice(0, group.start);
  const tails = expand(text.slice(group.end + 1), cap);
  const out: string[] = [];
  for (const alternative of group.alternatives(cap)) {
    for (const head of expand(alternative, cap)) {
      for (const tail of tails) {
        out.push(prefix + head + tail);
        if (out.length >= cap) return out;
      }
    }
  }
  return out;
}

/** The first `{…}` that expands, or undefined. */
function firstGroup(text: string): Group | undefined {
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "\\") {
      i += 1;
      continue;
    }
    if (char !== "{") continue;
    const end = closingBrace(text, i);
    if (end === undefined) continue;
    const inner = text.slice(i + 1, end);
    const parts = splitTopLevel(inner);
    if (parts.length >= 2) return { start: i, end, alternatives: () => parts };
    const range = rangeOf(inner);
    if (range !== undefined) return { start: i, end, alternatives: range };
  }
  return undefined;
}

function closingBrace(text: string, open: number): number | undefined {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const char = text[i];
    if (char === "\\") i += 1;
    else if (char === "{") depth += 1;
    else if (char === "}") {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return undefined;
}

/** Splits on commas outside nested braces; escaped commas stay. */
function splitTopLevel(inner: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < inner.length; i++) {
    const char = inner[i];
    if (char === "\\") i += 1;
    else if (char === "{") depth += 1;
    else if (char === "}") depth -= 1;
    else if (char === "," && depth === 0) {
      parts.push(inner.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(inner.slice(from));
  return parts;
}

function rangeOf(inner: string): ((cap: number) => string[]) | undefined {
  const numeric = NUMERIC_RANGE.exec(inner);
  if (numeric !== null) {
    const [, a = "", b = "", s] = numeric;
    const from = Number(a);
    const to = Number(b);
    const step = Math.abs(Number(s ?? "1")) || 1;
    const padded = /^-?0\d/.test(a) || /^-?0\d/.test(b);
    const width = padded ? Math.max(a.length, b.length) : 0;
    return (cap) => steps(from, to, step, cap).map((n) => pad(n, width));
  }
  const letters = LETTER_RANGE.exec(inner);
  if (letters !== null) {
    const [, a = "a", b = "a", s] = letters;
    const step = Math.abs(Number(s ?? "1")) || 1;
    return (cap) => steps(a.charCodeAt(0), b.charCodeAt(0), step, cap).map((n) => String.fromCharCode(n));
  }
  return undefined;
}

function steps(from: number, to: number, step: number, cap: number): number[] {
  const out: number[] = [];
  const dir = from <= to ? 1 : -1;
  for (let n = from; dir > 0 ? n <= to : n >= to; n += dir * step) {
    out.push(n);
    if (out.length >= cap) break;
  }
  return out;
}

function pad(n: number, width: number): string {
  const digits = String(Math.abs(n)).padStart(n < 0 ? width - 1 : width, "0");
  return n < 0 ? `-${digits}` : digits;
}
