import * as os from "node:os";
import * as path from "node:path";
import picomatch from "picomatch";
import * as z from "zod";
import { errorCode, errorMessage, type FsOps } from "../io/fs.js";
import { lazy } from "../lazy.js";
import { defineTool, type Tool, type ToolInputSchema, type ToolOutput, toolError } from "./define-tool.js";
import { BINARY_SNIFF_BYTES } from "./read.js";
import { displayPath, resolveToolPath } from "./resolve-path.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, splitLines, truncateHead, truncateLine } from "./truncate.js";
import { walkFiles } from "./walk.js";

/** Default number of matching lines returned. */
export const GREP_DEFAULT_LIMIT = 100;
/** Longest line shown in a result; longer lines are cut. */
export const GREP_MAX_LINE_CHARS = 500;
/** Most context lines around a match. */
export const GREP_MAX_CONTEXT = 20;
/** Files larger than this are not searched. */
export const GREP_MAX_FILE_BYTES = 10 * 1024 * 1024;

export const GREP_DESCRIPTION = `Search file contents with a regular expression (JavaScript syntax).

- path: a file or directory (default: the working directory). glob filters files, e.g. "*.ts" (matched against the file name) or "src/**/*.ts" (against the path under path).
- .gitignore files are honoured; .git and node_modules are always skipped, and so are binary files and files over ${GREP_MAX_FILE_BYTES / (1024 * 1024)} MB.
- ignore_case for case-insensitive search; literal to search for the text as written (no regex).
- context: lines shown before and after each match (at most ${GREP_MAX_CONTEXT}).
- Output lines are "path:line: text" for matches and "path-line- text" for context, paths relative to the working directory. Lines longer than ${GREP_MAX_LINE_CHARS} characters are cut.
- At most limit matching lines (default ${GREP_DEFAULT_LIMIT}) and ${DEFAULT_MAX_LINES} lines / ${DEFAULT_MAX_BYTES / 1024} KB of output are returned.`;

/** The `Grep` tool's input schema, built on the first call that parses an input (zod is costly at start-up). */
export const grepInput = lazy(() =>
  z.strictObject({
    pattern: z.string().min(1).describe("Regular expression (or text, with literal) to search for"),
    path: z.string().min(1).optional().describe("File or directory to search (default: working directory)"),
    glob: z.string().min(1).optional().describe('Only search files matching this glob, e.g. "*.ts"'),
    ignore_case: z.boolean().optional().describe("Case-insensitive search"),
    literal: z.boolean().optional().describe("Treat pattern as plain text"),
    context: z
      .number()
      .int()
      .min(0)
      .max(GREP_MAX_CONTEXT)
      .optional()
      .describe("Context lines around matches"),
    limit: z.number().int().min(1).optional().describe(`Most matching lines (default ${GREP_DEFAULT_LIMIT})`),
  }),
);
export type GrepInput = z.infer<ReturnType<typeof grepInput>>;

/** `grepInput` as the API gets it (`input_schema`); test/tools/input-schemas.test.ts keeps the two equal. */
export const GREP_INPUT_SCHEMA: ToolInputSchema = {
  type: "object",
  properties: {
    pattern: {
      type: "string",
      minLength: 1,
      description: "Regular expression (or text, with literal) to search for",
    },
    path: {
      description: "File or directory to search (default: working directory)",
      type: "string",
      minLength: 1,
    },
    glob: { description: 'Only search files matching this glob, e.g. "*.ts"', type: "string", minLength: 1 },
    ignore_case: { description: "Case-insensitive search", type: "boolean" },
    literal: { description: "Treat pattern as plain text", type: "boolean" },
    context: {
      description: "Context lines around matches",
      type: "integer",
      minimum: 0,
      maximum: GREP_MAX_CONTEXT,
    },
    limit: {
      description: `Most matching lines (default ${GREP_DEFAULT_LIMIT})`,
      type: "integer",
      minimum: 1,
    },
  },
  required: ["pattern"],
  additionalProperties: false,
};

