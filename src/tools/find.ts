import * as os from "node:os";
import picomatch from "picomatch";
import * as z from "zod";
import { errorCode, type FsOps } from "../io/fs.js";
import { lazy } from "../lazy.js";
import { defineTool, type Tool, type ToolOutput, toolError } from "./define-tool.js";
import { GLOB_INPUT_SCHEMA } from "./input-schemas.js";
import { displayPath, resolveToolPath } from "./resolve-path.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, truncateHead } from "./truncate.js";
import { walkFiles } from "./walk.js";

/** Most paths returned (the factory's `limit` may lower it). */
export const FIND_DEFAULT_LIMIT = 1_000;

export const FIND_DESCRIPTION = `Find files by glob pattern.

- pattern: a glob. Without a "/" it matches file names at any depth ("*.ts", "README*"); with one it matches the path under path ("src/**/*.test.ts"). Braces and ** work.
- path: the directory to search (default: the working directory).
- .gitignore files are honoured; .git and node_modules are always skipped. Only files are returned, not directories.
- Paths are relative to the working directory and sorted. At most ${FIND_DEFAULT_LIMIT} paths and ${DEFAULT_MAX_LINES} lines / ${DEFAULT_MAX_BYTES / 1024} KB of output are returned.`;

/** The `Glob` tool's input schema: the single source of its JSON schema and its parsing, built on first use. */
export const findInput = lazy(() =>
  z.object({
    pattern: z.string().min(1).describe('Glob to match, e.g. "*.ts" or "src/**/*.test.ts"'),
    path: z.string().min(1).optional().describe("Directory to search (default: working directory)"),
  }),
);
export type FindInput = z.infer<ReturnType<typeof findInput>>;

export interface FindToolOptions {
  fs: FsOps;
  /** Most paths returned. Default: `FIND_DEFAULT_LIMIT`. */
  limit?: number;
  /** For `~` paths. Default: the OS home dir. */
  homeDir?: string;
}

/** The `Glob` tool (Claude Code's input: `pattern`, `path`; other keys ignored): picomatch over the shared `.gitignore`-aware walker; sorted, relative, limited. */
export function createFindTool(options: FindToolOptions): Tool {
  const { fs } = options;
  const homeDir = options.homeDir ?? os.homedir();
  return defineTool({
    name: "Glob",
    description: FIND_DESCRIPTION,
    input: findInput,
    inputSchema: GLOB_INPUT_SCHEMA,
    readOnly: true,
    snippet: "Find files by glob pattern",
    subject: (input) => input.path ?? ".",
    async execute(input, ctx): Promise<ToolOutput> {
      const root = resolveToolPath(input.path ?? ".", ctx.cwd, homeDir);
      const shownRoot = displayPath(root, ctx.cwd);
      try {
        if ((await fs.stat(root)).kind !== "dir") return toolError(`${shownRoot} is not a directory.`);
      } catch (error) {
        if (errorCode(error) === "ENOENT") return toolError(`Path not found: ${shownRoot}`);
        throw error;
      }
      const isMatch = picomatch(input.pattern, { dot: true, basename: !input.pattern.includes("/") });
      const found: string[] = [];
      for await (const file of walkFiles({ fs, root, cwd: ctx.cwd, signal: ctx.signal })) {
        if (isMatch(file.rel)) found.push(file.path);
      }
      if (found.length === 0) return { content: `No files match ${input.pattern} (searched ${shownRoot}).` };
      const shown = found.map((p) => ({ abs: p, rel: displayPath(p, ctx.cwd) }));
      shown.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
      const limit = options.limit ?? FIND_DEFAULT_LIMIT;
      const kept = shown.slice(0, limit);
      const cut = truncateHead(kept.map((p) => p.rel).join("\n"));
      const returned = kept.slice(0, cut.keptLines);
      const notes: string[] = [];
      if (shown.length > limit) {
        notes.push(`[Showing ${limit} of ${shown.length} files. Refine pattern or path.]`);
      }
      if (cut.truncated) notes.push(`[Output cut to ${cut.keptLines} of ${cut.totalLines} paths.]`);
      return {
        content: notes.length === 0 ? cut.text : `${cut.text}\n\n${notes.join("\n")}`,
        touchedPaths: returned.map((p) => p.abs),
        details: { total: shown.length },
      };
    },
  });
}
