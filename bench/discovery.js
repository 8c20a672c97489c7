// Bench section "discovery": in-process discovery vs an fs floor, the whole CLI process vs `node -e 0`,
// and peak RSS, over synthetic corpora of each size.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { discoverSkills } from "../dist/discovery/discover.js";
import { createEngine } from "../dist/engine.js";
import { createNodeFs } from "../dist/io/fs.js";
import { generateCorpus } from "./corpus.js";
import { fsFloor } from "./fs-floor.js";
import { compare, fmtInt, fmtMs, fmtRatio, formatTable, runChild, withTempDir } from "./lib.js";
import { profileChild } from "./profile.js";

/** Target for in-process discovery time over the fs floor. */
export const TARGET_FLOOR_RATIO = 1.5;
/** Target for the peak RSS of a process that ran discovery over the largest corpus, in MiB. */
export const TARGET_RSS_MB = 120;
/** Child runs per peak-RSS figure (the largest is kept). */
const RSS_RUNS = 2;
/** Runs in a profiled child, so the profile shows steady state more than start-up. */
const PROFILE_REPEAT = 5;
/** The rss-child modes measured, in table order. */
const RSS_MODES = /** @type {const} */ ([
  "engine",
  "discover",
  "floor",
  "engine-modules",
  "discover-modules",
]);
/** Functions and files listed from a CPU profile. */
const PROFILE_TOP = 15;
const TIME_BIN = "/usr/bin/time";

/**
 * @typedef {object} SizeFigures
 * @property {number} n
 * @property {import("./corpus.js").CorpusStats} corpus
 * @property {number} generateMs
 * @property {Record<string, number>} diagnostics count per code from one discovery
 * @property {Record<"ours" | "engine" | "floor", import("./lib.js").Stats>} inProcess
 * @property {Record<"cli" | "cliUncached" | "node", import("./lib.js").Stats>} process
 * @property {Record<string, number | undefined>} rssMb peak RSS in MiB per rss-child mode, and `cli`
 * @property {import("./profile.js").ProfileSummary} [profile] the discovery child, PROFILE_REPEAT runs
 * @property {import("./profile.js").ProfileSummary} [floorProfile] the floor child, PROFILE_REPEAT runs
 * @property {import("./profile.js").ProfileSummary} [cliProfile] one `list --json` process
 */

/**
 * Runs the discovery section for every size in `ctx.sizes`, prints a table and resolves to the figures.
 * Rejects when discovery or the floor finds a different number of skills than the corpus holds.
 * @param {import("./lib.js").BenchContext} ctx
 * @returns {Promise<SizeFigures[]>}
 */
export async function run(ctx) {
  ctx.log("## discovery\n");
  /** @type {SizeFigures[]} */
  const figures = [];
  const largest = Math.max(...ctx.sizes);
  for (const n of ctx.sizes) figures.push(await measureSize(ctx, n, n === largest));
  ctx.log(
    `\n${formatTable(["discovery (median ms)", ...figures.map((f) => `N=${fmtInt(f.n)}`), "target"], tableRows(figures))}\n`,
  );
  for (const f of figures)
    if (f.profile !== undefined || f.cliProfile !== undefined) ctx.log(profileReport(f));
  return figures;
}

/**
 * @param {import("./lib.js").BenchContext} ctx
 * @param {number} n
 * @param {boolean} largest
 * @returns {Promise<SizeFigures>}
 */
