import * as os from "node:os";
import * as path from "node:path";
import picomatch from "picomatch";
import * as z from "zod";
import { errorCode, type FsOps } from "../io/fs.js";
import { lazy } from "../lazy.js";
import { defineTool, type Tool, type ToolOutput, toolError } from "./define-tool.js";
import { LS_INPUT_SCHEMA } from "./input-schemas.js";
import { displayPath, resolveToolPath } from "./resolve-path.js";
import { truncateHead } from "./truncate.js";

/** Most entries returned (the factory's `limit` may lower it). */
export const LS_DEFAULT_LIMIT = 500;

export const LS_DESCRIPTION = `List a directory's entries, sorted, directories marked with a trailing "/", dotfiles included.

- path: the directory (default: the working directory); absolute, relative, or starting with ~.
- ignore: glob patterns of entry names to leave out, e.g. ["*.log", "dist"].
- At most ${LS_DEFAULT_LIMIT} entries. Use Glob to find files deeper down.`;

/** The `LS` tool's input schema: the single source of its JSON schema and its parsing, built on first use. */
export const lsInput = lazy(() =>
  z.object({
    path: z.string().min(1).optional().describe("Directory to list (default: working directory)"),
    ignore: z.array(z.string()).optional().describe("Glob patterns of entry names to leave out"),
  }),
);
export type LsInput = z.infer<ReturnType<typeof lsInput>>;

export interface LsToolOptions {
  fs: FsOps;
  /** Most entries returned. Default: `LS_DEFAULT_LIMIT`. */
  limit?: number;
  /** For `~` paths. Default: the OS home dir. */
  homeDir?: string;
}

/** The `LS` tool (Claude Code's input: `path`, `ignore`; other keys ignored): one directory, sorted by name (code point), `/` after directories (and links to them). */
export function createLsTool(options: LsToolOptions): Tool {
  const { fs } = options;
  const homeDir = options.homeDir ?? os.homedir();
  return defineTool({
    name: "LS",
    description: LS_DESCRIPTION,
    input: lsInput,
    inputSchema: LS_INPUT_SCHEMA,
    readOnly: true,
    snippet: "List a directory",
    subject: (input) => input.path ?? ".",
    async execute(input, ctx): Promise<ToolOutput> {
      const dir = resolveToolPath(input.path ?? ".", ctx.cwd, homeDir);
      const shown = displayPath(dir, ctx.cwd);
      let entries: Awaited<ReturnType<FsOps["readdir"]>>;
      try {
        entries = await fs.readdir(dir);
      } catch (error) {
        const code = errorCode(error);
        if (code === "ENOENT") return toolError(`Path not found: ${shown}`);
        if (code === "ENOTDIR") return toolError(`${shown} is not a directory. Use Read for files.`);
        throw error;
      }
      if (input.ignore !== undefined && input.ignore.length > 0) {
        const ignored = picomatch(input.ignore, { dot: true });
        entries = entries.filter((entry) => !ignored(entry.name));
      }
      if (entries.length === 0) return { content: `(${shown} is empty)` };
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const limit = options.limit ?? LS_DEFAULT_LIMIT;
      const kept = entries.slice(0, limit);
      const names = await Promise.all(
        kept.map(async (entry) => {
          if (entry.kind === "dir") return `${entry.name}/`;
          if (entry.kind !== "symlink") return entry.name;
          const target = await fs.stat(path.join(dir, entry.name)).catch(() => undefined);
          return target?.kind === "dir" ? `${entry.name}/` : entry.name;
        }),
      );
      const cut = truncateHead(names.join("\n"));
      const notes: string[] = [];
      if (entries.length > limit) {
        notes.push(`[Showing ${limit} of ${entries.length} entries. Use Glob to narrow the listing.]`);
      }
      if (cut.truncated) notes.push(`[Output cut to ${cut.keptLines} of ${cut.totalLines} entries.]`);
      return {
        content: notes.length === 0 ? cut.text : `${cut.text}\n\n${notes.join("\n")}`,
        touchedPaths: kept.slice(0, cut.keptLines).map((entry) => path.join(dir, entry.name)),
        details: { total: entries.length },
      };
    },
  });
}
