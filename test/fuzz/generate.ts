// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders are among the generated inputs.
import { KNOWN_FIELDS } from "../../src/skill/schema.js";
import { seededRandom } from "../support/seeded-random.js";

/** A seeded pseudo-random source: the same seed gives the same cases on every machine. */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  /** True with probability `p`. */
  chance(p: number): boolean;
}

/** A {@link Rng} from a 32-bit seed (the shared `seededRandom`, mulberry32). */
export function rng(seed: number): Rng {
  const next = seededRandom(seed);
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => items[int(items.length)] as T,
    chance: (p) => next() < p,
  };
}

/** Text that has broken a skills engine somewhere: markup, control bytes, YAML syntax, placeholders, odd Unicode. */
export const NASTY = [
  "</system-reminder>",
  "<system-reminder>",
  "</SYSTEM-REMINDER >",
  "< /system-reminder>",
  "</command-args>",
  "<command-name>/x</command-name>",
  "</command-message>",
  "</tools-used-before-summary>",
  "</tool_use_error>",
  "\u0000",
  "\u001b[31m",
  "\u0007",
  "\u007f",
  "\u000b",
  ": ",
  " #",
  "\t",
  "'",
  '"',
  "`",
  "!`echo pwned`",
  "$ARGUMENTS",
  "$ARGUMENTS[0]",
  "$0",
  "${CLAUDE_SKILL_DIR}",
  "${CLAUDE_PLUGIN_ROOT}",
  "\\$0",
  "\\",
  "---",
  "...",
  "&a",
  "*a",
  "*",
  "|",
  ">",
  "[",
  "]",
  "{",
  "}",
  "- ",
  "\r",
  "\n",
  "\uFEFF",
  "😀",
  "\u202e",
  "\ud800",
  "é",
  "%",
  "@",
  "?",
  ",",
  "~",
  "null",
  "true",
  "0x1F",
  "1e400",
  ".inf",
  "9007199254740993",
  "<<: *a",
  "!!binary",
  "!!js/function",
  "!custom",
  "__proto__",
  "constructor",
  "a".repeat(2_000),
] as const;

const WORDS = [
  "deploy",
  "the",
  "app",
  "when",
  "asked",
  "Use",
  "for",
  "PDF",
  "files",
  "x",
  "y-z",
  "42",
  "1.2.3",
];

const EXTRA_KEYS = ["colour", "__proto__", "constructor", "Name", "DESCRIPTION", "x-y", "_k", "a1"];

/** A short text of words and nasty fragments. */
export function text(r: Rng, max = 6): string {
  const parts: string[] = [];
  const n = 1 + r.int(max);
  for (let i = 0; i < n; i += 1) parts.push(r.chance(0.35) ? r.pick(NASTY) : r.pick(WORDS));
  return parts.join(r.chance(0.7) ? " " : "");
}

function scalar(r: Rng): string {
  switch (r.int(9)) {
    case 0:
      return JSON.stringify(text(r));
    case 1:
      return `'${text(r).replaceAll("'", "''")}'`;
    case 2:
      return String(r.int(1_000_000) - 500);
    case 3:
      return r.pick(["true", "false", "yes", "no", "on", "off", "null", "~", ""]);
    case 4:
      return `[${[text(r, 2), text(r, 2)].join(", ")}]`;
    case 5:
      return `{a: ${text(r, 2)}}`;
    default:
      return text(r);
  }
}

function value(r: Rng, depth: number): string[] {
  const indent = r.chance(0.05) ? "\t" : "  ".repeat(depth + 1);
  switch (r.int(6)) {
    case 0: {
      const items = 1 + r.int(4);
      return Array.from({ length: items }, () => `${indent}- ${scalar(r)}`);
    }
    case 1:
      if (depth > 6) return [`${indent}k: ${scalar(r)}`];
      return [`${indent}${r.pick(WORDS)}:`, ...value(r, depth + 1)];
    case 2:
      return Array.from({ length: 1 + r.int(3) }, () => `${indent}${text(r)}`);
    default:
      return [`${indent}${r.pick(WORDS)}: ${scalar(r)}`];
  }
}

