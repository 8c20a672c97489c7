import * as os from "node:os";
import * as path from "node:path";
import * as z from "zod";
import { errorCode, type FsOps } from "../io/fs.js";
import { lazy } from "../lazy.js";
import { defineTool, type Tool, type ToolContext, type ToolOutput, toolError } from "./define-tool.js";
import { GREP_INPUT_SCHEMA } from "./input-schemas.js";
import { createMatchers, type Matchers, type MatchWorker } from "./match-worker.js";
import { BINARY_SNIFF_BYTES } from "./read.js";
import { displayPath, resolveToolPath } from "./resolve-path.js";
import { deadlineText, TOOL_DEADLINE_MS } from "./tool-deadline.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, splitLines, truncateHead, truncateLine } from "./truncate.js";
import { WALK_MAX_DEPTH, walkFiles } from "./walk.js";

/** Output entries (content lines, file paths or count lines) returned when `head_limit` is not given. */
export const GREP_DEFAULT_HEAD_LIMIT = 250;
/** Longest line shown in a result; longer lines are cut. */
export const GREP_MAX_LINE_CHARS = 500;
/** Most context lines shown on each side of a match; larger `-A`, `-B`, `-C` values are lowered to it. */
export const GREP_MAX_CONTEXT = 20;
/** Files larger than this are not searched. */
export const GREP_MAX_FILE_BYTES = 10 * 1024 * 1024;

/** Claude Code's output modes; `files_with_matches` is the default. */
export const GREP_OUTPUT_MODES = ["content", "files_with_matches", "count"] as const;
export type GrepOutputMode = (typeof GREP_OUTPUT_MODES)[number];

/** What Grep's patterns are, for the model: the syntax of RE2, which ripgrep's matches. */
export const GREP_SYNTAX_NOTE =
  "Patterns are RE2's syntax, as ripgrep's are: no lookaround and no backreferences; escape literal braces, parentheses and dots.";

export const GREP_DESCRIPTION = `Search file contents with a regular expression. ${GREP_SYNTAX_NOTE}

- path: a file or directory (default: the working directory). glob filters files, e.g. "*.ts" (matched against the file name) or "src/**/*.ts" (against the path under path).
- output_mode: "files_with_matches" (default) lists the files that match; "content" shows the matching lines ("path:line:text", context lines "path-line-text"); "count" gives "path:count" per file.
- -i: case-insensitive. In content mode: -n shows line numbers (default true); -A, -B and -C show that many lines after, before, or around each match (at most ${GREP_MAX_CONTEXT}).
- head_limit: only the first N lines or entries of the output (default ${GREP_DEFAULT_HEAD_LIMIT}).
- .gitignore files are honoured; .git and node_modules are always skipped, and so are binary files and files over ${GREP_MAX_FILE_BYTES / (1024 * 1024)} MB.
- Each line is matched on its own (a match never spans lines). A search stops at its deadline (${TOOL_DEADLINE_MS / 1000} seconds): narrow it when one does.
- Paths are relative to the working directory. Lines longer than ${GREP_MAX_LINE_CHARS} characters are cut; at most ${DEFAULT_MAX_LINES} lines / ${DEFAULT_MAX_BYTES / 1024} KB of output are returned.`;

/** The `Grep` tool's input schema: the single source of its JSON schema and its parsing, built on first use. */
export const grepInput = lazy(() =>
  z.object({
    pattern: z.string().min(1).describe("The regular expression to search for"),
    path: z.string().min(1).optional().describe("File or directory to search (default: working directory)"),
    glob: z.string().min(1).optional().describe('Only search files matching this glob, e.g. "*.ts"'),
    output_mode: z
      .enum(GREP_OUTPUT_MODES)
      .optional()
      .describe('"content", "files_with_matches" (default) or "count"'),
    "-i": z.boolean().optional().describe("Case-insensitive search"),
    "-n": z.boolean().optional().describe("Show line numbers (content mode; default true)"),
    "-A": z.number().int().min(0).optional().describe("Lines to show after each match (content mode)"),
    "-B": z.number().int().min(0).optional().describe("Lines to show before each match (content mode)"),
    "-C": z.number().int().min(0).optional().describe("Lines to show around each match (content mode)"),
    head_limit: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(`Only the first N lines or entries (default ${GREP_DEFAULT_HEAD_LIMIT})`),
  }),
);
export type GrepInput = z.infer<ReturnType<typeof grepInput>>;

