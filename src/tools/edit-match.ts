/** A span of the original text, `end` exclusive. */
export interface TextRange {
  start: number;
  end: number;
}

/** Where `old_string` is in a file (STYLE 6: a union, no throwing). */
export type MatchResult =
  | { kind: "found"; ranges: TextRange[]; fuzzy: boolean }
  | { kind: "ambiguous"; count: number; fuzzy: boolean }
  | { kind: "not-found" };

/** Text normalised for fuzzy matching, with each normalised char's span in the original text. */
export interface NormalizedText {
  text: string;
  /** `starts[i]`/`ends[i]`: the original span that produced normalised char `i`. */
  starts: number[];
  ends: number[];
}

const CHAR_FOLDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/[\u2018\u2019\u201A\u201B\u2032]/gu, "'"],
  [/[\u201C\u201D\u201E\u201F\u2033]/gu, '"'],
  [/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/gu, "-"],
  [/[\u00A0\u2000-\u200A\u202F\u205F\u3000]/gu, " "],
];

/** One base character and the combining marks after it, so NFKC can compose them. */
const SEGMENT = /\P{M}\p{M}*|\p{M}+/gsu;

function foldSegment(segment: string): string {
  let out = segment;
  for (const [pattern, replacement] of CHAR_FOLDS) out = out.replace(pattern, replacement);
  return out.normalize("NFKC");
}

/**
 * Normalises text for fuzzy matching: smart quotes to `'`/`"`, Unicode dashes to `-`, NBSP and other Unicode
 * spaces to a space, NFKC, and trailing spaces/tabs of every line removed. Keeps a map back to the original.
 * Pure.
 */
export function normalizeForMatch(text: string): NormalizedText {
  const chars: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  for (const m of text.matchAll(SEGMENT)) {
    const start = m.index;
    const end = start + m[0].length;
    const isAscii = m[0].length === 1 && m[0].charCodeAt(0) < 0x80;
    for (const ch of isAscii ? m[0] : foldSegment(m[0])) {
      chars.push(ch);
      starts.push(start);
      ends.push(end);
    }
  }
  const keep: boolean[] = new Array(chars.length).fill(true);
  let trailing = true;
  for (let i = chars.length - 1; i >= 0; i--) {
    const ch = chars[i];
    if (ch === "\n") trailing = true;
    else if (trailing && (ch === " " || ch === "\t" || ch === "\r")) keep[i] = false;
    else trailing = false;
  }
  const out: NormalizedText = { text: "", starts: [], ends: [] };
  const kept: string[] = [];
  chars.forEach((ch, i) => {
    if (!keep[i]) return;
    kept.push(ch);
    out.starts.push(starts[i] ?? 0);
    out.ends.push(ends[i] ?? 0);
  });
  out.text = kept.join("");
  return out;
}

function indexesOf(haystack: string, needle: string): number[] {
  const found: number[] = [];
  if (needle === "") return found;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) {
    found.push(at);
  }
  return found;
}

function decide(ranges: TextRange[], replaceAll: boolean, fuzzy: boolean): MatchResult | undefined {
  if (ranges.length === 0) return undefined;
  if (ranges.length > 1 && !replaceAll) return { kind: "ambiguous", count: ranges.length, fuzzy };
  return { kind: "found", ranges, fuzzy };
}

/**
 * Finds `needle` in `content`: exact first; when there is no exact match, a fuzzy match on
 * `normalizeForMatch` of both, mapped back to original spans. More than one match is `ambiguous` unless
 * `replaceAll`. Pure.
 */
export function findMatches(content: string, needle: string, replaceAll: boolean): MatchResult {
  const exact = indexesOf(content, needle).map((start) => ({ start, end: start + needle.length }));
  const exactResult = decide(exact, replaceAll, false);
  if (exactResult) return exactResult;

  const haystack = normalizeForMatch(content);
  const wanted = normalizeForMatch(needle).text;
  const fuzzy = indexesOf(haystack.text, wanted).map((at) => ({
    start: haystack.starts[at] ?? 0,
    end: haystack.ends[at + wanted.length - 1] ?? 0,
  }));
  return decide(fuzzy, replaceAll, true) ?? { kind: "not-found" };
}

/** `content` with each range (sorted, not overlapping) replaced by `replacement`. Pure. */
export function replaceRanges(content: string, ranges: readonly TextRange[], replacement: string): string {
  let out = "";
  let at = 0;
  for (const range of ranges) {
    out += content.slice(at, range.start) + replacement;
    at = range.end;
  }
  return out + content.slice(at);
}
