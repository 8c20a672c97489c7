import { runCli } from "../../src/cli/run.js";
import type { TmpTree } from "../support/tmp-tree.js";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI in-process against a temp tree: cwd `home/repo` and home `home` unless `--cwd`/`--home` say
 * otherwise, managed dir `managed/`, bundled dir `bundled/`. Output is captured.
 */
export async function cli(tree: TmpTree, argv: string[], cwd = "home/repo"): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: { SKILLWRIGHT_MANAGED_DIR: tree.path("managed") },
    cwd: tree.path(cwd),
    home: tree.path("home"),
    bundledDir: tree.path("bundled"),
  });
  return { code, stdout, stderr };
}

/** Parses JSON output, failing the test with the raw text when it is not JSON. */
export function json<T = unknown>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  }
}
