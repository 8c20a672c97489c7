/** The quoting a shell applies at a point in a command: none, `"…"`, `'…'` or `$'…'`. */
export type ShellContext = "unquoted" | "double" | "single" | "ansi";

type Frame =
  | { kind: "top" }
  | { kind: "single" }
  | { kind: "ansi" }
  | { kind: "double" }
  | { kind: "subshell"; depth: number; arithmetic: boolean }
  | { kind: "backtick" }
  | { kind: "brace" };

/** Characters after which a `#` starts a comment (besides the start of the text); they also end a word. */
const WORD_BREAKS = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"]);

/** A heredoc whose body starts at the next unquoted newline. */
interface PendingHeredoc {
  delimiter: string;
  /** `<<-`: leading tabs are stripped from body lines. */
  stripTabs: boolean;
  /** The delimiter was quoted: the body is literal. */
  quoted: boolean;
}

/** Reads the operator and delimiter word of a heredoc at `start` (which points at `<<`). */
function readHeredoc(text: string, start: number): { heredoc: PendingHeredoc; end: number } {
  let i = start + 2;
  const stripTabs = text.charAt(i) === "-";
  if (stripTabs) i++;
  while (text.charAt(i) === " " || text.charAt(i) === "\t") i++;
  let delimiter = "";
  let quoted = false;
  let quote = "";
  for (; i < text.length; i++) {
    const ch = text.charAt(i);
    if (quote !== "") {
      if (ch === quote) quote = "";
      else delimiter += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      quoted = true;
    } else if (ch === "\\") {
      quoted = true;
      delimiter += text.charAt(i + 1);
      i++;
    } else if (WORD_BREAKS.has(ch)) {
      break;
    } else {
      delimiter += ch;
    }
  }
  return { heredoc: { delimiter, stripTabs, quoted }, end: i };
}

/**
 * Skips the bodies of `pending` heredocs, which start at `start` (just after a newline). Returns where scanning
 * goes on, or the context when `text` ends inside a body: an unquoted delimiter expands like double quotes; a
 * quoted one is literal text, where a pasted reference is left for whatever reads the body.
 */
function skipHeredocBodies(
  text: string,
  start: number,
  pending: readonly PendingHeredoc[],
): { next: number } | { context: ShellContext } {
  let i = start;
  for (const heredoc of pending) {
    for (;;) {
      const newline = text.indexOf("\n", i);
      if (newline === -1) return { context: heredoc.quoted ? "unquoted" : "double" };
      const line = text.slice(i, newline).replace(/\r$/, "");
      i = newline + 1;
      if ((heredoc.stripTabs ? line.replace(/^\t+/, "") : line) === heredoc.delimiter) break;
    }
  }
  return { next: i };
}

function atWordStart(text: string, index: number): boolean {
  return index === 0 || WORD_BREAKS.has(text.charAt(index - 1));
}

function contextOf(stack: readonly Frame[]): ShellContext {
  for (let i = stack.length - 1; i >= 0; i--) {
    const frame = stack[i];
    if (frame === undefined || frame.kind === "brace") continue;
    if (frame.kind === "single" || frame.kind === "ansi" || frame.kind === "double") return frame.kind;
    return "unquoted";
  }
  return "unquoted";
}

/**
 * The quoting context at the end of `prefix`, a shell command cut at the point where text will be pasted.
 * Tracks `'…'`, `"…"`, `$'…'`, backslash escapes, `$(…)` and backticks (which start an unquoted context, even
 * inside double quotes), `${…}` (inherits its surroundings), `#` comments and heredoc bodies (`<<`, `<<-`,
 * quoted or not). `case` patterns inside `$(…)`, `((x << 1))` and other rare forms may be misread: callers must
 * paste only text that is safe in every context (see `variableReference`), so a misreading affects word
 * splitting, never safety. Pure; never throws.
 */
export function shellContextAt(prefix: string): ShellContext {
  const stack: Frame[] = [{ kind: "top" }];
  const pending: PendingHeredoc[] = [];
  let i = 0;
  while (i < prefix.length) {
    const frame = stack[stack.length - 1] ?? { kind: "top" };
    const ch = prefix.charAt(i);
    const next = prefix.charAt(i + 1);
    if (frame.kind === "single") {
      if (ch === "'") stack.pop();
      i++;
      continue;
    }
    if (frame.kind === "ansi") {
      if (ch === "'") stack.pop();
      i += ch === "\\" ? 2 : 1;
      continue;
    }
    if (ch === "\\") {
      i += 2;
      continue;
    }
    if (ch === "$" && next === "(") {
      stack.push({ kind: "subshell", depth: 0, arithmetic: prefix.charAt(i + 2) === "(" });
      i += 2;
      continue;
    }
    if (ch === "$" && next === "{") {
      stack.push({ kind: "brace" });
      i += 2;
      continue;
    }
    if (ch === "`") {
      if (frame.kind === "backtick") stack.pop();
      else stack.push({ kind: "backtick" });
      i++;
      continue;
    }
    if (frame.kind === "double") {
      if (ch === '"') stack.pop();
      i++;
      continue;
    }
    // Unquoted-like frames: top, subshell, backtick, brace.
    if (ch === "\n" && pending.length > 0) {
      const skipped = skipHeredocBodies(prefix, i + 1, pending);
      if ("context" in skipped) return skipped.context;
      pending.length = 0;
      i = skipped.next;
      continue;
    }
    const inArithmetic = frame.kind === "subshell" && frame.arithmetic;
    if (ch === "<" && next === "<" && prefix.charAt(i + 2) !== "<" && !inArithmetic) {
      const read = readHeredoc(prefix, i);
      pending.push(read.heredoc);
      i = read.end;
      continue;
    }
    if (ch === "'") stack.push({ kind: "single" });
    else if (ch === '"') stack.push({ kind: "double" });
    else if (ch === "$" && next === "'") {
      stack.push({ kind: "ansi" });
      i++;
    } else if (frame.kind === "subshell" && ch === "(") frame.depth++;
    else if (frame.kind === "subshell" && ch === ")") {
      if (frame.depth === 0) stack.pop();
      else frame.depth--;
    } else if (frame.kind === "brace" && ch === "}") stack.pop();
    else if (ch === "#" && frame.kind !== "brace" && atWordStart(prefix, i)) {
      const end = prefix.indexOf("\n", i);
      if (end === -1) return "unquoted";
      i = end;
      continue;
    }
    i++;
  }
  return contextOf(stack);
}
