/**
 * A piece of a skill body: plain text, or an inline shell marker. `marker` is the marker exactly as written
 * (`` !`cmd` `` or the whole ```` ```! ```` … ```` ``` ```` block) and `command` the command inside it, as written.
 */
export type BodyRegion =
  | { kind: "text"; text: string }
  | { kind: "shell"; form: "inline" | "block"; marker: string; command: string };

/** `` !`cmd` `` at the start of the text or after whitespace; one line, no backtick inside. */
const INLINE_MARKER = /(?<!\S)!`([^`\n]+)`/g;

/** A fence line opening a shell block: optional indentation, ```` ```! ````, optionally the first command text. */
const BLOCK_OPENER = /^([ \t]*)```!(.*)$/;

/** A line closing a fenced block. */
const BLOCK_CLOSER = /^[ \t]*```[ \t]*$/;

interface Span {
  start: number;
  end: number;
  form: "inline" | "block";
  command: string;
}

/** Start offsets of every line of `text` (a `\r` before `\n` stays at the end of its line). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

function lineAt(text: string, starts: readonly number[], index: number): string {
  const start = starts[index] ?? text.length;
  const next = starts[index + 1];
  return text.slice(start, next === undefined ? text.length : next - 1).replace(/\r$/, "");
}

function findBlocks(body: string): Span[] {
  const starts = lineStarts(body);
  const blocks: Span[] = [];
  for (let i = 0; i < starts.length; i++) {
    const opener = BLOCK_OPENER.exec(lineAt(body, starts, i));
    if (opener === null) continue;
    let close = i + 1;
    while (close < starts.length && !BLOCK_CLOSER.test(lineAt(body, starts, close))) close++;
    if (close >= starts.length) break; // Unclosed: not a shell block, and nothing after it can close one.
    const first = (opener[2] ?? "").trim();
    const lines: string[] = [];
    for (let j = i + 1; j < close; j++) lines.push(lineAt(body, starts, j));
    const command = [...(first === "" ? [] : [first]), ...lines].join("\n");
    const closing = lineAt(body, starts, close);
    const start = (starts[i] ?? 0) + (opener[1] ?? "").length;
    const end = (starts[close] ?? 0) + closing.length;
    if (command.trim() !== "") blocks.push({ start, end, form: "block", command });
    i = close;
  }
  return blocks;
}

function findSpans(body: string): Span[] {
  const blocks = findBlocks(body);
  const spans = [...blocks];
  for (const match of body.matchAll(INLINE_MARKER)) {
    const start = match.index;
    const end = start + match[0].length;
    const command = match[1] ?? "";
    if (command.trim() === "") continue;
    if (blocks.some((b) => start < b.end && end > b.start)) continue;
    spans.push({ start, end, form: "inline", command });
  }
  return spans.sort((a, b) => a.start - b.start);
}

/**
 * Splits a body into text and inline shell regions, in document order (SPEC §5): `` !`cmd` `` at line start or
 * after whitespace (one line, non-blank), and fenced blocks whose opening fence line starts with ```` ```! ````
 * and that are closed by a ```` ``` ```` line (an unclosed or blank block stays text). A marker inside a shell
 * block belongs to the block. Adjacent text is never split; empty text regions are left out. Pure.
 */
export function splitShellRegions(body: string): BodyRegion[] {
  const regions: BodyRegion[] = [];
  let last = 0;
  for (const span of findSpans(body)) {
    if (span.start > last) regions.push({ kind: "text", text: body.slice(last, span.start) });
    regions.push({
      kind: "shell",
      form: span.form,
      marker: body.slice(span.start, span.end),
      command: span.command,
    });
    last = span.end;
  }
  if (last < body.length) regions.push({ kind: "text", text: body.slice(last) });
  return regions;
}

/** True when the body holds at least one inline shell marker (an unsafe property for auto-allow, SPEC §4). */
export function hasInlineShell(body: string): boolean {
  return splitShellRegions(body).some((region) => region.kind === "shell");
}
