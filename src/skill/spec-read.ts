import YAML from "yaml";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { errorMessage, type FsOps } from "../io/fs.js";
import { splitFrontmatter } from "./frontmatter-core.js";

/** How the frontmatter read as the Agent Skills reference validator reads it (see {@link parseSpecText}). */
export interface SpecParseInfo {
  /** No frontmatter at all, or a `---` that never closes. */
  fence?: "missing" | "unclosed";
  /** Why the block is not YAML (a syntax error, a character YAML forbids, not a mapping). */
  yamlError?: string;
  /** The messages for keys written twice. */
  duplicateKeys?: readonly string[];
  /** The file starts with a UTF-8 byte order mark. */
  bom?: boolean;
  /** The file's bytes are not valid UTF-8. */
  invalidUtf8?: boolean;
}

/** A SKILL.md read as the specification reads it: the frontmatter's data and how it parsed. */
export interface SpecFile {
  /** The frontmatter as YAML's failsafe schema gives it: every scalar is text, as in the reference validator. */
  data: Record<string, unknown>;
  parse: SpecParseInfo;
}

/** How much of a file the spec reads: the frontmatter must lie within it. */
export const SPEC_READ_BYTES = 4_000_000;

const BOM = "\uFEFF";

/**
 * Characters YAML does not allow in a stream (the YAML 1.2 character set: C0 controls but tab, LF and CR; DEL; C1 controls
 * but NEL; U+FFFE/U+FFFF). The reference validator's YAML parsers refuse a frontmatter that holds one.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const NOT_YAML_PRINTABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u0084\u0086-\u009F\uFFFE\uFFFF]/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function firstLine(text: string): string {
  return text.split("\n")[0] ?? text;
}

/**
 * Parses a SKILL.md's text as the Agent Skills reference validator (`skills-ref`) does, where the two reference
 * implementations (Python, npm) agree or the Python one decides: the frontmatter between `---` lines, YAML with
 * every scalar read as text (`name: 123` is the text "123", as strictyaml gives it), a key written twice, a
 * character YAML forbids, or a block that is not a mapping all refused. A BOM is noted and stripped (the
 * reference refuses such a file: the text does not start with `---`). Pure; never throws.
 */
export function parseSpecText(text: string, invalidUtf8 = false): SpecFile {
  const parse: SpecParseInfo = {};
  if (text.startsWith(BOM)) parse.bom = true;
  if (invalidUtf8) parse.invalidUtf8 = true;
  const split = splitFrontmatter(text);
  if (split.frontmatter === undefined) {
    parse.fence = split.unclosed ? "unclosed" : "missing";
    return { data: {}, parse };
  }
  const block = split.frontmatter;
  const bad = NOT_YAML_PRINTABLE.exec(block);
  if (bad !== null) {
    const code = bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
    parse.yamlError = `it holds U+${code}, a control character YAML does not allow`;
    return { data: {}, parse };
  }
  try {
    const doc = YAML.parseDocument(block, {
      schema: "failsafe",
      uniqueKeys: true,
      prettyErrors: false,
      logLevel: "error",
    });
    const error = doc.errors.find((e) => e.code !== "DUPLICATE_KEY");
    if (error !== undefined) {
      parse.yamlError = firstLine(error.message);
      return { data: {}, parse };
    }
    const duplicates = doc.errors.map((e) => firstLine(e.message));
    if (duplicates.length > 0) parse.duplicateKeys = duplicates;
    const value: unknown = doc.toJS();
    if (value === null || value === undefined || value === "") return { data: {}, parse };
    if (!isPlainObject(value)) {
      parse.yamlError = "the frontmatter must be a mapping of keys";
      return { data: {}, parse };
    }
    return { data: value, parse };
  } catch (error) {
    parse.yamlError = firstLine(errorMessage(error));
    return { data: {}, parse };
  }
}

/**
 * Reads a SKILL.md as the specification does ({@link parseSpecText}): the whole file when it is at most
 * {@link SPEC_READ_BYTES} (its bytes checked as UTF-8), else that many bytes cut to whole lines. Never throws:
 * a failed read is a `file-unreadable` error.
 */
export async function readSpecFile(fs: FsOps, path: string): Promise<SpecFile | Diagnostic> {
  try {
    const head = await fs.readHead(path, SPEC_READ_BYTES);
    if (!head.complete) return parseSpecText(head.text.slice(0, head.text.lastIndexOf("\n") + 1));
    const bytes = await fs.readBytes(path);
    try {
      return parseSpecText(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes));
    } catch {
      return parseSpecText(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes), true);
    }
  } catch (error) {
    return diagnostic("error", "file-unreadable", errorMessage(error), path);
  }
}
