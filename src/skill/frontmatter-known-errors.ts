import { parseFastFrontmatter } from "./frontmatter-fast.js";

/*
 * The two YAML mistakes skill heads make most, recognised without loading the `yaml` package: a plain value
 * holding `: ` (`description: Use when: the user asks`) and a flow list left open on its line
 * (`allowed-tools: [Read, Grep`). For a head whose lines before the mistake are all inside the fast path's
 * subset, `yaml`'s first error is known in advance (its message does not depend on what follows), so the
 * caller can report it and read the head line by line, as it does after running `yaml`, without paying for
 * `yaml` (its load is most of a small discovery). test/skill/frontmatter-known-errors.test.ts checks every
 * answer against `yaml` on the real corpus and on generated heads. Anything else: undefined.
 */

/** `yaml`'s message for a plain value holding `: ` (its code BLOCK_AS_IMPLICIT_KEY). */
export const NESTED_MAPPING_MESSAGE = "Nested mappings are not allowed in compact mappings";
/** `yaml`'s message for a flow list left open at the end of its line (its code BAD_INDENT). */
export const OPEN_FLOW_LIST_MESSAGE =
  "Flow sequence in block collection must be sufficiently indented and end with a ]";

const TOP_KEY = /^[A-Za-z_][\w-]*: /;
/** A plain scalar may not start with an indicator character (as in the fast path). */
const UNSAFE_START = /^[[\]{}&*!|>'"%@`#,?:-]/;
/** The first YAML syntax inside a plain value: `:` or `#` after whitespace. */
const SYNTAX_INSIDE = /:\s|\s#/;
/**
 * An open flow list this recognises: one or more items separated by `, `, each starting with a word character
 * or `(` and holding only those, spaces and `)`, `*`, `.`, `/`, `-` (an empty item, a trailing comma, an alias
 * or a `- ` item is another error).
 */
const OPEN_FLOW_ITEMS = /^\[[\w(][\w ()*./-]*(?:, *[\w(][\w ()*./-]*)*$/;

/**
 * The first error `yaml` reports for `text` (a frontmatter block, BOM stripped) when it is one of the two
 * known mistakes after lines the fast path reads; undefined when that is not certain. Pure; never throws.
 */
export function knownYamlError(text: string): string | undefined {
  if (text.includes("\t")) return undefined;
  const lines = text.split("\n");
  // The block ends with a line break: no line after the last one.
  if (lines.at(-1) === "") lines.pop();
  for (let l = 0; l < lines.length; l += 1) {
    const line = withoutCr(lines[l] as string);
    const key = TOP_KEY.exec(line);
    if (key === null) continue;
    const value = line.slice(key[0].length).trimEnd();
    const message = mistakeIn(value, lines[l + 1]);
    if (message === undefined) continue;
    // Every line before must be read by the fast path (valid YAML, so `yaml`'s first error is this one).
    return l === 0 || parseFastFrontmatter(lines.slice(0, l).join("\n")) !== undefined ? message : undefined;
  }
  return undefined;
}

/** The message for a top-level value that is one of the known mistakes; `next` is the line after it. */
function mistakeIn(value: string, next: string | undefined): string | undefined {
  if (value.startsWith("[")) {
    // Open at the end of its line, and nothing below that could continue it (an indented or blank line).
    const closedBelow = next !== undefined && !TOP_KEY.test(withoutCr(next));
    return OPEN_FLOW_ITEMS.test(value) && !closedBelow ? OPEN_FLOW_LIST_MESSAGE : undefined;
  }
  if (UNSAFE_START.test(value)) return undefined;
  return SYNTAX_INSIDE.exec(value)?.[0] === ": " ? NESTED_MAPPING_MESSAGE : undefined;
}

function withoutCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}
