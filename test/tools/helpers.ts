import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { ToolContext, ToolResult } from "../../src/tools/define-tool.js";

/** A fresh temp dir; remove it with `removeTmp`. */
export function makeTmp(prefix = "skillwright-tools-"): Promise<string> {
  return mkdtemp(path.join(tmpdir(), prefix));
}

export function removeTmp(dir: string): Promise<void> {
  return rm(dir, { recursive: true, force: true });
}

/** A tool context for `cwd`, with a fresh signal unless one is given. */
export function ctxFor(cwd: string, extra: Partial<ToolContext> = {}): ToolContext {
  return { cwd, signal: new AbortController().signal, toolUseId: "toolu_test", ...extra };
}

/** All text blocks of a result, joined with newlines. */
export function textOf(result: ToolResult): string {
  return result.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
}

/** Writes `files` (relative path → content) under `root`, creating dirs. */
export async function writeTree(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
  const { mkdir, writeFile } = await import("node:fs/promises");
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, content);
  }
}

export { isAlive, waitUntil as waitFor } from "../support/processes.js";
