/** Coercions for frontmatter values as skill authors write them (SPEC §1). Pure; undefined = invalid. */

const TRUE_WORDS = new Set(["true", "yes", "on", "1"]);
const FALSE_WORDS = new Set(["false", "no", "off", "0"]);

/** `true/false/yes/no/on/off/1/0`, any case, as booleans or strings or numbers. */
export function toBoolean(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value === 1 ? true : value === 0 ? false : undefined;
  if (typeof value !== "string") return undefined;
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
}

/** A scalar as text: strings as they are, numbers and booleans written out; anything else is invalid. */
export function toText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

/**
 * Splits on the given separators outside `()`, `[]` and `{}`, so `Bash(git add:*)` and `src/{a,b}.ts` stay
 * whole. Empty pieces are dropped.
 */
export function splitOutsideBrackets(text: string, isSeparator: (char: string) => boolean): string[] {
  // By UTF-16 unit: brackets and separators are single units, and half a surrogate pair is neither.
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 40 || code === 91 || code === 123)
      depth += 1; // ( [ {
    else if ((code === 41 || code === 93 || code === 125) && depth > 0) depth -= 1; // ) ] }
    if (depth === 0 && isSeparator(text[i] as string)) {
      const part = text.slice(start, i).trim();
      if (part !== "") parts.push(part);
      start = i + 1;
    }
  }
  const last = text.slice(start).trim();
  if (last !== "") parts.push(last);
  return parts;
}

const WHITESPACE = /\s/;
/** `\s` without the regex for ASCII (tab, LF, VT, FF, CR, space), the regex for the rest. */
const isWhitespace = (char: string): boolean => {
  const code = char.charCodeAt(0);
  return code < 128 ? code === 32 || (code >= 9 && code <= 13) : WHITESPACE.test(char);
};
const isCommaOrSpace = (char: string): boolean => char === "," || isWhitespace(char);
const isComma = (char: string): boolean => char === ",";
const isSpace = (char: string): boolean => isWhitespace(char);

/** A list of texts from a YAML list, or from a string split by `split`. */
function toList(value: unknown, split: (text: string) => string[]): string[] | undefined {
  if (Array.isArray(value)) {
    // Loops, not map/some/flatMap: every skill with `allowed-tools` comes through here.
    const out: string[] = [];
    for (const item of value) {
      const text = toText(item);
      if (text === undefined) return undefined;
      for (const part of split(text)) out.push(part);
    }
    return out;
  }
  const text = toText(value);
  return text === undefined ? undefined : split(text);
}

/** `allowed-tools` / `disallowed-tools`: comma- or space-separated rules, or a list. */
export function toToolRules(value: unknown): string[] | undefined {
  return toList(value, (text) => splitOutsideBrackets(text, isCommaOrSpace));
}

/** `paths`: comma-separated globs (braces kept whole), or a list. */
export function toGlobs(value: unknown): string[] | undefined {
  return toList(value, (text) => splitOutsideBrackets(text, isComma));
}

/** `arguments`: a list, or a string split on whitespace. */
export function toWords(value: unknown): string[] | undefined {
  return toList(value, (text) => splitOutsideBrackets(text, isSpace));
}

/** `argument-hint`: a string, or a list joined with spaces. */
export function toHint(value: unknown): string | undefined {
  if (Array.isArray(value)) {
    const items = value.map(toText);
    return items.some((item) => item === undefined) ? undefined : items.join(" ");
  }
  return toText(value);
}

/** Collapses newlines (and the spaces around them) into single spaces and trims. */
export function collapseNewlines(text: string): string {
  // Most texts are one line: skip the regex scan.
  return text.includes("\n") || text.includes("\r")
    ? text.replace(/\s*[\r\n]+\s*/g, " ").trim()
    : text.trim();
}

const VALID_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** Longest valid skill name (Agent Skills spec). */
export const MAX_NAME_LENGTH = 64;

/** A valid skill name: `[a-z0-9-]`, at most 64 chars, no leading, trailing or double hyphen. */
export function isValidSkillName(name: string): boolean {
  return name.length <= MAX_NAME_LENGTH && VALID_NAME.test(name);
}

/**
 * A copy of `text` that does not share memory with the file text it was cut from (V8 keeps the whole
 * parent string alive behind a substring). Slicing a concatenation makes V8 flatten it into a new string
 * first, so the result points into that copy, not the parent: 2,000 200-char slices of 100 KB parents kept
 * 3.5 MB of heap this way, as with the former UTF-8 round trip through a Buffer (which took 4-6x longer).
 */
export function detach(text: string): string {
  return text.length < 13 ? text : ` ${text}`.slice(1);
}
