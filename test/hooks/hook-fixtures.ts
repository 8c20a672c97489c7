import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A temp dir for one test, removed by `cleanup`. */
export async function makeTmp(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "skillwright-hooks-"));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Writes an executable bash script and returns the command that runs it. */
export async function writeScript(dir: string, name: string, body: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `#!/usr/bin/env bash\n${body}\n`, { mode: 0o755 });
  return `bash '${path}'`;
}

export { isAlive, waitUntil as eventually } from "../support/processes.js";
