/*
 * The fast path of frontmatter parsing: the subset of YAML that real skill heads use, parsed line by line
 * without loading the `yaml` package. It either returns exactly what `yaml` would return or declines
 * (undefined), never a different value; test/skill/frontmatter-fast.test.ts checks that against `yaml` on the
 * real corpus and on generated heads.
 *
 * Handled: top-level `key: value` lines (an anchor `&name` before the value allowed) whose value is a plain
 * scalar, a single- or double-quoted scalar on one line (YAML's escapes), a flow list of scalars or a flow map of
 * scalars on one line, a `|` / `>` block scalar (clip or strip chomping); and a `key:` followed by a nested block
 * collection: lists of scalars and of compact maps (`- matcher: Bash` with more entries below), maps whose values
 * are any of these inline values or another nested collection (a `hooks:` map of lists of maps), up to
 * MAX_DEPTH levels. Comments and blank
 * lines between entries. Anything else declines.
 */

/** A value the fast path cannot decide; the caller then uses `yaml`. */
const DECLINE = Symbol("decline");
type Maybe<T> = T | typeof DECLINE;

const TOP_KEY = /^([A-Za-z_][\w-]*):(?:([ \t]+)(.*))?$/;
const NESTED_KEY = /^([A-Za-z_][\w-]*):(?:[ \t]+(.*))?$/;
/** A plain scalar may not start with an indicator character. */
const UNSAFE_START = /^[[\]{}&*!|>'"%@`#,?:-]/;
/** `:` or `#` after any whitespace (a tab too) is YAML syntax, not text. */
const YAML_SYNTAX_INSIDE = /:\s|\s#/;
/** Inside a flow list, these end or nest a plain scalar. */
const FLOW_INDICATORS = /[[\]{},]/;
const BLOCK_HEADER = /^([|>])(-?)$/;
/**
 * An anchor (`&name `) before a value on a top-level key's line: it names the value and changes nothing in it.
 * An alias (`*name`) always declines (a plain scalar may not start with `*`), so no anchor is ever used.
 */
const ANCHOR = /^&[A-Za-z0-9_-]+ +(?=\S)/;
/** What may follow a closing quote: nothing, or whitespace and a comment. */
const AFTER_QUOTE = /^(?:[ \t]*|[ \t]+#.*)$/;

/**
 * Parses `text` (the frontmatter between the fences, BOM already stripped) when it stays inside the handled
 * subset; undefined otherwise. Pure; never throws.
 */
export function parseFastFrontmatter(text: string): Record<string, unknown> | undefined {
  const lines = text.split("\n");
  // CRLF heads are few: strip the `\r`s in place, and not at all when there is none.
  if (text.includes("\r")) {
    for (let l = 0; l < lines.length; l += 1) {
      const line = lines[l] as string;
      if (line.endsWith("\r")) lines[l] = line.slice(0, -1);
    }
  }
  const data: Record<string, unknown> = {};
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (isBlankOrComment(line)) {
      i += 1;
      continue;
    }
    const match = TOP_KEY.exec(line);
    if (match === null) return undefined;
    const key = match[1] as string;
    if (Object.hasOwn(data, key) || !isPlainKey(key)) return undefined;
    const rest = (match[3] ?? "").trimEnd();
    i += 1;
    let value: Maybe<unknown>;
    if (rest === "") {
      const nested = nestedValue(lines, i, 0, 1);
      if (nested === DECLINE) return undefined;
      value = nested.value;
      i = nested.next;
    } else {
      const header = BLOCK_HEADER.exec(rest);
      if (header !== null) {
        const block = blockScalar(lines, i, header[1] === ">", header[2] === "-");
        if (block === DECLINE) return undefined;
        value = block.value;
        i = block.next;
      } else {
        const anchor = ANCHOR.exec(rest);
        value = inlineValue(anchor === null ? rest : rest.slice(anchor[0].length));
      }
    }
    if (value === DECLINE) return undefined;
    data[key] = value;
  }
  return data;
}

/**
 * A key that YAML reads as the same string (`null`, `TRUE` and the like resolve to other values). Every key
 * here starts with a letter or `_` (the key patterns), so no number form can match: only the words
 * `coreScalar` resolves are left to refuse. Spelt out rather than calling `coreScalar`, whose regexes the
 * optimising compiler otherwise copies into every caller.
 */
function isPlainKey(key: string): boolean {
  switch (key) {
    case "__proto__":
    case "true":
    case "True":
    case "TRUE":
    case "false":
    case "False":
    case "FALSE":
    case "null":
    case "Null":
    case "NULL":
      return false;
  }
  return true;
}

function isBlankOrComment(line: string): boolean {
  const trimmed = line.trimStart();
  return trimmed === "" || (trimmed.startsWith("#") && !line.startsWith("\t"));
}

function indentOf(line: string): number {
  let n = 0;
  while (line.charCodeAt(n) === 32) n += 1;
  return n;
}

/** A value written on the key's own line: a quoted scalar, a flow list or a plain scalar. */
function inlineValue(text: string): Maybe<unknown> {
  if (text.startsWith('"') || text.startsWith("'")) return quotedWhole(text);
  if (text.startsWith("[")) return flowList(text);
  if (text.startsWith("{")) return flowMap(text);

  return plainScalar(text);
}

/** A quoted scalar that must be the whole value (a trailing comment allowed). */
function quotedWhole(text: string): Maybe<string> {
  const quoted = text.startsWith('"') ? doubleQuoted(text, 0) : singleQuoted(text, 0);
  if (quoted === DECLINE || !AFTER_QUOTE.test(text.slice(quoted.end))) return DECLINE;
  return quoted.value;
}

/** The plain-scalar rules of the fast path: no indicators, no `: ` or ` #`, YAML 1.2 core types. */
function plainScalar(text: string): Maybe<unknown> {
  if (UNSAFE_START.test(text) || YAML_SYNTAX_INSIDE.test(text) || text.endsWith(":")) return DECLINE;
  if (text.includes("\t")) return DECLINE;
  return coreScalar(text);
}

interface Quoted {
  value: string;
  /** Index just after the closing quote. */
  end: number;
}

/** A single-quoted scalar starting at `start` and closing on the same line (`''` is a quote). */
function singleQuoted(text: string, start: number): Maybe<Quoted> {
  // Runs between quotes are copied with one slice each, not a character at a time.
  let value = "";
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf("'", from);
    if (quote === -1) return DECLINE;
    value += text.slice(from, quote);
    if (text.charCodeAt(quote + 1) !== 39) return { value, end: quote + 1 };
    value += "'";
    from = quote + 2;
  }
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  t: "\t",
  "\t": "\t",
  n: "\n",
  v: "\v",
  f: "\f",
  r: "\r",
  e: "\x1b",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
  N: "\u0085",
  _: "\u00a0",
  L: "\u2028",
  P: "\u2029",
};
const HEX_ESCAPES: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };
const HEX = /^[0-9A-Fa-f]+$/;