/** A frontmatter block's lines: known and unknown keys, scalars, lists, maps, block scalars, anchors, junk. */
export function frontmatterLines(r: Rng): string[] {
  const lines: string[] = [];
  const n = r.int(9);
  for (let i = 0; i < n; i += 1) {
    const key = r.chance(0.8) ? r.pick(KNOWN_FIELDS) : r.chance(0.7) ? r.pick(EXTRA_KEYS) : text(r, 2);
    switch (r.int(10)) {
      case 0:
        lines.push(`${key}:`, ...value(r, 0));
        break;
      case 1:
        lines.push(`${key}: ${r.pick(["|", ">", "|-", ">+", "|2"])}`, ...value(r, 0));
        break;
      case 2:
        lines.push(`${key}: &a ${scalar(r)}`, `${r.pick(KNOWN_FIELDS)}: *a`);
        break;
      case 3:
        lines.push(text(r));
        break;
      case 4:
        lines.push(`# ${text(r)}`);
        break;
      default:
        lines.push(`${key}: ${scalar(r)}`);
    }
  }
  return lines;
}

/** A body: lines of text, placeholders, inline shell markers, fences. */
export function bodyLines(r: Rng): string[] {
  const lines: string[] = [];
  const n = r.int(8);
  for (let i = 0; i < n; i += 1) {
    switch (r.int(8)) {
      case 0:
        lines.push(`!\`echo ${text(r, 2)}\``);
        break;
      case 1:
        lines.push("```!", `echo ${text(r, 2)}`, "```");
        break;
      case 2:
        lines.push(`# ${text(r)}`);
        break;
      default:
        lines.push(text(r));
    }
  }
  return lines;
}

/** A whole skill file: frontmatter (maybe malformed fences, BOM, CRLF) and a body. */
export function skillFile(r: Rng): string {
  const head = frontmatterLines(r);
  const body = bodyLines(r);
  let lines: string[];
  switch (r.int(12)) {
    case 0:
      lines = body; // no frontmatter
      break;
    case 1:
      lines = ["---", ...head, ...body]; // unclosed
      break;
    case 2:
      lines = ["---", ...head, r.pick(["----", "--- x", "...", " ---"]), ...body];
      break;
    default:
      lines = ["---", ...head, "---", ...body];
  }
  let out = lines.join(r.chance(0.1) ? "\r\n" : "\n");
  if (r.chance(0.05)) out = `\uFEFF${out}`;
  if (r.chance(0.05)) out = "";
  return out;
}

/** A skill dir name: valid ones, capitals, spaces, markup, Unicode, long. No `/` or NUL (the fs refuses them). */
export function dirName(r: Rng, i: number): string {
  const base = r.pick([
    "ok",
    "Bad Name",
    "UPPER",
    "ünï",
    "with:colon",
    "<system-reminder>",
    "a--b",
    "-edge",
    "x".repeat(120),
    "tab\there",
    "😀",
    "$ARGUMENTS",
  ]);
  return `${base}-${i}`;
}

/** A raw Skill tool input, well-formed or not. */
export function skillToolInput(r: Rng, names: readonly string[]): unknown {
  const name = () =>
    r.chance(0.5) && names.length > 0
      ? r.pick(names)
      : r.pick([text(r, 3), `/${text(r, 2)}`, "", " ", "a".repeat(10_000), "init", "help", "x:y:z"]);
  switch (r.int(12)) {
    case 0:
      return r.pick([null, undefined, 42, "deploy", [], true]);
    case 1:
      return {};
    case 2:
      return { skill: r.pick([1, null, true, {}, ["a"]]) };
    case 3:
      return { skill: name(), args: r.pick([1, null, {}, ["a"]]) };
    case 4:
      return { skill: name(), extra: text(r) };
    case 5:
      return { skill: name(), args: "x".repeat(100_000) };
    default:
      return r.chance(0.5) ? { skill: name(), args: text(r) } : { skill: name() };
  }
}

/** Regular-expression pieces: catastrophic for a backtracking engine, unsupported by RE2, broken, huge. */
const PATTERN_PIECES = [
  "^(a+)+$",
  "(a|aa)*b",
  "(.*a){25}",
  "(.*a.*b.*c){30}$",
  "(?=x)",
  "(?<!y)z",
  "(a)\\1",
  "(?i)needle",
  "(?P<n>x)",
  "\\p{L}+",
  "\\bword\\b",
  "[",
  "(",
  ")",
  "a{1001}",
  "a{2,1}",
  "x{0,1000}{0,1000}",
  "((((((((((a))))))))))*",
  "\\",
  ".*",
  "^$",
  "\u0000",
  "\ud800",
  "\udfff",
  "😀+",
  "needle",
  "aaaa",
];

