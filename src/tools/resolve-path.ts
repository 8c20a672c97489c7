import * as path from "node:path";

/**
 * Resolves a path a model wrote: `~` and `~/x` against `homeDir`, relative paths against `cwd`, absolute paths
 * as they are. The result is normalised and absolute. Pure.
 */
export function resolveToolPath(input: string, cwd: string, homeDir: string): string {
  if (input === "~") return homeDir;
  if (input.startsWith("~/")) return path.resolve(homeDir, input.slice(2));
  return path.resolve(cwd, input);
}

/** `abs` relative to `cwd` for display (`.` for the cwd itself); paths outside `cwd` stay absolute. */
export function displayPath(abs: string, cwd: string): string {
  const rel = path.relative(cwd, abs);
  if (rel === "") return ".";
  if (rel.startsWith("..") || path.isAbsolute(rel)) return abs;
  return rel;
}
