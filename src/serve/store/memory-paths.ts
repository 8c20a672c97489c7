import { PATH_LIMITS, pathProblem } from "../../io/path-limits.js";

/** What a memory may hold and where, as the SDK documents it (`MemoryCreateParams`). */
export const MEMORY_LIMITS = {
  /** A path's bytes in UTF-8 (the limit every path keeps, `PATH_LIMITS`). */
  maxPathBytes: PATH_LIMITS.maxBytes,
  /** A path's segments (`/a/b` has two). */
  maxSegments: PATH_LIMITS.maxSegments,
  /** A memory's content in UTF-8 bytes (100 kB). */
  maxContentBytes: 102_400,
} as const;

/**
 * What is wrong with `path` as a memory's path, or undefined when it is one: the rules every path keeps
 * (`pathProblem`: a leading `/`, 1 to 20 non-empty segments, none `.` or `..`, no control or format character
 * nor U+2028/U+2029, Unicode NFC, at most 1,024 bytes). Pure.
 */
export function memoryPathProblem(path: string): string | undefined {
  return pathProblem(path, "a memory path");
}

/** What is wrong with `prefix` as a list's `path_prefix` (a path prefix ending in `/`), or undefined. Pure. */
export function memoryPrefixProblem(prefix: string): string | undefined {
  if (prefix === "/") return undefined;
  if (!prefix.endsWith("/")) return `path_prefix ends with "/": ${JSON.stringify(prefix)}`;
  return memoryPathProblem(prefix.slice(0, -1));
}

/** Whether two memory paths clash in one store: equal, or one a directory above the other. Pure. */
export function pathsOverlap(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/**
 * The entry a `depth`-limited listing shows for `path` under `prefix` (ending in `/`): the path itself when
 * it is at most `depth` segments below the prefix, else the `memory_prefix` directory `depth` segments down
 * (with its trailing `/`). `depth` 0 lists every path. Pure.
 */
export function listedEntry(
  path: string,
  prefix: string,
  depth: number,
): { kind: "memory" } | { kind: "prefix"; path: string } {
  if (depth === 0) return { kind: "memory" };
  const below = path.slice(prefix.length).split("/");
  if (below.length <= depth) return { kind: "memory" };
  return { kind: "prefix", path: `${prefix}${below.slice(0, depth).join("/")}/` };
}

/** The directory name a store mounts as under `/mnt/memory/`: its name lowercased, other runs as one `-`. Pure. */
export function storeSlug(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug === "" ? "store" : slug;
}

/** A memory's content size in UTF-8 bytes. Pure. */
export function contentBytes(content: string): number {
  return Buffer.byteLength(content, "utf8");
}
