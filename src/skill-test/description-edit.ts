import { isDeepStrictEqual } from "node:util";
import { parseFrontmatter } from "../skill/frontmatter.js";
import { splitFrontmatter } from "../skill/frontmatter-core.js";

/** A SKILL.md with its description replaced, or why it could not be. */
export type DescriptionEdit = { ok: true; text: string } | { ok: false; reason: string };

const BOM = "\uFEFF";
const OPEN_FENCE = /^---[ \t]*\r?\n/;
const DESCRIPTION_KEY = /^description[ \t]*:/;

/** The lines of `text`, each with its own line end. */
function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** `description` as one YAML scalar: plain when it reads back the same, else double-quoted (JSON is valid YAML). */
function scalars(description: string): string[] {
  return [description, JSON.stringify(description)];
}

function withoutDescription(data: Record<string, unknown>): Record<string, unknown> {
  const { description: _dropped, ...rest } = data;
  return rest;
}

/**
 * `text` (a SKILL.md) with the frontmatter's `description:` set to `description` (one line), every other byte
 * kept: the key's old value lines (an indented continuation or block scalar included) become one line; a file
 * without the key gets it after `name:` (else at the end of the frontmatter); a file without frontmatter gets
 * one. Refused when the frontmatter is unclosed, holds `description:` twice, or would read back differently
 * (any other key changed, or the description not read back as given). Pure.
 */
export function withDescription(text: string, description: string): DescriptionEdit {
  if (/[\r\n]/.test(description)) return { ok: false, reason: "the description must be one line" };
  const bom = text.startsWith(BOM) ? BOM : "";
  const source = text.slice(bom.length);
  const split = splitFrontmatter(source);
  if (split.unclosed) return { ok: false, reason: "its frontmatter has no closing ---" };
  const eol = source.includes("\r\n") ? "\r\n" : "\n";
  if (split.frontmatter === undefined) {
    return checked(bom, "", "", source, {}, (line) => `---${eol}${line}${eol}---${eol}`, description);
  }
  const open = OPEN_FENCE.exec(source)?.[0] ?? "";
  const frontmatter = split.frontmatter;
  const after = source.slice(open.length + frontmatter.length);
  const lines = linesOf(frontmatter);
  const keyLines = lines.flatMap((line, i) => (DESCRIPTION_KEY.test(line) ? [i] : []));
  if (keyLines.length > 1) return { ok: false, reason: "its frontmatter gives description: twice" };
  const before = parseFrontmatter(frontmatter).data;
  const [at] = keyLines;
  let head: string[];
  let tail: string[];
  let lineEnd = eol;
  if (at === undefined) {
    const nameLine = lines.findIndex((line) => /^name[ \t]*:/.test(line));
    const cut = nameLine === -1 ? lines.length : nameLine + 1;
    head = lines.slice(0, cut);
    tail = lines.slice(cut);
    const last = head.at(-1);
    if (last !== undefined && !last.endsWith("\n")) head = [...head.slice(0, -1), `${last}${eol}`];
  } else {
    // The value goes on over indented lines, and over blank lines that more indented lines follow.
    let end = at + 1;
    for (let i = at + 1; i < lines.length; i++) {
      const line = lines[i] ?? "";
      if (/^[ \t]/.test(line) && line.trim() !== "") end = i + 1;
      else if (line.trim() !== "") break;
    }
    head = lines.slice(0, at);
    tail = lines.slice(end);
    const last = lines[end - 1] ?? "";
    lineEnd = last.endsWith("\r\n") ? "\r\n" : last.endsWith("\n") ? "\n" : "";
  }
  return checked(
    bom,
    `${open}${head.join("")}`,
    `${tail.join("")}${after}`,
    "",
    before,
    (line) => `${line}${lineEnd}`,
    description,
  );
}

function checked(
  bom: string,
  prefix: string,
  suffix: string,
  body: string,
  before: Record<string, unknown>,
  wrap: (line: string) => string,
  description: string,
): DescriptionEdit {
  for (const scalar of scalars(description)) {
    const text = `${bom}${prefix}${wrap(`description: ${scalar}`)}${suffix}${body}`;
    const frontmatter = splitFrontmatter(text.slice(bom.length)).frontmatter;
    if (frontmatter === undefined) continue;
    const { data, mode } = parseFrontmatter(frontmatter);
    if (mode === "lenient") continue;
    if (
      data.description === description &&
      isDeepStrictEqual(withoutDescription(data), withoutDescription(before))
    ) {
      return { ok: true, text };
    }
  }
  return { ok: false, reason: "the new frontmatter would not read back with only the description changed" };
}
