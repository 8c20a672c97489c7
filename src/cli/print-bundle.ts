import { resolve } from "node:path";
import { CODE_CACHE_DEBUG_ENV, type CodeCacheFs, codeCacheFile, loadCachedScript } from "./code-cache.js";
import type { CliIo } from "./io.js";

/** The print bundle's entry: `runCli` of run.ts, built into one CommonJS file (scripts/bundle.mjs). */
type RunCli = (argv: readonly string[], io: CliIo) => Promise<number>;

function runCliOf(exports: unknown): RunCli | undefined {
  if (typeof exports !== "object" || exports === null || !("runCli" in exports)) return undefined;
  const runCli: unknown = exports.runCli;
  return typeof runCli === "function"
    ? (argv, io) => Promise.resolve(runCli(argv, io)).then(Number)
    : undefined;
}

/**
 * Runs a -p invocation (or a command the print bundle carries: `tag`) through the print bundle `file` (one CommonJS file), compiled through the V8 code
 * cache under `home` (`codeCacheFile`): the first run compiles it from source and, once the command has
 * finished (its answer printed), writes the cache; later runs compile from the cache. With
 * `SKILLWRIGHT_CODE_CACHE_DEBUG` set, writes one stderr line: `skillwright: code cache <status>, <save>`.
 * Resolves to the command's exit code; throws what loading the bundle throws.
 */
export async function runPrintBundle(input: {
  file: string;
  argv: readonly string[];
  io: CliIo;
  /** `--home` as given, if it was. */
  home: string | undefined;
  /**
   * The command run (`list`, …; absent for -p): each keeps its own cache file, since a cache holds the code of
   * the functions the run that wrote it compiled, and is not written again once accepted.
   */
  tag?: string;
  runtime: { version: string; arch: string };
  fs: CodeCacheFs;
}): Promise<number> {
  const { io } = input;
  const home = resolve(io.cwd, input.home ?? io.home);
  const cacheFile = codeCacheFile({
    home,
    env: io.env,
    script: input.file,
    runtime: input.runtime,
    ...(input.tag === undefined ? {} : { tag: input.tag }),
  });
  const loaded = loadCachedScript({ file: input.file, cacheFile, fs: input.fs });
  const runCli = runCliOf(loaded.exports);
  if (runCli === undefined) throw new Error(`${input.file} has no runCli export`);
  const code = await runCli(input.argv, io);
  const saved = loaded.save();
  if ((io.env[CODE_CACHE_DEBUG_ENV] ?? "") !== "") {
    io.stderr(`skillwright: code cache ${loaded.status}, ${saved}\n`);
  }
  return code;
}
