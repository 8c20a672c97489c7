import { dirname, resolve } from "node:path";
import { errorCode, errorMessage, type FsOps } from "../io/fs.js";
import type { CliArgs } from "./args.js";

/** What checking the path arguments reads: the file system and where relative paths start. */
export interface PathCheckIo {
  fs: FsOps;
  /** The directory the command was started in (relative arguments resolve against it). */
  cwd: string;
  env: Record<string, string | undefined>;
}

/** `--flag value` shown as typed, then why it cannot be used. */
function refusal(flag: string, value: string, why: string): string {
  return `${flag} ${value}: ${why}`;
}

/** Why `path` is not a folder to read, or undefined when it is one. */
async function notAFolder(fs: FsOps, path: string): Promise<string | undefined> {
  try {
    const stat = await fs.stat(path);
    return stat.kind === "dir" ? undefined : "not a folder";
  } catch (error) {
    return errorCode(error) === "ENOENT" ? "no such folder" : errorMessage(error);
  }
}

/** Why a file cannot be written at `path` (its folder is missing or not one), or undefined. */
async function notWritableAt(fs: FsOps, path: string): Promise<string | undefined> {
  const why = await notAFolder(fs, dirname(path));
  return why === undefined ? undefined : `its folder ${dirname(path)}: ${why}`;
}

/**
 * The folders the arguments name: `--cwd`, `--add-dir`, `--plugin-dir`, `--skills-dir`, each resolved
 * against `cwd`, with the flag that named it.
 */
function folderArguments(args: CliArgs): { flag: string; value: string }[] {
  return [
    ...(args.cwd === undefined ? [] : [{ flag: "--cwd", value: args.cwd }]),
    ...args.addDirs.map((value) => ({ flag: "--add-dir", value })),
    ...args.pluginDirs.map((value) => ({ flag: "--plugin-dir", value })),
    ...args.skillsDirs.map((value) => ({ flag: "--skills-dir", value })),
  ];
}

/**
 * Checks every path argument before a command runs, so a typo is one clear error instead of an empty result:
 * the folders (`--cwd`, `--add-dir`, `--plugin-dir`, `--skills-dir`) must exist, `--mcp-config` files must be
 * readable MCP configs (inline JSON must parse as one), and the folder of `--debug-file` must exist
 * (`test --junit` says at the end when it cannot write its report, after the run it reports). Returns the first problem (`--cwd /nope: no such folder`), or undefined when all are usable.
 */
export async function checkPathArguments(args: CliArgs, io: PathCheckIo): Promise<string | undefined> {
  for (const { flag, value } of folderArguments(args)) {
    const why = await notAFolder(io.fs, resolve(io.cwd, value));
    if (why !== undefined) return refusal(flag, value, why);
  }
  if (args.debugFile !== undefined) {
    const why = await notWritableAt(io.fs, resolve(io.cwd, args.debugFile));
    if (why !== undefined) return refusal("--debug-file", args.debugFile, why);
  }
  if (args.mcpConfigs.length === 0) return undefined;
  // Loaded only when the flag is given: the MCP config schema is no part of a plain command's start-up.
  const { loadMcpConfigs } = await import("../mcp/config.js");
  for (const value of args.mcpConfigs) {
    const loaded = await loadMcpConfigs({ fs: io.fs, files: [value], env: io.env, cwd: io.cwd });
    const error = loaded.diagnostics.find((d) => d.severity === "error");
    if (error !== undefined) {
      const shown = value.trimStart().startsWith("{") ? "(inline JSON)" : value;
      return refusal("--mcp-config", shown, error.message);
    }
  }
  return undefined;
}
