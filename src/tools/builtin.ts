import * as os from "node:os";
import * as path from "node:path";
import type { FileModeOps } from "../io/atomic-write.js";
import type { FsOps } from "../io/fs.js";
import type { ShellOps } from "../io/shell.js";
import { createBashTool } from "./bash.js";
import type { Tool } from "./define-tool.js";
import { createEditTool } from "./edit.js";
import { createFindTool } from "./find.js";
import { createGrepTool } from "./grep.js";
import { createLsTool } from "./ls.js";
import { createMatchers } from "./match-worker.js";
import { createReadTool } from "./read.js";
import { createWriteTool } from "./write.js";

/** The names of the built-in tools, in the order `createBuiltinTools` returns them (Claude Code's names). */
export const BUILTIN_TOOL_NAMES = ["Read", "Write", "Edit", "Bash", "Grep", "Glob", "LS"] as const;
export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

export interface BuiltinToolsOptions {
  fs: FsOps;
  /**
   * The shell Bash runs commands in (a sandbox's); absent, or one that refuses (`refusal`: a sandbox of tier
   * `none`): no Bash tool.
   */
  shell?: ShellOps;
  /** Lets Write and Edit keep a replaced file's mode bits (`createNodeFileModes()`). Optional. */
  modes?: FileModeOps;
  /** For `~` paths. Default: the OS home dir. */
  homeDir?: string;
  /** Where Bash keeps the whole of an output it cut, on `fs`. Default: `skillwright-bash` in the OS temp dir. */
  bashOutputDir?: string;
  /** How long one Grep or Glob call may run. Default: `TOOL_DEADLINE_MS` (src/tools/tool-deadline.ts). */
  deadlineMs?: number;
}

/**
 * The built-in tools, in the order Read, Write, Edit, Bash, Grep, Glob, LS (Bash only with a `shell`; a
 * shell that refuses gives a Bash that answers with its refusal). Read, Grep, Glob and LS are read-only. Each call's cwd comes from its `ToolContext`, so one set
 * serves every agent and fork.
 */
export function createBuiltinTools(options: BuiltinToolsOptions): Tool[] {
  const { fs, shell, modes, homeDir, deadlineMs } = options;
  // One warm worker for both searches' patterns.
  const matchers = createMatchers();
  const bashOutputDir = options.bashOutputDir ?? path.join(os.tmpdir(), "skillwright-bash");
  return [
    createReadTool({ fs, homeDir }),
    createWriteTool({ fs, modes, homeDir }),
    createEditTool({ fs, modes, homeDir }),
    ...(shell === undefined ? [] : [createBashTool({ shell, fullOutput: { fs, dir: bashOutputDir } })]),
    createGrepTool({ fs, homeDir, deadlineMs, matchers }),
    createFindTool({ fs, homeDir, deadlineMs, matchers }),
    createLsTool({ fs, homeDir }),
  ];
}