/** A double-quoted scalar starting at `start` and closing on the same line, with YAML's escapes. */
function doubleQuoted(text: string, start: number): Maybe<Quoted> {
  // Runs between escapes are copied with one slice each, not a character at a time.
  let value = "";
  let from = start + 1;
  let i = from;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 34) return { value: value + text.slice(from, i), end: i + 1 }; // "
    if (c !== 92) {
      i += 1;
      continue;
    }
    value += text.slice(from, i);
    const e = text[i + 1];
    if (e === undefined) return DECLINE;
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      value += simple;
      i += 2;
      from = i;
      continue;
    }
    const width = HEX_ESCAPES[e];
    if (width === undefined) return DECLINE;
    const hex = text.slice(i + 2, i + 2 + width);
    if (hex.length !== width || !HEX.test(hex)) return DECLINE;
    const code = Number.parseInt(hex, 16);
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return DECLINE;
    value += String.fromCodePoint(code);
    i += 2 + width;
    from = i;
  }
  return DECLINE;
}

/** `[a, "b", 'c']` on one line: scalars only, no nesting, no trailing text but a comment. */
function flowList(text: string): Maybe<unknown[]> {
  const items: unknown[] = [];
  let i = 1;
  i = skipSpaces(text, i);
  if (text[i] === "]") return AFTER_QUOTE.test(text.slice(i + 1)) ? items : DECLINE;
  for (;;) {
    i = skipSpaces(text, i);
    const c = text[i];
    if (c === '"' || c === "'") {
      const quoted = c === '"' ? doubleQuoted(text, i) : singleQuoted(text, i);
      if (quoted === DECLINE) return DECLINE;
      items.push(quoted.value);
      i = quoted.end;
    } else {
      let end = i;
      while (end < text.length && text[end] !== "," && text[end] !== "]") end += 1;
      const raw = text.slice(i, end).trimEnd();
      if (raw === "" || FLOW_INDICATORS.test(raw) || raw.includes(":") || raw.includes("#")) return DECLINE;
      const item = plainScalar(raw);
      if (item === DECLINE) return DECLINE;
      items.push(item);
      i = end;
    }
    i = skipSpaces(text, i);
    if (text[i] === ",") {
      i += 1;
      i = skipSpaces(text, i);
      if (text[i] === "]") return DECLINE;
      continue;
    }
    if (text[i] === "]") return AFTER_QUOTE.test(text.slice(i + 1)) ? items : DECLINE;
    return DECLINE;
  }
}

