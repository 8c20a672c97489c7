import { isAbsolute, join, normalize, sep } from "node:path";

/** Resolves `relative` under `dir`, or undefined when it is empty, absolute or climbs out. Pure. */
export function safeJoin(dir: string, relative: string): string | undefined {
  if (relative === "" || relative.includes("\0") || isAbsolute(relative)) return undefined;
  const normal = normalize(relative);
  if (normal === ".." || normal.startsWith(`..${sep}`) || isAbsolute(normal)) return undefined;
  return join(dir, normal);
}
