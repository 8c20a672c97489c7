import { chmod, mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { tempPathFor } from "./atomic-write.js";

/**
 * Writes `text` to `path` so only its owner can ever read it: a temp file created with mode 0600 (never wider,
 * whatever the umask), then renamed over the target; the folder is made 0700 when it is new. Rejects on I/O
 * errors, leaving the old file as it was.
 */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = tempPathFor(path);
  try {
    await writeFile(temp, text, { mode: 0o600, flag: "wx" });
    await chmod(temp, 0o600);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