/** The index of the first non-space at or after `i`. */
function skipSpaces(text: string, i: number): number {
  // Bounded: reading past the end (NaN) threw the optimised flowList away ("out of bounds").
  let at = i;
  while (at < text.length && text.charCodeAt(at) === 32) at += 1;
  return at;
}

/** A `key: ` inside a flow map: a plain key, `:` and a space. */
const FLOW_KEY = /^([A-Za-z_][\w-]*): +/;

/**
 * `{ a: b, c: "d" }` on one line: plain keys each followed by `: `, scalar values (quoted, or plain without
 * flow indicators, `:` or `#`), no nesting, no trailing comma, no trailing text but a comment.
 */
function flowMap(text: string): Maybe<Record<string, unknown>> {
  const map: Record<string, unknown> = {};
  let i = 1;
  i = skipSpaces(text, i);
  if (text[i] === "}") return AFTER_QUOTE.test(text.slice(i + 1)) ? map : DECLINE;
  for (;;) {
    i = skipSpaces(text, i);
    const key = FLOW_KEY.exec(text.slice(i));
    if (key === null) return DECLINE;
    const name = key[1] as string;
    if (Object.hasOwn(map, name) || !isPlainKey(name)) return DECLINE;
    i += key[0].length;
    const c = text[i];
    if (c === '"' || c === "'") {
      const quoted = c === '"' ? doubleQuoted(text, i) : singleQuoted(text, i);
      if (quoted === DECLINE) return DECLINE;
      map[name] = quoted.value;
      i = quoted.end;
    } else {
      let end = i;
      while (end < text.length && text[end] !== "," && text[end] !== "}") end += 1;
      const raw = text.slice(i, end).trimEnd();
      if (raw === "" || FLOW_INDICATORS.test(raw) || raw.includes(":") || raw.includes("#")) return DECLINE;
      const value = plainScalar(raw);
      if (value === DECLINE) return DECLINE;
      map[name] = value;
      i = end;
    }
    i = skipSpaces(text, i);
    if (text[i] === ",") {
      i += 1;
      i = skipSpaces(text, i);
      if (text[i] === "}") return DECLINE;
      continue;
    }
    if (text[i] === "}") return AFTER_QUOTE.test(text.slice(i + 1)) ? map : DECLINE;
    return DECLINE;
  }
}

interface Nested {
  value: unknown;
  next: number;
}

