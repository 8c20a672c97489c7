import { execa } from "execa";
import { assertBuilt, BIN } from "../cli/run-cli.js";
import type { TmpTree } from "../support/tmp-tree.js";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the shipped bin (`node dist/bin/main.js`) on a temp tree with a chosen cwd, home and environment (the
 * managed dir is always pointed inside the tree, and there are no bundled skills unless `bundledDir` says so).
 * Nothing is inherited from the test's environment but PATH.
 */
export async function runIn(
  tree: TmpTree,
  argv: string[],
  options: { cwd?: string; home?: string; env?: Record<string, string>; bundledDir?: string } = {},
): Promise<CliRun> {
  assertBuilt();
  const result = await execa(process.execPath, [BIN, ...argv], {
    cwd: tree.path(options.cwd ?? "project"),
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      SKILLWRIGHT_MANAGED_DIR: tree.path("managed"),
      HOME: tree.path(options.home ?? "home"),
      SKILLWRIGHT_HOME: tree.path(options.home ?? "home"),
      SKILLWRIGHT_BUNDLED_DIR: options.bundledDir ?? tree.path("no-bundled"),
      ...options.env,
    },
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    stdin: "ignore",
    timeout: 30_000,
  });
  return { code: result.exitCode ?? 1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** Parses a CLI run's stdout as JSON, failing with the raw output when it is not JSON. */
export function parsed<T>(run: CliRun): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
  }
}
