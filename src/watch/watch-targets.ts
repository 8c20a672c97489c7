import { basename, dirname } from "node:path";
import type { FsOps } from "../io/fs.js";

/** One directory to watch for skill changes. */
export interface WatchTarget {
  dir: string;
  /** A skill root that exists: everything under it counts. */
  recursive: boolean;
  /**
   * For the nearest existing parent of roots that do not exist yet: the names of its children on the way to
   * them (`.claude` for a missing `.claude/skills`). Only events on those count; absent when `recursive`.
   */
  toward?: string[];
}

/**
 * What to watch for `roots` (skill roots in precedence order): each root that is a directory, recursively;
 * for each one that is not there yet, its nearest existing ancestor, non-recursively and only for the child on
 * the way to it (so a project's other files never trigger a reload). One target per directory, in first-seen
 * order. Never throws.
 */
export async function watchTargets(fs: FsOps, roots: readonly string[]): Promise<WatchTarget[]> {
  const byDir = new Map<string, WatchTarget>();
  for (const root of roots) {
    let dir = root;
    let child: string | undefined;
    while ((await kindOf(fs, dir)) !== "dir") {
      const parent = dirname(dir);
      if (parent === dir) break;
      child = basename(dir);
      dir = parent;
    }
    const existing = byDir.get(dir);
    if (child === undefined) {
      byDir.set(dir, { dir, recursive: true });
    } else if (existing === undefined) {
      byDir.set(dir, { dir, recursive: false, toward: [child] });
    } else if (!existing.recursive && !existing.toward?.includes(child)) {
      existing.toward = [...(existing.toward ?? []), child];
    }
  }
  return [...byDir.values()];
}

async function kindOf(fs: FsOps, path: string): Promise<string | undefined> {
  return fs.stat(path).then(
    (s) => s.kind,
    () => undefined,
  );
}

/** True when an event on `filename` (relative to the target's dir) concerns skills. Pure. */
export function isRelevantEvent(target: WatchTarget, filename: string | undefined): boolean {
  if (target.recursive) return true;
  if (filename === undefined) return true;
  const first = filename.split(/[/\\]/)[0] ?? filename;
  return target.toward?.includes(first) ?? false;
}
