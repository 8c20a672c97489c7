import { dirname, join, relative, sep } from "node:path";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { errorCode, errorMessage, type FsOps } from "../io/fs.js";
import type { PromptText } from "./prompt-part.js";
import type { ContextFile } from "./system-prompt.js";

/** The engine's config dir name, in the project (`<project>/.skillwright/`) and the user's home. */
export const CONFIG_DIR_NAME = ".skillwright";
/** A file that replaces the base prompt. */
export const SYSTEM_FILE = "SYSTEM.md";
/** A file whose text is appended to the system prompt. */
export const APPEND_SYSTEM_FILE = "APPEND_SYSTEM.md";
/** The context file names read in each directory, in this order. */
export const CONTEXT_FILE_NAMES = ["AGENTS.md", "CLAUDE.md"] as const;

/** Where the prompt files are looked for. */
export interface PromptFileDirs {
  home: string;
  /** The project dir (the git root, else the cwd): its `.skillwright/` wins over the user's. */
  projectDir: string;
  cwd: string;
  /** Context files are read from here down to the cwd; absent: the cwd only. */
  gitRoot?: string | undefined;
}

/** The prompt files found: each text keeps its path as origin. */
export interface PromptFiles {
  /** `SYSTEM.md` (project, else user). */
  system?: PromptText;
  /** `APPEND_SYSTEM.md` (project, else user). */
  append?: PromptText;
  contextFiles: ContextFile[];
  diagnostics: Diagnostic[];
}

/** The directories from `top` down to `cwd` (just `cwd` when it is not inside `top`). Pure. */
export function dirsDownTo(top: string | undefined, cwd: string): string[] {
  if (top === undefined) return [cwd];
  const rel = relative(top, cwd);
  if (rel.startsWith("..") || rel.startsWith(sep)) return [cwd];
  const dirs: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    dirs.unshift(dir);
    if (dir === top || dirname(dir) === dir) break;
  }
  return dirs;
}

/** The candidate context file paths, in prompt order: the user's, then from the git root down to the cwd. Pure. */
export function contextFilePaths(dirs: PromptFileDirs): string[] {
  return [
    join(dirs.home, ".claude", "CLAUDE.md"),
    join(dirs.home, CONFIG_DIR_NAME, "AGENTS.md"),
    ...dirsDownTo(dirs.gitRoot, dirs.cwd).flatMap((dir) => CONTEXT_FILE_NAMES.map((name) => join(dir, name))),
  ];
}

/**
 * Reads the prompt files through `fs`: `SYSTEM.md` and `APPEND_SYSTEM.md` from `<project>/.skillwright/`, else
 * `~/.skillwright/`; the context files of {@link contextFilePaths}, each once (a second path to the same file,
 * e.g. a `CLAUDE.md` symlink to `AGENTS.md`, is skipped). Missing and empty files are left out; an unreadable
 * one is a `file-unreadable` warning. Never rejects.
 */
export async function loadPromptFiles(fs: FsOps, dirs: PromptFileDirs): Promise<PromptFiles> {
  const diagnostics: Diagnostic[] = [];
  const read = async (path: string): Promise<string | undefined> => {
    try {
      const text = await fs.readFile(path);
      return text.trim() === "" ? undefined : text;
    } catch (error) {
      const code = errorCode(error);
      if (code !== "ENOENT" && code !== "ENOTDIR" && code !== "EISDIR") {
        diagnostics.push(
          diagnostic("warning", "file-unreadable", `cannot read: ${errorMessage(error)}`, path),
        );
      }
      return undefined;
    }
  };
  const firstOf = async (name: string): Promise<PromptText | undefined> => {
    for (const dir of [join(dirs.projectDir, CONFIG_DIR_NAME), join(dirs.home, CONFIG_DIR_NAME)]) {
      const path = join(dir, name);
      const text = await read(path);
      if (text !== undefined) return { text, origin: path };
    }
    return undefined;
  };
  const system = await firstOf(SYSTEM_FILE);
  const append = await firstOf(APPEND_SYSTEM_FILE);
  const contextFiles: ContextFile[] = [];
  const seen = new Set<string>();
  for (const path of contextFilePaths(dirs)) {
    const text = await read(path);
    if (text === undefined) continue;
    const real = await fs.realpath(path).catch(() => path);
    if (seen.has(real)) continue;
    seen.add(real);
    contextFiles.push({ path, text });
  }
  return {
    ...(system === undefined ? {} : { system }),
    ...(append === undefined ? {} : { append }),
    contextFiles,
    diagnostics,
  };
}