/** Deepest block collection followed (a `hooks:` map of lists of maps is 3); deeper heads go to `yaml`. */
const MAX_DEPTH = 6;

/**
 * The value of a `key:` line (at `parentIndent`) with nothing after it: a block list (more indented, or at the
 * key's own indent), a more indented block map, or null when no such lines follow. Lists hold scalars and
 * compact maps (`- key: value` with more entries below it); maps hold inline values and nested collections.
 */
function nestedValue(
  lines: readonly string[],
  start: number,
  parentIndent: number,
  depth: number,
): Maybe<Nested> {
  if (depth > MAX_DEPTH) return DECLINE;
  let first = start;
  while (first < lines.length && isBlankOrComment(lines[first] as string)) first += 1;
  const head = lines[first];
  if (head === undefined) return { value: null, next: first };
  const indent = indentOf(head);
  const body = head.slice(indent);
  if ((body.startsWith("- ") || body === "-") && indent >= parentIndent) {
    return blockList(lines, first, indent, indent === parentIndent, depth);
  }
  if (indent <= parentIndent) return { value: null, next: first };
  return blockMap(lines, first, indent, undefined, depth);
}

/**
 * A block list at `indent` from `start`. `atKeyIndent`: the list sits at its key's own indent, so a `key:` line
 * there ends it (the parent's next entry); otherwise such a line is an error for `yaml` to report.
 */
function blockList(
  lines: readonly string[],
  start: number,
  indent: number,
  atKeyIndent: boolean,
  depth: number,
): Maybe<Nested> {
  const items: unknown[] = [];
  let i = start;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (isBlankOrComment(line)) {
      i += 1;
      continue;
    }
    const lineIndent = indentOf(line);
    if (lineIndent < indent) break;
    if (lineIndent > indent) return DECLINE;
    const body = line.slice(indent);
    if (!body.startsWith("- ")) {
      if (atKeyIndent && NESTED_KEY.test(body)) break;
      return DECLINE;
    }
    if (body.includes("\t")) return DECLINE;
    const rest = body.slice(2);
    // `- key: value`: a compact map, its first entry on this line and the others below it at `indent + 2`.
    if (rest.charCodeAt(0) !== 32 && NESTED_KEY.test(rest)) {
      const map = blockMap(lines, i, indent + 2, rest, depth + 1);
      if (map === DECLINE) return DECLINE;
      items.push(map.value);
      i = map.next;
      continue;
    }
    const text = rest.trim();
    if (text === "") return DECLINE;
    const item = text.startsWith('"') || text.startsWith("'") ? quotedWhole(text) : plainScalar(text);
    if (item === DECLINE) return DECLINE;
    items.push(item);
    i += 1;
  }
  return { value: items, next: i };
}

/**
 * A block map at `indent` from `start`. `firstBody`: the text of the first entry when it sits on a list item's
 * line (a compact map), not on a line of its own.
 */
function blockMap(
  lines: readonly string[],
  start: number,
  indent: number,
  firstBody: string | undefined,
  depth: number,
): Maybe<Nested> {
  if (depth > MAX_DEPTH) return DECLINE;
  const map: Record<string, unknown> = {};
  let i = start;
  let pending = firstBody;
  while (i < lines.length) {
    let body: string;
    if (pending !== undefined) {
      body = pending;
      pending = undefined;
    } else {
      const line = lines[i] as string;
      if (isBlankOrComment(line)) {
        i += 1;
        continue;
      }
      const lineIndent = indentOf(line);
      if (lineIndent < indent) break;
      if (lineIndent > indent) return DECLINE;
      body = line.slice(indent);
    }
    const match = body.includes("\t") ? null : NESTED_KEY.exec(body);
    if (match === null) return DECLINE;
    const key = match[1] as string;
    if (Object.hasOwn(map, key) || !isPlainKey(key)) return DECLINE;
    const text = (match[2] ?? "").trimEnd();
    i += 1;
    if (text === "") {
      const nested = nestedValue(lines, i, indent, depth + 1);
      if (nested === DECLINE) return DECLINE;
      map[key] = nested.value;
      i = nested.next;
      continue;
    }
    const value = BLOCK_HEADER.test(text) ? DECLINE : inlineValue(text);
    if (value === DECLINE) return DECLINE;
    map[key] = value;
  }
  return { value: map, next: i };
}

