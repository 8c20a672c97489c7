import { createHash } from "node:crypto";
import { join } from "node:path";
import type { FsOps } from "../io/fs.js";

/** Dirs the folder hash never enters, at any depth (as the `skills` installer). */
export const HASH_SKIPPED_DIRS: ReadonlySet<string> = new Set([".git", "node_modules"]);
/** How deep the hash walk goes: a deeper tree is not a skill. */
export const MAX_HASH_DEPTH = 32;

/** One file of a skill folder: its `/`-separated path relative to the folder, and its bytes. */
export interface FolderFile {
  path: string;
  bytes: Uint8Array;
}

/** A folder's hashes: the `skills` installer's `computedHash` and the SHA-256 of each file. */
export interface FolderHash {
  computedHash: string;
  files: Record<string, string>;
}

/**
 * The hashes of a folder's files, computed exactly as the `skills` installer computes `computedHash`: the files
 * sorted by relative path with `localeCompare`, then one SHA-256 over each path's UTF-8 bytes followed by the
 * file's bytes, as hex. `files` maps each path to its own SHA-256. Pure.
 */
export function hashFolderFiles(files: readonly FolderFile[]): FolderHash {
  const sorted = [...files].sort((a, b) => a.path.localeCompare(b.path));
  const whole = createHash("sha256");
  const each: Record<string, string> = {};
  for (const file of sorted) {
    whole.update(file.path);
    whole.update(file.bytes);
    each[file.path] = createHash("sha256").update(file.bytes).digest("hex");
  }
  return { computedHash: whole.digest("hex"), files: each };
}

/**
 * Reads the regular files under `dir` as the `skills` installer's hash does: links are not followed nor
 * counted, `.git` and `node_modules` dirs are skipped. Throws when `dir` cannot be read.
 */
export async function readFolderFiles(fs: FsOps, dir: string): Promise<FolderFile[]> {
  const out: FolderFile[] = [];
  const walk = async (abs: string, rel: string, depth: number): Promise<void> => {
    for (const entry of await fs.readdir(abs)) {
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      const child = join(abs, entry.name);
      if (entry.kind === "dir") {
        if (!HASH_SKIPPED_DIRS.has(entry.name) && depth < MAX_HASH_DEPTH) await walk(child, path, depth + 1);
      } else if (entry.kind === "file") out.push({ path, bytes: await fs.readBytes(child) });
    }
  };
  await walk(dir, "", 0);
  return out;
}

/** {@link hashFolderFiles} of {@link readFolderFiles}. Throws when `dir` cannot be read. */
export async function hashFolder(fs: FsOps, dir: string): Promise<FolderHash> {
  return hashFolderFiles(await readFolderFiles(fs, dir));
}
