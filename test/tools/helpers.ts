import { mkdtemp, readFile, rm } from "node:fs/promises";
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

/** True when `pid` is a live process (a zombie counts as dead). Linux only. */
export async function isAlive(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2).charAt(0);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/** Polls `check` until it is true or `timeoutMs` passes. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
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