export interface GrepToolOptions {
  fs: FsOps;
  /** For `~` paths. Default: the OS home dir. */
  homeDir?: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The output lines for one file's matches: matches, context lines and `--` between separate groups. */
function formatFile(
  shown: string,
  lines: readonly string[],
  matched: readonly number[],
  context: number,
): string[] {
  const out: string[] = [];
  const matchedSet = new Set(matched);
  let printedUpTo = -1;
  for (const index of matched) {
    if (index <= printedUpTo) continue;
    const from = Math.max(0, index - context, printedUpTo + 1);
    if (context > 0 && printedUpTo >= 0 && from > printedUpTo + 1) out.push("--");
    const to = Math.min(lines.length - 1, index + context);
    for (let i = from; i <= to; i++) {
      const sep = matchedSet.has(i) ? ":" : "-";
      out.push(`${shown}${sep}${i + 1}${sep} ${truncateLine(lines[i] ?? "", GREP_MAX_LINE_CHARS).text}`);
    }
    printedUpTo = to;
  }
  return out;
}

/** The `Grep` tool: pure TypeScript (walk + RegExp), `.gitignore`-aware, with match and output limits. */
export function createGrepTool(options: GrepToolOptions): Tool {
  const { fs } = options;
  const homeDir = options.homeDir ?? os.homedir();
  return defineTool({
    name: "Grep",
    description: GREP_DESCRIPTION,
    input: grepInput,
    inputSchema: GREP_INPUT_SCHEMA,
    readOnly: true,
    subject: (input) => input.path ?? ".",
    async execute(input, ctx): Promise<ToolOutput> {
      let regex: RegExp;
      try {
        regex = new RegExp(
          input.literal ? escapeRegExp(input.pattern) : input.pattern,
          input.ignore_case ? "i" : "",
        );
      } catch (error) {
        return toolError(
          `Invalid regular expression: ${errorMessage(error)}. Set literal to true to search text.`,
        );
      }
      const root = resolveToolPath(input.path ?? ".", ctx.cwd, homeDir);
      let kind: string;
      try {
        kind = (await fs.stat(root)).kind;
      } catch (error) {
        if (errorCode(error) === "ENOENT") return toolError(`Path not found: ${displayPath(root, ctx.cwd)}`);
        throw error;
      }
      const glob = input.glob;
      const globMatch =
        glob === undefined ? undefined : picomatch(glob, { dot: true, basename: !glob.includes("/") });
      const files =
        kind === "dir"
          ? walkFiles({ fs, root, cwd: ctx.cwd, signal: ctx.signal })
          : [{ path: root, rel: path.basename(root) }];
      const limit = input.limit ?? GREP_DEFAULT_LIMIT;
      const context = input.context ?? 0;
      const out: string[] = [];
      const touched: string[] = [];
      let matches = 0;
      let hitLimit = false;
      for await (const file of files) {
        if (ctx.signal.aborted || hitLimit) break;
        if (globMatch !== undefined && !globMatch(file.rel)) continue;
        const stat = await fs.stat(file.path).catch(() => undefined);
        if (stat === undefined || stat.size > GREP_MAX_FILE_BYTES) continue;
        if ((await fs.readHead(file.path, BINARY_SNIFF_BYTES)).binary) continue;
        const lines = splitLines(await fs.readFile(file.path)).map((l) =>
          l.endsWith("\r") ? l.slice(0, -1) : l,
        );
        const matched: number[] = [];
        for (let i = 0; i < lines.length; i++) {
          if (!regex.test(lines[i] ?? "")) continue;
          if (matches === limit) {
            hitLimit = true;
            break;
          }
          matched.push(i);
          matches++;
        }
        if (matched.length === 0) continue;
        touched.push(file.path);
        if (context > 0 && out.length > 0) out.push("--");
        out.push(...formatFile(displayPath(file.path, ctx.cwd), lines, matched, context));
      }
      if (matches === 0) return { content: "No matches found." };
      const cut = truncateHead(out.join("\n"));
      const notes: string[] = [];
      if (hitLimit) {
        notes.push(`[Stopped at ${limit} matches (limit). Narrow pattern, path or glob, or raise limit.]`);
      }
      if (cut.truncated) {
        notes.push(`[Output cut to ${cut.keptLines} of ${cut.totalLines} lines. Narrow the search.]`);
      }
      const text = notes.length === 0 ? cut.text : `${cut.text}\n\n${notes.join("\n")}`;
      return { content: text, touchedPaths: touched, details: { matches, files: touched.length } };
    },
  });
}
