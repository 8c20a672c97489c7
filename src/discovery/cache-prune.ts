import { join } from "node:path";
import type { FsOps } from "../io/fs.js";

/** A project's cache file not rewritten for this long is removed (its next run reads its skills again). */
export const CACHE_FILE_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1_000;
/** A temp file this old is left from a write that never finished (a killed process). */
export const STALE_TEMP_MS = 60 * 60 * 1_000;

/**
 * Removes old cache files (ending in `suffix`, `.json` by default, older than {@link CACHE_FILE_MAX_AGE_MS}) and
 * abandoned temp files (`*.tmp` older than {@link STALE_TEMP_MS}) from the cache `dir`, never `keep`.
 * Housekeeping, best effort: anything it cannot list, stat or remove is left alone, and it never rejects.
 */
export async function pruneCacheDir(
  fs: FsOps,
  dir: string,
  keep: string,
  now: number,
  suffix = ".json",
): Promise<string[]> {
  const removed: string[] = [];
  const entries = await fs.readdir(dir).catch(() => []);
  for (const entry of entries) {
    const path = join(dir, entry.name);
    const maxAge = entry.name.endsWith(suffix)
      ? CACHE_FILE_MAX_AGE_MS
      : entry.name.endsWith(".tmp")
        ? STALE_TEMP_MS
        : undefined;
    if (entry.kind !== "file" || maxAge === undefined || path === keep) continue;
    const stat = await fs.stat(path).catch(() => undefined);
    if (stat === undefined || now - stat.mtimeMs <= maxAge) continue;
    if (
      await fs.rm(path).then(
        () => true,
        () => false,
      )
    )
      removed.push(path);
  }
  return removed;
}
