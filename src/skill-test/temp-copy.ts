import { cp, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { TempCopy } from "./run-expansion.js";

/** Copies `dir` (recursively, symlinks kept as links) into a new temp dir; `cleanup` removes it. */
export async function copyToTemp(dir: string): Promise<TempCopy> {
  const root = await realpath(await mkdtemp(join(tmpdir(), "skillwright-skill-test-")));
  const target = join(root, basename(dir));
  await cp(dir, target, { recursive: true, verbatimSymlinks: true });
  return { dir: target, cleanup: () => rm(root, { recursive: true, force: true }) };
}
