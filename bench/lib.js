// Shared helpers for `npm run bench`: seeded randomness, timing (median of N), child processes, tables.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, open, readFile, rm } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import * as v8 from "node:v8";
import * as vm from "node:vm";
import { parseProcStat, TICKS_PER_SECOND } from "./proc-stat.js";

/** Default timed runs per measurement (the brief asks for at least 10). */
export const DEFAULT_RUNS = 10;
/** Untimed runs before timing starts (JIT, page cache). */
export const DEFAULT_WARMUP = 2;

/**
 * @typedef {object} Rng
 * @property {() => number} next a float in [0, 1)
 * @property {(lo: number, hi: number) => number} int an integer in [lo, hi]
 * @property {(p: number) => boolean} chance true with probability p
 * @property {<T>(items: readonly T[]) => T} pick one item; throws on an empty list
 */

/**
 * A seeded PRNG (mulberry32): the same seed gives the same sequence on every machine and Node version.
 * @param {number} seed
 * @returns {Rng}
 */
export function createRng(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  /**
   * @template T
   * @param {readonly T[]} items
   * @returns {T}
   */
  const pick = (items) => {
    if (items.length === 0) throw new Error("pick from an empty list");
    return /** @type {T} */ (items[Math.floor(next() * items.length)]);
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick,
  };
}

/**
 * The median of a non-empty list (mean of the middle two for an even count). Throws on an empty list.
 * @param {readonly number[]} values
 * @returns {number}
 */
export function median(values) {
  if (values.length === 0) throw new Error("median of an empty list");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const hi = sorted[mid] ?? Number.NaN;
  const lo = sorted[mid - 1] ?? hi;
  return sorted.length % 2 === 1 ? hi : (lo + hi) / 2;
}

/**
 * @typedef {object} Stats
 * @property {number} median milliseconds
 * @property {number} min
 * @property {number} max
 * @property {number[]} samples every timed run, in order
 * @property {number} [cpuMedian] median CPU time per run (user + system, every thread of this process), ms
 * @property {number} [childCpuMedian] median CPU time per run of the child processes the run waited for (user +
 *   system, from /proc/self/stat's cutime + cstime: clock ticks, 10 ms on Linux; 0 for a run without children)
 */

/**
 * Summarises timed samples. Throws on an empty list.
 * @param {number[]} samples
 * @returns {Stats}
 */
export function stats(samples) {
  return { median: median(samples), min: Math.min(...samples), max: Math.max(...samples), samples };
}

/**
 * A forced full GC, or undefined when V8 refuses to expose it. Not used by default: a forced (memory-reducing)
 * GC before each run made later YAML-heavy runs 1.5–3× slower, biasing ratios against JS-heavy code.
 * @returns {(() => void) | undefined}
 */
