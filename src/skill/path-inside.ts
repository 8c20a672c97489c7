import { isAbsolute, relative, sep } from "node:path";

/**
 * True when `path` is `root` or lies under it, compared as paths (so `/a/bc` is not inside `/a/b`). Both should
 * be real paths (symlinks resolved) when the question is where a file really is. Pure.
 */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