export interface GrepToolOptions {
  fs: FsOps;
  /** How long one call may run. Default: `TOOL_DEADLINE_MS`. */
  deadlineMs?: number;
  /** Where the patterns are matched (worker threads). Default: the tool's own `createMatchers()`. */
  matchers?: Matchers;
  /** For `~` paths. Default: the OS home dir. */
  homeDir?: string;
}

/** How content mode prints: context on each side, and whether lines carry their numbers. */
interface ContentFormat {
  before: number;
  after: number;
  lineNumbers: boolean;
}

/** The context lines of a call: `-B`/`-A` for their side, else `-C`, else 0; each at most `GREP_MAX_CONTEXT`. */
function contentFormat(input: GrepInput): ContentFormat {
  const clamp = (n: number | undefined) => Math.min(GREP_MAX_CONTEXT, n ?? 0);
  return {
    before: clamp(input["-B"] ?? input["-C"]),
    after: clamp(input["-A"] ?? input["-C"]),
    lineNumbers: input["-n"] ?? true,
  };
}

/** The output lines for one file's matches, as ripgrep prints them: matches, context and `--` between groups. */
function formatFile(
  shown: string,
  lines: readonly string[],
  matched: readonly number[],
  format: ContentFormat,
): string[] {
  const out: string[] = [];
  const matchedSet = new Set(matched);
  let printedUpTo = -1;
  for (const index of matched) {
    if (index <= printedUpTo) continue;
    const from = Math.max(0, index - format.before, printedUpTo + 1);
    const hasContext = format.before > 0 || format.after > 0;
    if (hasContext && printedUpTo >= 0 && from > printedUpTo + 1) out.push("--");
    const to = Math.min(lines.length - 1, index + format.after);
    for (let i = from; i <= to; i++) {
      const sep = matchedSet.has(i) ? ":" : "-";
      const text = truncateLine(lines[i] ?? "", GREP_MAX_LINE_CHARS).text;
      out.push(format.lineNumbers ? `${shown}${sep}${i + 1}${sep}${text}` : `${shown}${sep}${text}`);
    }
    printedUpTo = to;
  }
  return out;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * The `Grep` tool with Claude Code's input (`pattern`, `path`, `glob`, `output_mode`, `-i`, `-n`, `-A`, `-B`,
 * `-C`, `head_limit`; other keys ignored): pure TypeScript (walk + RE2 in a worker thread, so no pattern can hold the
 * event loop; see src/tools/match-worker.ts), with a deadline (`deadlineMs`), `.gitignore`-aware, output like
 * Claude Code's (`Found N files` + paths by default, ripgrep lines in content mode, `path:count` in count mode),
 * cut to `head_limit` entries with a note.
 */