export function exposeGc() {
  try {
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc");
    return typeof gc === "function" ? gc : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Times several tasks against each other: `warmup` untimed rounds, then `runs` rounds in which every task runs
 * once, the order rotating each round so that no task always runs first (cache, GC, CPU frequency drift).
 * `gc`, when given, runs before each timed run (see `exposeGc` for why the sections leave it off). Rejects
 * when a task rejects.
 * @template {string} K
 * @param {Record<K, () => Promise<unknown>>} tasks
 * @param {{ runs?: number, warmup?: number, gc?: (() => void) | undefined }} [options]
 * @returns {Promise<Record<K, Stats>>}
 */
export async function compare(tasks, options = {}) {
  const runs = options.runs ?? DEFAULT_RUNS;
  const warmup = options.warmup ?? DEFAULT_WARMUP;
  const names = /** @type {K[]} */ (Object.keys(tasks));
  /** @type {number[][]} */
  const samples = names.map(() => []);
  /** @type {number[][]} */
  const cpu = names.map(() => []);
  /** @type {number[][]} */
  const childCpu = names.map(() => []);
  for (let round = 0; round < warmup + runs; round++) {
    for (let i = 0; i < names.length; i++) {
      const k = (round + i) % names.length;
      const task = tasks[/** @type {K} */ (names[k])];
      options.gc?.();
      const childStart = reapedChildrenCpuMs();
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      await task();
      const elapsed = performance.now() - start;
      const used = process.cpuUsage(cpuStart);
      if (round >= warmup) {
        samples[k]?.push(elapsed);
        cpu[k]?.push((used.user + used.system) / 1000);
        childCpu[k]?.push(reapedChildrenCpuMs() - childStart);
      }
    }
  }
  return /** @type {Record<K, Stats>} */ (
    Object.fromEntries(
      names.map((n, k) => [
        n,
        {
          ...stats(samples[k] ?? []),
          cpuMedian: median(cpu[k] ?? []),
          childCpuMedian: median(childCpu[k] ?? []),
        },
      ]),
    )
  );
}

/**
 * CPU ms (user + system) of every child process this process has waited for so far, grandchildren they waited
 * for included: /proc/self/stat's cutime + cstime (Linux; 0 elsewhere). Child processes run one at a time in
 * `compare`, so the difference across a task is that task's children's CPU.
 * @returns {number}
 */
export function reapedChildrenCpuMs() {
  try {
    return parseProcStat(readFileSync("/proc/self/stat", "utf8"), TICKS_PER_SECOND).childrenMs;
  } catch {
    return 0;
  }
}

/**
 * The machine's load as the closing note quotes it beside each figure: `load average 1.2 3.4 5.6 on 2 CPUs`.
 * @returns {string}
 */
export function loadNote() {
  return `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} on ${availableParallelism()} CPUs`;
}

/** Variables of the bench's own env that change how every node process starts; never passed to a child. */
export const NODE_START_VARIABLES = ["NODE_OPTIONS", "NODE_EXTRA_CA_CERTS"];

/**
 * The one env of every child process of every section: `PATH` and nothing else from the bench's own env, plus
 * the section's data variables (`extra`: a managed dir, the scripted server's URL and key). A variable such as
 * NODE_EXTRA_CA_CERTS makes every node start slower (~60 ms instead of ~22 ms for `node -e 0`), so passing it
 * to some rows and not others skews ratios; it is passed to none.
 * @param {Record<string, string>} [extra]
 * @returns {Record<string, string>}
 */
export function childEnv(extra = {}) {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", ...extra };
}

/**
 * The bench header's line about child envs.
 * @returns {string}
 */
export function childEnvNote() {
  const withheld = NODE_START_VARIABLES.filter((name) => process.env[name] !== undefined);
  return (
    "env of every child process (every section, row, timeline and profile): PATH + the section's own " +
    "SKILLWRIGHT_MANAGED_DIR / ANTHROPIC_BASE_URL / ANTHROPIC_API_KEY / SKILLWRIGHT_DISCOVERY_CACHE only" +
    (withheld.length === 0 ? "" : `; set in the bench's env but never passed: ${withheld.join(", ")}`)
  );
}

/**
 * @typedef {object} ChildResult
 * @property {number} ms wall time from spawn to exit
 * @property {number | null} code
 * @property {string} stdout empty unless `capture` was set
 * @property {string} stderr
 */

/**
 * Runs a command to completion without a shell. stdout goes to /dev/null unless `capture` is set (so timing
 * does not include piping megabytes back): `capture: "pipe"` reads it through a pipe, `capture: "file"` through
 * a temp file (a plain file is written synchronously by Node, so output survives a child's `process.exit()`).
 * stderr is always captured. The env defaults to {@link childEnv}`()`, never the bench's own. Never rejects for a
 * non-zero exit: the caller checks `code`.
 * @param {string} command
 * @param {readonly string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, capture?: "pipe" | "file", cwd?: string }} [options]
 * @returns {Promise<ChildResult>}
 */
export async function runChild(command, args, options = {}) {
  if (options.capture !== "file") return spawnChild(command, args, options, options.capture ?? "ignore");
  return withTempDir("skillwright-out-", async (dir) => {
    const path = join(dir, "stdout");
    const handle = await open(path, "w");
    try {
      const result = await spawnChild(command, args, options, handle.fd);
      return { ...result, stdout: await readFile(path, "utf8") };
    } finally {
      await handle.close();
    }
  });
}

/**
 * @param {string} command
 * @param {readonly string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string }} options
 * @param {"ignore" | "pipe" | number} stdout
 * @returns {Promise<ChildResult>}
 */
function spawnChild(command, args, options, stdout) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(command, args, {
      env: options.env ?? childEnv(),
      cwd: options.cwd,
      stdio: ["ignore", stdout, "pipe"],
    });
    /** @type {Buffer[]} */
    const out = [];
    /** @type {Buffer[]} */
    const err = [];
    child.stdout?.on("data", (chunk) => out.push(chunk));
    child.stderr?.on("data", (chunk) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({
        ms: performance.now() - start,
        code,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    );
  });
}

/**
 * Runs `fn` with a fresh temp dir and removes the dir afterwards, whatever happens.
 * @template T
 * @param {string} prefix
 * @param {(dir: string) => Promise<T>} fn
 * @returns {Promise<T>}
 */
export async function withTempDir(prefix, fn) {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Milliseconds for a table cell: one decimal under 100 ms, whole numbers above.
 * @param {number} ms
 * @returns {string}
 */
export function fmtMs(ms) {
  return ms < 100 ? ms.toFixed(1) : Math.round(ms).toLocaleString("en-US");
}

/**
 * A ratio for a table cell, e.g. `1.23×`.
 * @param {number} ratio
 * @returns {string}
 */
export function fmtRatio(ratio) {
  return `${ratio.toFixed(2)}×`;
}

/**
 * An integer with thousands separators.
 * @param {number} n
 * @returns {string}
 */
export function fmtInt(n) {
  return n.toLocaleString("en-US");
}

/**
 * Renders a plain-text table: the first column left-aligned, the others right-aligned, a rule under the header.
 * @param {readonly string[]} header
 * @param {readonly (readonly string[])[]} rows
 * @returns {string}
 */
export function formatTable(header, rows) {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((r) => (r[c] ?? "").length)));
  const line = (/** @type {readonly string[]} */ row) =>
    widths
      .map((w, c) => {
        const cell = row[c] ?? "";
        return c === 0 ? cell.padEnd(w) : cell.padStart(w);
      })
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

/**
 * What `bench/run.js` gives each section. A section is a module exporting `run(ctx)`, which prints its own
 * figures through `ctx.log` and resolves to them as plain data; it rejects only when a correctness check fails.
 * @typedef {object} BenchContext
 * @property {string} repoRoot the package root (holds dist/ and bench/)
 * @property {number[]} sizes corpus sizes to measure, ascending
 * @property {number} runs timed runs per measurement
 * @property {number} warmup untimed runs first
 * @property {boolean} profile write and summarise a CPU profile even when every target is met
 * @property {(() => void) | undefined} [gc] a forced GC between timed runs; unset by default (see `exposeGc`)
 * @property {(text: string) => void} log
 */
