// Serve start-up bench: the time from spawning `serve` (the shipped bin) on a fresh PGlite database to its first
// 200 on GET /readyz, against a floor that does only what such a start cannot skip (bench/serve-startup-floor.js:
// a bare node process that opens a fresh PGlite database, applies the same migrations and answers /readyz).
// Runs of the two alternate, each on a new database directory.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { childEnv, fmtMs, fmtRatio, formatTable, median, withTempDir } from "./lib.js";
import { procStat } from "./proc-stat.js";

/** Starts of each (`SERVE_STARTUP_RUNS` overrides): a fresh PGlite database takes seconds, so few. */
export const RUNS = Number(process.env.SERVE_STARTUP_RUNS ?? 3);
/** Target of the issue: serve's start-up over the floor's. */
export const TARGETS = { ratio: 1.5 };
const API_KEY = "sk-bench-serve-startup";

/**
 * Spawns `args` (node's), waits for its `listening on URL` line, then asks URL/readyz until it answers 200.
 * Returns the wall time from spawn to that answer and the process's CPU time then.
 * @param {string[]} args
 * @returns {Promise<{ ms: number; cpuMs: number }>}
 */
async function timeToReady(args) {
  const started = performance.now();
  const child = spawn(process.execPath, args, { env: childEnv(), stdio: ["ignore", "pipe", "pipe"] });
  try {
    let out = "";
    let err = "";
    child.stderr.on("data", (chunk) => {
      if (err.length < 10_000) err += chunk.toString();
    });
    const url = await new Promise((resolve, reject) => {
      child.stdout.on("data", (chunk) => {
        if (out.length < 10_000) out += chunk.toString();
        const match = /listening on (\S+)/.exec(out);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      child.once("exit", (code) => reject(new Error(`exited (${code}) before listening: ${out}${err}`)));
    });
    for (;;) {
      const response = await fetch(`${url}/readyz`).catch(() => undefined);
      await response?.arrayBuffer();
      if (response?.status === 200) break;
      if (child.exitCode !== null) throw new Error(`exited (${child.exitCode}) before ready: ${err}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const ms = performance.now() - started;
    return { ms, cpuMs: procStat(child.pid ?? 0)?.cpuMs ?? 0 };
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
  }
}

/** @param {import("./lib.js").BenchContext} ctx */
export async function run(ctx) {
  const bin = join(ctx.repoRoot, "dist/bin/main.js");
  const floorScript = join(ctx.repoRoot, "bench/serve-startup-floor.js");
  /** @type {{ ms: number; cpuMs: number }[]} */
  const serve = [];
  /** @type {{ ms: number; cpuMs: number }[]} */
  const floor = [];
  for (let n = 0; n < RUNS; n++) {
    await withTempDir("skillwright-startup-floor-", async (dir) => {
      floor.push(await timeToReady([floorScript, join(dir, "db")]));
    });
    await withTempDir("skillwright-startup-serve-", async (dir) => {
      serve.push(
        await timeToReady([bin, "serve", "--port", "0", "--db", join(dir, "db"), "--api-key", API_KEY]),
      );
    });
  }
  const serveMs = median(serve.map((s) => s.ms));
  const floorMs = median(floor.map((s) => s.ms));
  const ratio = serveMs / floorMs;
  ctx.log(
    `serve-startup: spawn → first 200 on GET /readyz, fresh PGlite database each start, median of ${RUNS}`,
  );
  ctx.log(
    formatTable(
      ["row", "wall", "CPU", "× floor"],
      [
        [
          "floor: node + PGlite open + migrations + /readyz",
          fmtMs(floorMs),
          fmtMs(median(floor.map((s) => s.cpuMs))),
          fmtRatio(1),
        ],
        [
          "skillwright serve --db DIR",
          fmtMs(serveMs),
          fmtMs(median(serve.map((s) => s.cpuMs))),
          `${fmtRatio(ratio)} (target ≤ ${TARGETS.ratio}×)`,
        ],
      ],
    ),
  );
  return { serveMs, floorMs, ratio };
}

/** The closing note's line. @param {{ serveMs: number; floorMs: number; ratio: number }} f */
export function closing(f) {
  const verdict = f.ratio <= TARGETS.ratio ? "met" : "MISSED";
  return [
    `serve on a fresh PGlite database is ready in ${fmtMs(f.serveMs)} ms, ${fmtRatio(f.ratio)} of the floor's ${fmtMs(f.floorMs)} ms (target ≤ ${TARGETS.ratio}×: ${verdict})`,
  ];
}
