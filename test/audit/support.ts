import { runCli } from "../../src/cli/run.js";
import type { TmpTree } from "../support/tmp-tree.js";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI in-process on a temp tree with a chosen cwd, home and environment (the managed dir is always
 * pointed inside the tree, and there are no bundled skills unless `bundledDir` says so).
 */
export async function runIn(
  tree: TmpTree,
  argv: string[],
  options: { cwd?: string; home?: string; env?: Record<string, string>; bundledDir?: string } = {},
): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: { SKILLWRIGHT_MANAGED_DIR: tree.path("managed"), ...options.env },
    cwd: tree.path(options.cwd ?? "project"),
    home: tree.path(options.home ?? "home"),
    bundledDir: options.bundledDir ?? tree.path("no-bundled"),
  });
  return { code, stdout, stderr };
}

/** Parses a CLI run's stdout as JSON, failing with the raw output when it is not JSON. */
export function parsed<T>(run: CliRun): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
  }
}