function measureSize(ctx, n, largest) {
  return withTempDir("skillwright-bench-", async (dir) => {
    const started = performance.now();
    const corpus = generateCorpus({ dir, n });
    const generateMs = performance.now() - started;
    const { managedDir, home, cwd, stats } = corpus;
    const env = { SKILLWRIGHT_MANAGED_DIR: managedDir };
    const { roots } = await createEngine({ cwd, home, env }).roots();
    const fs = createNodeFs();

    const check = await discoverSkills({ fs, roots });
    if (check.skills.length !== stats.expectedSkills) {
      throw new Error(
        `N=${n}: discovery found ${check.skills.length} skills, corpus holds ${stats.expectedSkills}`,
      );
    }
    const floorCheck = await fsFloor(roots);
    if (floorCheck.found !== stats.entries || floorCheck.unique !== stats.files) {
      throw new Error(
        `N=${n}: floor found ${floorCheck.found}/${floorCheck.unique}, corpus ${stats.entries}/${stats.files}`,
      );
    }
    /** @type {Record<string, number>} */
    const diagnostics = {};
    for (const d of check.diagnostics) diagnostics[d.code] = (diagnostics[d.code] ?? 0) + 1;
    ctx.log(
      `N=${fmtInt(n)}: ${fmtInt(stats.files)} files (${fmtInt(stats.commands)} commands) + ${stats.symlinks} symlinks, ` +
        `${(stats.bytes / 1_048_576).toFixed(1)} MiB, ${stats.paths} paths:, ${stats.complex} YAML-heavy, ` +
        `${stats.clashes} clashes, malformed ${JSON.stringify(stats.malformed)}; generated in ${fmtMs(generateMs)} ms`,
    );
    ctx.log(`  ${check.skills.length} skills; diagnostics ${JSON.stringify(diagnostics)}`);

    const inProcess = await compare(
      {
        ours: () => discoverSkills({ fs, roots }),
        engine: () => createEngine({ cwd, home, env }).discover(),
        floor: () => fsFloor(roots),
      },
      { runs: ctx.runs, warmup: ctx.warmup },
    );

    const cli = join(ctx.repoRoot, "dist", "bin", "main.js"); // the shipped bin (package.json "bin")
    const cliArgs = [cli, "list", "--json", "--cwd", cwd, "--home", home];
    const childEnv = { ...process.env, ...env };
    const listed = await succeed(runChild(process.execPath, cliArgs, { env: childEnv, capture: "file" }));
    const cliCount = JSON.parse(listed.stdout).length;
    if (cliCount < stats.expectedSkills) {
      throw new Error(`N=${n}: CLI listed ${cliCount} skills, corpus holds ${stats.expectedSkills}`);
    }
    const piped = await succeed(runChild(process.execPath, cliArgs, { env: childEnv, capture: "pipe" }));
    if (piped.stdout.length !== listed.stdout.length) {
      ctx.log(
        `  WARNING: \`list --json\` through a pipe wrote ${fmtInt(piped.stdout.length)} of ` +
          `${fmtInt(listed.stdout.length)} chars (stdout cut off at exit)`,
      );
    }
    const processes = await compare(
      {
        cli: () => succeed(runChild(process.execPath, cliArgs, { env: childEnv })),
        cliUncached: () =>
          succeed(
            runChild(process.execPath, cliArgs, { env: { ...childEnv, SKILLWRIGHT_DISCOVERY_CACHE: "off" } }),
          ),
        node: () => succeed(runChild(process.execPath, ["-e", "0"], { env: childEnv })),
      },
      { runs: ctx.runs, warmup: 1 },
    );

    const child = join(ctx.repoRoot, "bench", "rss-child.js");
    /** @type {Record<string, number | undefined>} */
    const rssMb = {};
    for (const mode of RSS_MODES) {
      let peak = 0;
      for (let i = 0; i < RSS_RUNS; i++) {
        const out = await succeed(
          runChild(process.execPath, [child, mode, managedDir, home, cwd], { capture: "pipe" }),
        );
        peak = Math.max(peak, JSON.parse(out.stdout).maxRssKb / 1024);
      }
      rssMb[mode] = peak;
    }
    rssMb.cli = await cliPeakRss(cliArgs, childEnv);

    /** @type {SizeFigures} */
    const result = { n, corpus: stats, generateMs, diagnostics, inProcess, process: processes, rssMb };
    const ratio = inProcess.ours.median / inProcess.floor.median;
    const overTarget = ratio > TARGET_FLOOR_RATIO || (rssMb.engine ?? 0) > TARGET_RSS_MB;
    if (largest && (ctx.profile || overTarget)) {
      /** @param {string} mode */
      const childArgs = (mode) => [child, mode, managedDir, home, cwd, String(PROFILE_REPEAT)];
      result.profile = await profileChild(childArgs("discover"), { top: PROFILE_TOP });
      result.floorProfile = await profileChild(childArgs("floor"), { top: PROFILE_TOP });
      result.cliProfile = await profileChild(cliArgs, { env: childEnv, top: PROFILE_TOP });
    }
    return result;
  });
}

/**
 * Peak RSS (MiB) of one `list --json` run through GNU time, or undefined when it is not installed.
 * @param {string[]} cliArgs
 * @param {NodeJS.ProcessEnv} env
 */
async function cliPeakRss(cliArgs, env) {
  if (!existsSync(TIME_BIN)) return undefined;
  const out = await succeed(runChild(TIME_BIN, ["-f", "%M", process.execPath, ...cliArgs], { env }));
  const kb = Number(out.stderr.trim().split("\n").pop());
  return Number.isFinite(kb) ? kb / 1024 : undefined;
}

/**
 * @param {Promise<import("./lib.js").ChildResult>} pending
 * @returns {Promise<import("./lib.js").ChildResult>}
 */
async function succeed(pending) {
  const result = await pending;
  if (result.code !== 0)
    throw new Error(`child exited with ${result.code}: ${result.stderr.slice(0, 2_000)}`);
  return result;
}

/**
 * @param {SizeFigures[]} figures
 * @returns {string[][]}
 */
