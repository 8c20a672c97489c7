import * as os from "node:os";
import * as path from "node:path";
import * as z from "zod";
import { type FileModeOps, writeFileAtomic } from "../io/atomic-write.js";
import type { FsOps } from "../io/fs.js";
import { lazy } from "../lazy.js";
import { defineTool, type Tool, toolError } from "./define-tool.js";
import { WRITE_INPUT_SCHEMA } from "./input-schemas.js";
import { LEGACY_PATH_KEY } from "./read.js";
import { displayPath, resolveToolPath } from "./resolve-path.js";
import { byteLength } from "./truncate.js";

export const WRITE_DESCRIPTION = `Write a file to the local file system, replacing it if it exists.

- file_path: absolute (preferred), relative to the working directory, or starting with ~. Missing parent directories are created.
- content: the whole new content of the file.
- Prefer Edit for changing part of an existing file; Read a file before overwriting it.`;

/** The `Write` tool's input schema: the single source of its JSON schema and its parsing, built on first use. */
export const writeInput = lazy(() =>
  z.object({
    file_path: z.string().min(1).describe("The path of the file to write"),
    content: z.string().describe("The full content to write"),
  }),
);
export type WriteInput = z.infer<ReturnType<typeof writeInput>>;

export interface WriteToolOptions {
  fs: FsOps;
  /** Keeps the mode bits of a replaced file. Optional. */
  modes?: FileModeOps;
  /** For `~` paths. Default: the OS home dir. */
  homeDir?: string;
}

/** The `Write` tool: creates parent dirs, writes atomically, reports the bytes written. */
export function createWriteTool(options: WriteToolOptions): Tool {
  const { fs, modes } = options;
  const homeDir = options.homeDir ?? os.homedir();
  return defineTool({
    name: "Write",
    description: WRITE_DESCRIPTION,
    input: writeInput,
    inputSchema: WRITE_INPUT_SCHEMA,
    readOnly: false,
    snippet: "Create a file or replace its whole content",
    legacyKeys: LEGACY_PATH_KEY,
    subject: (input) => input.file_path,
    async execute(input, ctx) {
      const abs = resolveToolPath(input.file_path, ctx.cwd, homeDir);
      const shown = displayPath(abs, ctx.cwd);
      const existing = await fs.stat(abs).catch(() => undefined);
      if (existing?.kind === "dir") return toolError(`${shown} is a directory; give a file path.`);
      await fs.mkdir(path.dirname(abs));
      await writeFileAtomic(fs, abs, input.content, modes);
      const bytes = byteLength(input.content);
      return {
        content: `${existing === undefined ? "Created" : "Wrote"} ${shown} (${bytes} bytes).`,
        details: { path: abs, bytes, created: existing === undefined },
        touchedPaths: [abs],
      };
    },
  });
}
