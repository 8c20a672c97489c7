import * as os from "node:os";
import * as z from "zod";
import { errorCode, type FsOps } from "../io/fs.js";
import { lazy } from "../lazy.js";
import { defineTool, type Tool, type ToolOutput, toolError } from "./define-tool.js";
import { GLOB_INPUT_SCHEMA } from "./input-schemas.js";
import { createMatchers, type Matchers, type MatchWorker } from "./match-worker.js";
import { displayPath, resolveToolPath } from "./resolve-path.js";
import { deadlineText, TOOL_DEADLINE_MS } from "./tool-deadline.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, truncateHead } from "./truncate.js";
import { WALK_MAX_DEPTH, type WalkEntry, walkFiles } from "./walk.js";

/** Most paths returned (the factory's `limit` may lower it). */
export const FIND_DEFAULT_LIMIT = 1_000;
/** Paths sent to the glob's worker at once. */
export const FIND_MATCH_BATCH = 1_000;

export const FIND_DESCRIPTION = `Find files by glob pattern.

- pattern: a glob. Without a "/" it matches file names at any depth ("*.ts", "README*"); with one it matches the path under path ("src/**/*.test.ts"). Braces and ** work.
- path: the directory to search (default: the working directory).
- .gitignore files are honoured; .git and node_modules are always skipped. Only files are returned, not directories.
- A search stops at its deadline (${TOOL_DEADLINE_MS / 1000} seconds): narrow it when one does.
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
  /** How long one call may run. Default: `TOOL_DEADLINE_MS`. */
  deadlineMs?: number;
  /** Where the patterns are matched (worker threads). Default: the tool's own `createMatchers()`. */
  matchers?: Matchers;
  /** For `~` paths. Default: the OS home dir. */
  homeDir?: string;
}

/** The `Glob` tool (Claude Code's input: `pattern`, `path`; other keys ignored): picomatch (in a worker thread: its expressions backtrack) over the shared `.gitignore`-aware walker; sorted, relative, limited, with a deadline (`deadlineMs`). */
export function createFindTool(options: FindToolOptions): Tool {
  const { fs } = options;
  const homeDir = options.homeDir ?? os.homedir();
  const deadlineMs = options.deadlineMs ?? TOOL_DEADLINE_MS;
  const matchers = options.matchers ?? createMatchers();
  return defineTool({
    name: "Glob",
    timeoutMs: deadlineMs,
    timeoutText: deadlineText(
      "Glob",
      deadlineMs,
      "Narrow the search: a deeper path or a more specific pattern.",
    ),
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
      const started = await matchers.start({ glob: input.pattern }, ctx.signal);
      if (started.kind === "invalid") return toolError(`Invalid glob pattern: ${started.message}`);
      let tooDeep = 0;
      let found: string[];
      try {
        const files = walkFiles({ fs, root, cwd: ctx.cwd, signal: ctx.signal, onTooDeep: () => tooDeep++ });
        found = await matching(files, started.worker);
      } finally {
        started.worker.close();
      }
      const deepNote = `[${tooDeep} ${tooDeep === 1 ? "directory" : "directories"} deeper than ${WALK_MAX_DEPTH} levels not searched. Search below them with path.]`;
      if (found.length === 0) {
        const none = `No files match ${input.pattern} (searched ${shownRoot}).`;
        return { content: tooDeep === 0 ? none : `${none}\n\n${deepNote}` };
      }
      const shown = found.map((p) => ({ abs: p, rel: displayPath(p, ctx.cwd) }));
      shown.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
      const limit = options.limit ?? FIND_DEFAULT_LIMIT;
      const kept = shown.slice(0, limit);
      const cut = truncateHead(kept.map((p) => p.rel).join("\n"));
      const returned = kept.slice(0, cut.keptLines);
      const notes: string[] = tooDeep === 0 ? [] : [deepNote];
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

/** The paths of `files` whose `rel` the worker's glob matches, in walk order, asked `FIND_MATCH_BATCH` at a time. */
async function matching(files: AsyncIterable<WalkEntry>, matcher: MatchWorker): Promise<string[]> {
  const found: string[] = [];
  let batch: WalkEntry[] = [];
  const flush = async () => {
    const hits = await matcher.paths(batch.map((f) => f.rel));
    batch.forEach((file, i) => {
      if (hits[i] === true) found.push(file.path);
    });
    batch = [];
  };
  for await (const file of files) {
    batch.push(file);
    if (batch.length >= FIND_MATCH_BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  return found;
}