function tableRows(figures) {
  const mb = (/** @type {number | undefined} */ v) => (v === undefined ? "n/a" : `${v.toFixed(1)} MB`);
  const mark = (/** @type {boolean} */ over) => (over ? " ✗" : "");
  /** @type {[string, (f: SizeFigures) => string, string][]} */
  const rows = [
    ["ours: discoverSkills(roots)", (f) => fmtMs(f.inProcess.ours.median), ""],
    ["engine: createEngine().discover()", (f) => fmtMs(f.inProcess.engine.median), ""],
    ["fs floor (readdir+realpath+readFile+regex)", (f) => fmtMs(f.inProcess.floor.median), ""],
    [
      "ours / floor",
      (f) => {
        const r = f.inProcess.ours.median / f.inProcess.floor.median;
        return `${fmtRatio(r)}${mark(r > TARGET_FLOOR_RATIO)}`;
      },
      `≤ ${fmtRatio(TARGET_FLOOR_RATIO)}`,
    ],
    ["ours / floor, CPU time (all threads)", (f) => cpuRatio(f.inProcess.ours, f.inProcess.floor), ""],
    ["engine / floor", (f) => fmtRatio(f.inProcess.engine.median / f.inProcess.floor.median), ""],
    ["process: CLI list --json (discovery cache warm)", (f) => fmtMs(f.process.cli.median), ""],
    ["process: CLI list --json, cache off", (f) => fmtMs(f.process.cliUncached.median), ""],
    ["process: node -e 0", (f) => fmtMs(f.process.node.median), ""],
    ["CLI / node -e 0", (f) => fmtRatio(f.process.cli.median / f.process.node.median), ""],
    ["CLI − node -e 0", (f) => fmtMs(f.process.cli.median - f.process.node.median), ""],
    [
      "peak RSS: createEngine().discover() child",
      (f) => `${mb(f.rssMb.engine)}${mark((f.rssMb.engine ?? 0) > TARGET_RSS_MB)}`,
      `≤ ${TARGET_RSS_MB} MB`,
    ],
    [
      "peak RSS: discoverSkills child",
      (f) => `${mb(f.rssMb.discover)}${mark((f.rssMb.discover ?? 0) > TARGET_RSS_MB)}`,
      `≤ ${TARGET_RSS_MB} MB`,
    ],
    ["peak RSS: floor child (same modules)", (f) => mb(f.rssMb.floor), ""],
    ["peak RSS: engine modules, no discovery", (f) => mb(f.rssMb["engine-modules"]), ""],
    ["peak RSS: discovery modules, no discovery", (f) => mb(f.rssMb["discover-modules"]), ""],
    ["peak RSS: CLI list --json", (f) => mb(f.rssMb.cli), ""],
  ];
  return rows.map(([label, cell, target]) => [label, ...figures.map(cell), target]);
}

/**
 * @param {import("./lib.js").Stats} a
 * @param {import("./lib.js").Stats} b
 */
function cpuRatio(a, b) {
  return a.cpuMedian === undefined || b.cpuMedian === undefined ? "n/a" : fmtRatio(a.cpuMedian / b.cpuMedian);
}

/**
 * @param {SizeFigures} f
 * @returns {string}
 */
function profileReport(f) {
  const pct = (/** @type {number} */ s) => `${(s * 100).toFixed(1)}%`;
  const list = (/** @type {string} */ title, /** @type {import("./profile.js").HotSpot[]} */ spots) =>
    formatTable(
      [title, "self ms", "share"],
      spots.map((s) => [s.label, fmtMs(s.ms), pct(s.share)]),
    );
  const parts = [];
  if (f.profile !== undefined) {
    parts.push(
      `\nCPU profile: discoverSkills child vs floor child (same modules loaded), N=${fmtInt(f.n)}, ` +
        `${PROFILE_REPEAT} runs each in one process`,
      categoryTable(f.profile, f.floorProfile),
      "",
      list("function", f.profile.functions),
    );
  }
  if (f.cliProfile !== undefined) {
    parts.push(
      `\nCPU profile: one \`list --json\` process, N=${fmtInt(f.n)} (${fmtMs(f.cliProfile.totalMs)} ms sampled)`,
      list("category", f.cliProfile.categories),
    );
  }
  return `${parts.join("\n")}\n`;
}

/**
 * Self time per category, ours beside the floor, largest difference first.
 * @param {import("./profile.js").ProfileSummary} ours
 * @param {import("./profile.js").ProfileSummary | undefined} floor
 * @returns {string}
 */
function categoryTable(ours, floor) {
  const floorMs = new Map((floor?.categories ?? []).map((c) => [c.label, c.ms]));
  const labels = [...new Set([...ours.categories.map((c) => c.label), ...floorMs.keys()])];
  const oursMs = new Map(ours.categories.map((c) => [c.label, c.ms]));
  const rows = labels
    .map((label) => ({ label, a: oursMs.get(label) ?? 0, b: floorMs.get(label) ?? 0 }))
    .sort((x, y) => y.a - y.b - (x.a - x.b));
  return formatTable(
    ["category (self time)", "ours ms", "floor ms", "ours − floor"],
    [
      ...rows.map((r) => [r.label, fmtMs(r.a), fmtMs(r.b), fmtMs(r.a - r.b)]),
      [
        "total sampled",
        fmtMs(ours.totalMs),
        fmtMs(floor?.totalMs ?? 0),
        fmtMs(ours.totalMs - (floor?.totalMs ?? 0)),
      ],
    ],
  );
}
