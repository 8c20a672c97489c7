import { basename, dirname, join, relative, sep } from "node:path";
import ignore, { type Ignore } from "ignore";
import { isInside } from "../config/project.js";
import type { FsOps } from "../io/fs.js";

/** Dirs never searched for nested skills, whatever the ignore files say. */
export const NEVER_SEARCHED_DIRS: readonly string[] = [".git", "node_modules"];
/** The ignore file read in each dir. */
export const GITIGNORE_FILE = ".gitignore";

/** Answers whether a dir below the cwd is git-ignored. */
export type IsIgnoredDir = (absDir: string) => Promise<boolean>;

/** Options of `createIgnoredDirCheck`. */
export interface IgnoredDirCheckOptions {
  fs: FsOps;
  cwd: string;
  /**
   * The repository root when it is above the cwd: its `.gitignore` files down to the cwd apply too. Ignored
   * unless it is the cwd or an ancestor of it.
   */
  gitRoot?: string;
}

/**
 * A session-owned check of dirs below the cwd: a dir is ignored when its name is in `NEVER_SEARCHED_DIRS`,
 * when its parent is ignored (git cannot re-include below an excluded dir), or when the `.gitignore` files
 * from the git root (or the cwd) down to its parent exclude it (a deeper `!pattern` re-includes). The cwd and
 * dirs outside it are never ignored. Each `.gitignore` is read once and each verdict cached; unreadable ignore
 * files count as absent. Never rejects.
 */
export function createIgnoredDirCheck(options: IgnoredDirCheckOptions): IsIgnoredDir {
  const { fs, cwd } = options;
  const base = options.gitRoot !== undefined && isInside(cwd, options.gitRoot) ? options.gitRoot : cwd;
  const layers = new Map<string, Promise<Ignore | undefined>>();
  const verdicts = new Map<string, Promise<boolean>>();

  const layer = (dir: string): Promise<Ignore | undefined> => {
    let pending = layers.get(dir);
    if (pending === undefined) {
      pending = fs.readFile(join(dir, GITIGNORE_FILE)).then(
        (text) => ignore({ allowRelativePaths: true }).add(text),
        () => undefined,
      );
      layers.set(dir, pending);
    }
    return pending;
  };

  const decide = async (dir: string): Promise<boolean> => {
    if (NEVER_SEARCHED_DIRS.includes(basename(dir))) return true;
    const parent = dirname(dir);
    if (parent !== cwd && (await check(parent))) return true;
    const chain: string[] = [];
    for (let d = parent; ; d = dirname(d)) {
      chain.unshift(d);
      if (d === base || dirname(d) === d) break;
    }
    let ignored = false;
    for (const d of chain) {
      const rules = await layer(d);
      if (rules === undefined) continue;
      const rel = relative(d, dir).split(sep).join("/");
      const verdict = rules.test(`${rel}/`);
      if (verdict.ignored) ignored = true;
      else if (verdict.unignored) ignored = false;
    }
    return ignored;
  };

  const check: IsIgnoredDir = (dir) => {
    if (dir === cwd || !isInside(dir, cwd)) return Promise.resolve(false);
    let verdict = verdicts.get(dir);
    if (verdict === undefined) {
      verdict = decide(dir).catch(() => false);
      verdicts.set(dir, verdict);
    }
    return verdict;
  };
  return check;
}
