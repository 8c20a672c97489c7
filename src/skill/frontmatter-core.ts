import type YAML from "yaml";
import { parseFastFrontmatter } from "./frontmatter-fast.js";
import { knownYamlError } from "./frontmatter-known-errors.js";

/*
 * Frontmatter splitting and parsing without a static import of the `yaml` package: the fences, the fast path
 * (frontmatter-fast.ts), the lenient fallback, and the YAML step with the parser passed in or loaded lazily.
 * `frontmatter.ts` binds the parser eagerly for synchronous callers.
 */

/** A file split at its frontmatter fences. */
export interface SplitFile {
  /** The text between the fences; undefined when there is no (closed) frontmatter. */
  frontmatter: string | undefined;
  body: string;
  /** True when the file opened a `---` fence that never closed (the whole file is then the body). */
  unclosed: boolean;
}

const BOM = "\uFEFF";
const OPEN_FENCE = /^---[ \t]*\r?\n/;

/** Splits a skill file: BOM stripped, CRLF accepted, an unclosed `---` means no frontmatter. Pure. */
export function splitFrontmatter(text: string): SplitFile {
  const source = text.startsWith(BOM) ? text.slice(1) : text;
  const open = OPEN_FENCE.exec(source);
  if (open === null) return { frontmatter: undefined, body: source, unclosed: false };
  const rest = source.slice(open[0].length);
  const close = closeFence(rest);
  // A fence after a lone `\r` (or U+2028/9) is at a line start only for JS's multiline `^`: not a real one.
  if (close === undefined || (close.index > 0 && rest[close.index - 1] !== "\n")) {
    return { frontmatter: undefined, body: source, unclosed: true };
  }
  const frontmatter = rest.slice(0, close.index);
  let bodyStart = close.index + close.length;
  if (rest[bodyStart] === "\n") bodyStart += 1;
  return { frontmatter, body: rest.slice(bodyStart), unclosed: false };
}

/** `\n`, `\r`, U+2028, U+2029: what ends a line for a multiline regex. */
function isLineTerminator(code: number): boolean {
  return code === 10 || code === 13 || code === 0x2028 || code === 0x2029;
}

/**
 * The first match of `/^---[ \t]*\r?$/m` in `text` (index and length), found with `indexOf` instead of the
 * regex trying every line start: `---` at a line start, spaces or tabs, an optional `\r`, then a line end.
 */
function closeFence(text: string): { index: number; length: number } | undefined {
  for (let p = text.indexOf("---"); p !== -1; p = text.indexOf("---", p + 1)) {
    if (p > 0 && !isLineTerminator(text.charCodeAt(p - 1))) continue;
    let q = p + 3;
    while (text.charCodeAt(q) === 32 || text.charCodeAt(q) === 9) q += 1;
    if (q === text.length) return { index: p, length: q - p };
    const code = text.charCodeAt(q);
    if (code === 13) {
      const after = q + 1;
      // `\r?` takes the `\r` when a line end follows it; else `$` matches before the `\r` itself.
      const takesCr = after === text.length || isLineTerminator(text.charCodeAt(after));
      return { index: p, length: (takesCr ? after : q) - p };
    }
    if (isLineTerminator(code)) return { index: p, length: q - p };
  }
  return undefined;
}

/** How the frontmatter was parsed. */
export type ParseMode = "fast" | "yaml" | "lenient";

export interface ParsedFrontmatter {
  data: Record<string, unknown>;
  mode: ParseMode;
  /** Why `yaml` failed when the lenient parser was used. */
  yamlError?: string;
  /** `yaml`'s messages for keys written twice (the last value is used). */
  duplicateKeys?: string[];
}

/**
 * The fallback when `yaml` fails: `key: value` where the value is everything after the first `: `, plus
 * indented `- item` lines after an empty value as a list, and the indented lines of a `|` / `>` block scalar
 * as its text (joined with newlines, or spaces when folded). Never fails.
 */
export function parseLenient(text: string): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  let listKey: string | undefined;
  let block: { key: string; folded: boolean; lines: string[] } | undefined;
  const closeBlock = () => {
    if (block !== undefined) data[block.key] = block.lines.join(block.folded ? " " : "\n").trim();
    block = undefined;
  };
  for (const rawLine of text.split("\n")) {
    const line = rawLine.endsWith("\r") ? rawLine.slice(0, -1) : rawLine;
    // The indented lines of a `|` or `>` block scalar belong to it (blank lines too).
    if (block !== undefined && (line.trim() === "" || /^\s/.test(line))) {
      block.lines.push(line.trim());
      continue;
    }
    closeBlock();
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const item = /^\s+-\s+(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line);
    if (item !== null && listKey !== undefined) {
      const list = data[listKey];
      const value = unquote((item[1] as string).trim());
      if (Array.isArray(list)) list.push(value);
      else data[listKey] = [value];
      continue;
    }
    const match = /^([A-Za-z_][\w-]*):(?:\s+(.*))?$/.exec(line);
    if (match === null) continue;
    const key = match[1] as string;
    const value = (match[2] ?? "").trim();
    listKey = value === "" ? key : undefined;
    const indicator = BLOCK_SCALAR.exec(value);
    if (indicator !== null) {
      block = { key, folded: indicator[1] === ">", lines: [] };
      continue;
    }
    data[key] = value === "" ? "" : unquote(value);
  }
  closeBlock();
  return data;
}

