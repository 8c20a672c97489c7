import { basename, join } from "node:path";

/**
 * The discovery cache file for a project (its git root, else the cwd) inside the cache `dir`:
 * `{dir}/{project dir name}-{hash of its path}.json`, so that every working directory of one repository shares
 * one file. Pure.
 */
export function cacheFileFor(dir: string, projectDir: string): string {
  const label =
    basename(projectDir)
      .replace(/[^\w.-]/g, "_")
      .slice(0, 40) || "root";
  return join(dir, `${label}-${fnv1a(projectDir)}.json`);
}

/** 32-bit FNV-1a of the UTF-16 code units, as 8 hex digits: a file name, not a security boundary. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}
