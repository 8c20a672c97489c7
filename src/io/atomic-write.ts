import * as nodeFs from "node:fs/promises";
import * as path from "node:path";
import { errorCode, type FsOps } from "./fs.js";

/**
 * File permission bits, which `FsOps` does not cover. Optional: without it an atomic write gives a replaced
 * file the default mode (an executable script would lose its `x` bit).
 */
export interface FileModeOps {
  /** The permission bits of `path`, or undefined when it does not exist. */
  getMode(path: string): Promise<number | undefined>;
  setMode(path: string, mode: number): Promise<void>;
}

/** `FileModeOps` through `node:fs/promises`. */
export function createNodeFileModes(): FileModeOps {
  return {
    async getMode(p) {
      try {
        return (await nodeFs.stat(p)).mode & 0o7777;
      } catch (error) {
        if (errorCode(error) === "ENOENT") return undefined;
        throw error;
      }
    },
    setMode: (p, mode) => nodeFs.chmod(p, mode),
  };
}

/**
 * The temp file name used for an atomic write of `target`: hidden, beside it, unique. (The global Web Crypto,
 * not a static `node:crypto` import: modules that only might write load nothing for it at start-up.)
 */
export function tempPathFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${crypto.randomUUID().slice(0, 8)}.tmp`);
}

/**
 * Writes `data` to `target` atomically: a temp file in the same directory, then a rename over the target, so a
 * reader sees the old or the new content, never a half-written file. A symlinked target is resolved first
 * (the link stays a link). Keeps the mode bits when `modes` is given. Removes the temp file on failure and
 * rethrows. The parent directory must exist.
 */
export async function writeFileAtomic(
  fs: FsOps,
  target: string,
  data: string | Uint8Array,
  modes?: FileModeOps,
): Promise<void> {
  let real = target;
  try {
    real = await fs.realpath(target);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
  }
  if (fs.atomicWrites === true) {
    await fs.writeFile(real, data);
    return;
  }
  const temp = tempPathFor(real);
  try {
    await fs.writeFile(temp, data);
    const mode = await modes?.getMode(real);
    if (modes !== undefined && mode !== undefined) await modes.setMode(temp, mode);
    await fs.rename(temp, real);
  } catch (error) {
    await fs.rm(temp).catch(() => {});
    throw error;
  }
}
