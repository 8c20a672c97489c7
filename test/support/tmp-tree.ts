import { readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A symlink entry: `target` is written as given (relative targets resolve against the link's dir). */
export interface SymlinkSpec {
  symlink: string;
}

/** A directory entry with no content (for dirs that must exist but hold nothing, e.g. `.git`). */
export interface DirSpec {
  dir: true;
}

/** What a path in the tree holds: text (UTF-8), raw bytes, a symlink, or an empty directory. */
export type TreeEntry = string | Uint8Array | SymlinkSpec | DirSpec;

export interface TmpTree {
  /** The real temp dir (already a realpath, so paths compare equal to what the engine reports). */
  root: string;
  /** Absolute path of a tree-relative path. */
  path(relative?: string): string;
  /** Removes the whole tree. */
  cleanup(): Promise<void>;
}

/**
 * Builds a real directory tree under `os.tmpdir()`: keys are `/`-separated relative paths; parent dirs are
 * created as needed. Symlinks are created after every file and dir, so they may point at anything in the tree.
 */
export async function tmpTree(entries: Record<string, TreeEntry> = {}): Promise<TmpTree> {
  const root = await realpath(await mkdtemp(join(tmpdir(), "skillwright-test-")));
  const path = (relative = "") => (relative === "" ? root : join(root, ...relative.split("/")));
  const links: [string, string][] = [];
  for (const [relative, entry] of Object.entries(entries)) {
    const target = path(relative);
    if (typeof entry === "object" && "symlink" in entry) {
      links.push([target, entry.symlink]);
      continue;
    }
    if (typeof entry === "object" && "dir" in entry) {
      await mkdir(target, { recursive: true });
      continue;
    }
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, entry);
  }
  for (const [link, target] of links) {
    await mkdir(dirname(link), { recursive: true });
    await symlink(target, link);
  }
  return { root, path, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** Every file under `dir` (a skill's fixture folder, say), by path relative to it, read synchronously. */
export function readTree(dir: string, prefix = ""): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) Object.assign(out, readTree(dir, rel));
    else out[rel] = readFileSync(join(dir, rel));
  }
  return out;
}

/** `entries` with every path put under the folder `prefix` (`under("home/repo", {"a.md": …})`), for `tmpTree`. */
export function under(
  prefix: string,
  entries: Readonly<Record<string, TreeEntry>>,
): Record<string, TreeEntry> {
  return Object.fromEntries(Object.entries(entries).map(([path, entry]) => [`${prefix}/${path}`, entry]));
}