export function createGrepTool(options: GrepToolOptions): Tool {
  const { fs } = options;
  const homeDir = options.homeDir ?? os.homedir();
  const deadlineMs = options.deadlineMs ?? TOOL_DEADLINE_MS;
  const matchers = options.matchers ?? createMatchers();
  return defineTool({
    name: "Grep",
    timeoutMs: deadlineMs,
    timeoutText: deadlineText(
      "Grep",
      deadlineMs,
      "Narrow the search: a more specific path or glob, or a simpler pattern.",
    ),
    description: GREP_DESCRIPTION,
    input: grepInput,
    inputSchema: GREP_INPUT_SCHEMA,
    readOnly: true,
    snippet: "Search file contents with a regular expression",
    guidelines: ["Prefer Grep, Glob and LS over Bash for searching and listing files."],
    subject: (input) => input.path ?? ".",
    async execute(input, ctx): Promise<ToolOutput> {
      const started = await matchers.start(
        {
          regex: { pattern: input.pattern, ignoreCase: input["-i"] === true },
          ...(input.glob === undefined ? {} : { glob: input.glob }),
        },
        ctx.signal,
      );
      if (started.kind === "invalid") {
        return toolError(
          `Invalid regular expression: ${started.message}. ${GREP_SYNTAX_NOTE} Escape special characters with a ` +
            "backslash to search for them as text.",
        );
      }
      try {
        return await search(input, ctx, started.worker);
      } finally {
        started.worker.close();
      }
    },
  });

  async function search(input: GrepInput, ctx: ToolContext, matcher: MatchWorker): Promise<ToolOutput> {
    const root = resolveToolPath(input.path ?? ".", ctx.cwd, homeDir);
    let kind: string;
    try {
      kind = (await fs.stat(root)).kind;
    } catch (error) {
      if (errorCode(error) === "ENOENT") return toolError(`Path not found: ${displayPath(root, ctx.cwd)}`);
      throw error;
    }
    let tooDeep = 0;
    const files =
      kind === "dir"
        ? walkFiles({ fs, root, cwd: ctx.cwd, signal: ctx.signal, onTooDeep: () => tooDeep++ })
        : [{ path: root, rel: path.basename(root) }];
    const mode: GrepOutputMode = input.output_mode ?? "files_with_matches";
    const format = contentFormat(input);
    const headLimit = input.head_limit ?? GREP_DEFAULT_HEAD_LIMIT;
    const entries: string[] = [];
    const touched: string[] = [];
    let occurrences = 0;
    for await (const file of files) {
      // One entry past the limit tells that the output was cut.
      if (ctx.signal.aborted || entries.length > headLimit) break;
      if (input.glob !== undefined && !(await matcher.paths([file.rel]))[0]) continue;
      const stat = await fs.stat(file.path).catch(() => undefined);
      if (stat === undefined || stat.size > GREP_MAX_FILE_BYTES) continue;
      if ((await fs.readHead(file.path, BINARY_SNIFF_BYTES)).binary) continue;
      const lines = splitLines(await fs.readFile(file.path)).map((l) =>
        l.endsWith("\r") ? l.slice(0, -1) : l,
      );
      const matched = await matcher.lines(lines);
      if (matched.length === 0) continue;
      touched.push(file.path);
      occurrences += matched.length;
      const shown = displayPath(file.path, ctx.cwd);
      if (mode === "files_with_matches") entries.push(shown);
      else if (mode === "count") entries.push(`${shown}:${matched.length}`);
      else {
        if ((format.before > 0 || format.after > 0) && entries.length > 0) entries.push("--");
        entries.push(...formatFile(shown, lines, matched, format));
      }
    }
    const deepNote =
      tooDeep === 0
        ? undefined
        : `[${plural(tooDeep, "directory")} deeper than ${WALK_MAX_DEPTH} levels not searched. Search below them with path.]`;
    if (entries.length === 0) {
      const none = mode === "files_with_matches" ? "No files found" : "No matches found";
      return { content: deepNote === undefined ? none : `${none}\n\n${deepNote}` };
    }
    const limited = entries.length > headLimit;
    const kept = entries.slice(0, headLimit);
    const cut = truncateHead(kept.join("\n"));
    const notes: string[] = deepNote === undefined ? [] : [deepNote];
    if (limited) {
      notes.push(
        `[Showing the first ${headLimit} entries (head_limit). Narrow pattern, path or glob, or raise head_limit.]`,
      );
    }
    if (cut.truncated) {
      notes.push(`[Output cut to ${cut.keptLines} of ${cut.totalLines} lines. Narrow the search.]`);
    }
    const body =
      mode === "files_with_matches"
        ? `Found ${plural(limited ? kept.length : entries.length, "file")}\n${cut.text}`
        : mode === "count"
          ? `${cut.text}\n\nFound ${plural(occurrences, "total occurrence")} across ${plural(touched.length, "file")}.`
          : cut.text;
    const text = notes.length === 0 ? body : `${body}\n\n${notes.join("\n")}`;
    return {
      content: text,
      touchedPaths: touched,
      details: { matches: occurrences, files: touched.length },
    };
  }
}