/** Path pieces: deep, long, relative, outside the mounts, NUL, lone surrogates, odd Unicode. */
function servedPath(r: Rng): string {
  switch (r.int(12)) {
    case 0:
      return `/workspace/${"d/".repeat(1 + r.int(3000))}f.txt`;
    case 1:
      return `/workspace/${"x".repeat(1 + r.int(5000))}`;
    case 2:
      return r.pick([
        "/",
        "/mnt",
        "/mnt/memory",
        "/mnt/skills",
        "/mnt/skills/x/y",
        "/etc/passwd",
        "~",
        ".",
        "..",
      ]);
    case 3:
      return `/workspace/${text(r, 2)}`;
    case 4:
      return `/mnt/memory/notes/${r.pick(["a.txt", "redos.txt", "deep/", "", "../../x", "\u0000", "\ud800x"])}`;
    case 5:
      return `/workspace/a\u0000b/${r.pick(["c", "\ud800", "\u202e", "\u2028"])}`;
    case 6:
      return "/mnt/session/uploads/data.csv";
    case 7:
      return `${r.pick(["", "./", "../", "~/"])}${text(r, 2)}`;
    case 8:
      return `/workspace/${Array.from({ length: 1 + r.int(25) }, (_, i) => `s${i}`).join("/")}/f.md`;
    default:
      return r.pick(["/workspace", "/workspace/notes.md", "/mnt/memory/notes", "/mnt/memory/frozen/rule.md"]);
  }
}

function servedPattern(r: Rng): string {
  switch (r.int(8)) {
    case 0:
      return "a".repeat(1 + r.int(100_000));
    case 1:
      return `${r.pick(PATTERN_PIECES)}${text(r, 2)}`;
    case 2:
      return Array.from({ length: 1 + r.int(6) }, () => r.pick(PATTERN_PIECES)).join(r.pick(["", "|"]));
    default:
      return r.pick(PATTERN_PIECES);
  }
}

function servedGlob(r: Rng): string {
  return r.pick([
    "**/*",
    "*.txt",
    "*a*a*a*a*a*a*a*a*a*a*a*b",
    "**/**/**/**/**/**/x",
    "{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}",
    "[",
    "!(x)",
    "\u0000",
    "\ud800*",
    `${"*".repeat(1 + r.int(2000))}x`,
    text(r, 2),
  ]);
}

/** One call of a served file tool (Grep, Glob, Read, Write, Edit, LS) with raw input, well-formed or not. */
export function servedToolCall(r: Rng): { tool: string; input: unknown } {
  const maybe = <T>(value: () => T): T | undefined => (r.chance(0.5) ? value() : undefined);
  switch (r.int(7)) {
    case 0:
    case 1:
      return {
        tool: "Grep",
        input: {
          pattern: servedPattern(r),
          path: maybe(() => servedPath(r)),
          glob: maybe(() => servedGlob(r)),
          output_mode: r.pick(["content", "files_with_matches", "count", undefined, "lines"]),
          "-i": maybe(() => r.chance(0.5)),
          "-C": maybe(() => r.int(50)),
          head_limit: maybe(() => r.pick([1, 5, 1_000_000, 0, -1])),
        },
      };
    case 2:
      return { tool: "Glob", input: { pattern: servedGlob(r), path: maybe(() => servedPath(r)) } };
    case 3:
      return { tool: "Read", input: { file_path: servedPath(r), offset: maybe(() => r.int(10)) } };
    case 4:
      return {
        tool: "Write",
        input: { file_path: servedPath(r), content: r.chance(0.05) ? "x".repeat(6 * 1024 * 1024) : text(r) },
      };
    case 5:
      return {
        tool: "Edit",
        input: { file_path: servedPath(r), old_string: text(r, 2), new_string: text(r, 2) },
      };
    default:
      return { tool: "LS", input: r.chance(0.1) ? r.pick([null, 42, {}, "x"]) : { path: servedPath(r) } };
  }
}