/**
 * A `|` (literal) or `>` (folded) block scalar with clip (default) or strip (`-`) chomping. Declines for an
 * explicit indentation indicator, keep chomping, tabs, more-indented lines in a folded scalar, and blank lines
 * that carry more spaces than the block's indentation.
 */
function blockScalar(
  lines: readonly string[],
  start: number,
  folded: boolean,
  strip: boolean,
): Maybe<Nested> {
  let i = start;
  let indent = 0;
  const content: string[] = [];
  while (i < lines.length) {
    const line = lines[i] as string;
    if (line.includes("\t")) return DECLINE;
    if (line.trim() === "") {
      if (indent > 0 && line.length > indent) return DECLINE;
      if (indent === 0 && line.length > 0) return DECLINE;
      content.push("");
      i += 1;
      continue;
    }
    const lineIndent = indentOf(line);
    if (indent === 0) {
      if (lineIndent === 0) break;
      indent = lineIndent;
    }
    if (lineIndent < indent) {
      if (lineIndent === 0) break;
      return DECLINE;
    }
    const text = line.slice(indent);
    if (folded && text.startsWith(" ")) return DECLINE;
    content.push(text);
    i += 1;
  }
  // Trailing blank lines belong to the chomping, not the content; with clip or strip they vanish.
  let last = content.length;
  while (last > 0 && content[last - 1] === "") last -= 1;
  const kept = content.slice(0, last);
  if (kept.length === 0) return { value: "", next: i };
  const joined = folded ? fold(kept) : kept.join("\n");
  return { value: strip ? joined : `${joined}\n`, next: i };
}

/** YAML folding for lines that are not more-indented: a single break is a space, n blank lines are n breaks. */
function fold(lines: readonly string[]): string {
  let out = "";
  let blanks = 0;
  let started = false;
  for (const line of lines) {
    if (line === "") {
      blanks += 1;
      continue;
    }
    if (!started) out += "\n".repeat(blanks);
    else out += blanks === 0 ? " " : "\n".repeat(blanks);
    out += line;
    blanks = 0;
    started = true;
  }
  return out;
}

/** Anything that might be a YAML number (`1e3`, `0x1F`, `.inf`, a huge int): left to `yaml` unless simple. */
const NUMBER_LIKE = /^[-+]?(\.?\d[\w.+-]*|\.(inf|nan))$/i;
const DOTTED_VERSION = /^\d+(\.\d+){2,}([-+][\w.-]*)?$/;
const INTEGER = /^[-+]?\d+$/;
const DECIMAL = /^[-+]?(\d+\.\d*|\.\d+)([eE][-+]?\d+)?$/;

/** YAML 1.2 core-schema resolution of a plain scalar; DECLINE for number-like text it does not handle. */
function coreScalar(value: string): Maybe<unknown> {
  switch (value) {
    case "true":
    case "True":
    case "TRUE":
      return true;
    case "false":
    case "False":
    case "FALSE":
      return false;
    case "null":
    case "Null":
    case "NULL":
    case "~":
      return null;
  }
  // Every number-like form starts with a sign, a dot or a digit.
  if (!startsLikeNumber(value)) return value;
  if (INTEGER.test(value)) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : DECLINE;
  }
  if (DECIMAL.test(value)) return Number(value);
  // Dotted versions (`1.2.3`, `0.1.0-beta`) are strings in YAML 1.2, and common enough to keep off the slow path.
  if (DOTTED_VERSION.test(value)) return value;
  return NUMBER_LIKE.test(value) ? DECLINE : value;
}

function startsLikeNumber(value: string): boolean {
  const c = value.charCodeAt(0);
  return (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46; // 0-9 + - .
}