/** A block scalar indicator: `|` or `>`, optional chomping (`-`, `+`) and indentation digit, optional comment. */
const BLOCK_SCALAR = /^([|>])[-+]?\d?[-+]?(\s+#.*)?$/;

function unquote(value: string): string {
  if (value.length >= 2) {
    const first = value[0];
    if ((first === '"' || first === "'") && value.endsWith(first)) return value.slice(1, -1);
  }
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The part of the `yaml` package the YAML step uses; {@link parseFrontmatterWith} takes it as an argument. */
export type YamlParser = Pick<typeof YAML, "parseDocument">;

/**
 * Parses frontmatter text: the fast path for the subset real heads use, `yaml` (the given parser) for anything
 * else, the lenient line parser when `yaml` fails or yields a non-object. A key written twice keeps its last
 * value and is reported in `duplicateKeys`. Never throws.
 */
export function parseFrontmatterWith(text: string, yaml: YamlParser): ParsedFrontmatter {
  return parseSimpleFrontmatter(text) ?? parseYaml(text, yaml);
}

/**
 * Without `yaml`: the fast path (frontmatter-fast.ts) when the text stays inside the subset it handles, else
 * the result `yaml` would lead to for a known mistake (frontmatter-known-errors.ts: `yaml`'s error, the lenient
 * reading); undefined when the text needs the `yaml` parser. Pure.
 */
export function parseSimpleFrontmatter(text: string): ParsedFrontmatter | undefined {
  const simple = parseFastFrontmatter(text);
  if (simple !== undefined) return { data: simple, mode: "fast" };
  const yamlError = knownYamlError(text);
  return yamlError === undefined ? undefined : { data: parseLenient(text), mode: "lenient", yamlError };
}

/**
 * {@link parseFrontmatterWith} that loads the `yaml` package only when a frontmatter block needs it (most are
 * simple `key: value` lines, and loading `yaml` is a noticeable share of a short command's start-up).
 * Same results; never rejects for bad content.
 */
export async function parseFrontmatterLazily(
  text: string,
  loadYaml: () => Promise<YamlParser> = importYaml,
): Promise<ParsedFrontmatter> {
  return parseSimpleFrontmatter(text) ?? parseYaml(text, await loadYaml());
}

/**
 * A loader of `yaml` that imports it on its first call and hands back the same parser afterwards. Each
 * `import()` goes through the ESM loader's resolution even when the module is loaded already (~0.6 ms a call):
 * a discovery that sends 300 heads to `yaml` spent 190 ms there. One per discovery (no module state).
 */
export function lazyYaml(): () => Promise<YamlParser> {
  let loading: Promise<YamlParser> | undefined;
  return () => {
    loading ??= importYaml();
    return loading;
  };
}

/**
 * Loads `yaml` on demand. It is CommonJS under Node: Node's own loader gives it named exports, but a bundler's
 * dynamic import of CommonJS (esbuild, which builds dist/bin) yields only `default`. Accept both.
 */
async function importYaml(): Promise<YamlParser> {
  const loaded: { parseDocument?: YamlParser["parseDocument"]; default?: YamlParser } = await import("yaml");
  if (loaded.parseDocument !== undefined) return { parseDocument: loaded.parseDocument };
  if (loaded.default !== undefined) return loaded.default;
  throw new Error("the yaml package has no parseDocument");
}

function parseYaml(text: string, yaml: YamlParser): ParsedFrontmatter {
  let parsed: unknown;
  let duplicates: string[] = [];
  try {
    // `logLevel: "error"`: YAML warnings about user content (unknown tags) must not reach the process's stderr.
    const doc = yaml.parseDocument(text, { uniqueKeys: true, prettyErrors: false, logLevel: "error" });
    const error = doc.errors.find((e) => e.code !== "DUPLICATE_KEY");
    if (error !== undefined) {
      return { data: parseLenient(text), mode: "lenient", yamlError: firstLine(error.message) };
    }
    duplicates = doc.errors.map((e) => firstLine(e.message));
    parsed = doc.toJS();
  } catch (error) {
    const message = error instanceof Error ? firstLine(error.message) : String(error);
    return { data: parseLenient(text), mode: "lenient", yamlError: message };
  }
  if (parsed === null || parsed === undefined) return { data: {}, mode: "yaml" };
  if (!isPlainObject(parsed)) {
    return { data: parseLenient(text), mode: "lenient", yamlError: "frontmatter is not a mapping of keys" };
  }
  return duplicates.length === 0
    ? { data: parsed, mode: "yaml" }
    : { data: parsed, mode: "yaml", duplicateKeys: duplicates };
}

function firstLine(text: string): string {
  return text.split("\n")[0] ?? text;
}
