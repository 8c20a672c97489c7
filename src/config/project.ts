import { dirname, isAbsolute, relative, sep } from "node:path";
import type { FsOps } from "../io/fs.js";

/**
 * The project dirs whose skills load at start: the cwd and each ancestor up to the git root (nearest first).
 * Without a repo: up to (not including) the home dir when the cwd is under it, else the cwd alone. The home
 * dir itself is never a project dir (its roots are the user roots).
 */
export async function projectDirs(
  fs: FsOps,
  cwd: string,
  home: string,
): Promise<{ dirs: string[]; gitRoot?: string }> {
  const chain: string[] = [];
  let dir = cwd;
  for (;;) {
    // The home dir's roots are the user roots; as a project dir it would only load them twice.
    if (dir !== home) chain.push(dir);
    if (await isGitRoot(fs, dir)) return { dirs: chain, gitRoot: dir };
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  if (cwd === home) return { dirs: [] };
  if (!isInside(cwd, home)) return { dirs: [cwd] };
  return { dirs: chain.filter((d) => d !== home && isInside(d, home)) };
}

async function isGitRoot(fs: FsOps, dir: string): Promise<boolean> {
  try {
    await fs.stat(`${dir === sep ? "" : dir}${sep}.git`);
    return true;
  } catch {
    return false;
  }
}

/** True when `path` is `dir` or below it. */
export function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
