import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import type { RequestBody } from "../support/harness.js";
import { TEST_API_KEY, type TestModel } from "../support/model-server.js";
import type { TmpTree } from "../support/tmp-tree.js";

/** The shipped bin (package.json "bin"): what users run, so what the CLI tests run. */
export const BIN = fileURLToPath(new URL("../../dist/bin/main.js", import.meta.url));

/** Fails with a clear message when the bundle has not been built. */
export function assertBuilt(): void {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` before the tests`);
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the shipped bin (`node dist/bin/main.js`) against a temp tree: cwd `home/repo` and home `home` unless
 * `--cwd`/`--home` say otherwise, managed dir `managed/`, bundled dir `bundled/`. Nothing is inherited from the
 * test's environment but PATH (no API key leaks in); `env` adds variables. Output is captured.
 */
export async function cli(
  tree: TmpTree,
  argv: string[],
  cwd = "home/repo",
  env: Record<string, string> = {},
): Promise<CliResult> {
  assertBuilt();
  const result = await execa(process.execPath, [BIN, ...argv], {
    cwd: tree.path(cwd),
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      SKILLWRIGHT_MANAGED_DIR: tree.path("managed"),
      HOME: tree.path("home"),
      SKILLWRIGHT_HOME: tree.path("home"),
      SKILLWRIGHT_BUNDLED_DIR: tree.path("bundled"),
      ...env,
    },
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    stdin: "ignore",
    timeout: 30_000,
  });
  const code = result.exitCode ?? 1;
  return { code, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** Parses JSON output, failing the test with the raw text when it is not JSON. */
export function json<T = unknown>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  }
}

/**
 * `stderr` without the progress lines the CLI writes off a terminal for work over a second (src/cli/progress.ts:
 * `fetching SOURCE…`): whether one shows depends on how busy the machine is, so tests of other output drop it.
 */
export function withoutProgress(stderr: string): string {
  return stderr.replace(/^[^\n]*…\n/gm, "");
}

/**
 * Runs the bin (see {@link cli}) against the scripted model server of `model` (its key and URL in the
 * environment); returns the run and the Messages API request bodies the server received, in order.
 */
export async function cliWithModel(
  tree: TmpTree,
  model: TestModel,
  argv: string[],
  cwd = "home/repo",
  env: Record<string, string> = {},
): Promise<{ result: CliResult; bodies: RequestBody[] }> {
  const result = await cli(tree, argv, cwd, {
    ANTHROPIC_API_KEY: TEST_API_KEY,
    ANTHROPIC_BASE_URL: model.server.url,
    ...env,
  });
  const bodies = model.server.requests
    .filter((r) => r.path === "/v1/messages")
    .map((r) => r.body as RequestBody);
  return { result, bodies };
}
