// Bench section "discovery": in-process discovery vs an fs floor, the whole CLI process vs `node -e 0`,
// and peak RSS, over synthetic corpora of each size.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createCatalog } from "../dist/catalog/catalog.js";
import { createFileSource } from "../dist/discovery/file-source.js";
import { createEngine } from "../dist/engine/engine.js";
import { createNodeFs } from "../dist/io/fs.js";
import { parseSimpleFrontmatter, splitFrontmatter } from "../dist/skill/frontmatter-core.js";
import { generateCorpus } from "./corpus.js";
import { fsFloor, fsFloorSync, fsStatFloorSync } from "./fs-floor.js";
import {
  childEnv,
  compare,
  fmtInt,
  fmtMs,
  fmtRatio,
  formatTable,
  loadNote,
  runChild,
  withTempDir,
} from "./lib.js";
import { profileChild } from "./profile.js";

/**
 * What the engine does for file roots: one file source through the catalog (ranking, clashes, order).
 * @param {{ fs: import("../dist/io/fs.js").FsOps, roots: import("../dist/discovery/skill-roots.js").SkillRoot[] }} options
 */
const discoverSkills = ({ fs, roots }) =>
  createCatalog({
    sources: [createFileSource({ fs, roots: async () => ({ roots, projectDir: "/" }) })],
  }).get();

/** Target for discovery time over the synchronous fs floor (whole process; and `list --json` cold, issue 47). */
export const TARGET_FLOOR_RATIO = 1.3;
/** Target (issue 47) for discovery in process over the synchronous fs floor. */
export const TARGET_IN_PROCESS_RATIO = 1.2;
/** Target (issue 47) for `list --json` with a warm discovery cache over a process that lists and stats every file. */
export const TARGET_WARM_RATIO = 1.2;
/** Target for the peak RSS of a process that ran discovery over the largest corpus, in MiB. */
export const TARGET_RSS_MB = 120;
/**
 * `list --json` peak RSS: ≤ TARGET_RSS_MB up to this size, above it ≤ LIST_RSS_FLOOR_RATIO × the sync floor
 * child's peak (the stricter of the two floors; the ratio to the async floor child is shown beside it).
 */
export const LIST_RSS_ABSOLUTE_UP_TO = 10_000;
export const LIST_RSS_FLOOR_RATIO = 1.5;
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
 * @property {{ heads: number, fast: number, declines: Record<string, number> }} fastPath frontmatter blocks, and how many the fast path parsed
 * @property {Record<"ours" | "oursSync" | "engine" | "floor" | "floorAsync", import("./lib.js").Stats>} inProcess
 *   `ours` uses the library's default file access (`createNodeFs()`), `oursSync` `createNodeFs({ syncReads: true })`
 * @property {Record<"cli" | "cliUncached" | "node" | "discoverChild" | "floorChild" | "statFloorChild", import("./lib.js").Stats>} process
 * @property {string} load the machine's load right after the process rows (`loadNote`)
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
    const syncFs = createNodeFs({ syncReads: true });
    const rootsFile = join(dir, "roots.json");
    writeFileSync(rootsFile, JSON.stringify(roots.map((r) => ({ dir: r.dir, layout: r.layout }))));

    const check = await discoverSkills({ fs, roots });
    if (check.skills.length !== stats.expectedSkills) {
      throw new Error(
        `N=${n}: discovery found ${check.skills.length} skills, corpus holds ${stats.expectedSkills}`,
      );
    }
    /** @type {[string, import("./fs-floor.js").FloorResult][]} */
    const floorChecks = [
      ["async floor", await fsFloor(roots)],
      ["sync floor", fsFloorSync(roots)],
      ["warm floor", fsStatFloorSync(roots)],
    ];
    for (const [label, floorCheck] of floorChecks) {
      if (floorCheck.found !== stats.entries || floorCheck.unique !== stats.files) {
        throw new Error(
          `N=${n}: ${label} found ${JSON.stringify(floorCheck)}, corpus ${stats.entries}/${stats.files}`,
        );
      }
    }
    /** @type {Record<string, number>} */
    const diagnostics = {};
    for (const d of check.diagnostics) diagnostics[d.code] = (diagnostics[d.code] ?? 0) + 1;
    ctx.log(
      `N=${fmtInt(n)}: ${fmtInt(stats.files)} files (${fmtInt(stats.commands)} commands) + ${stats.symlinks} symlinks, ` +
        `${(stats.bytes / 1_048_576).toFixed(1)} MiB, ${stats.paths} paths:, ${stats.quoted} quoted descriptions, ` +
        `${stats.blockScalars} block scalars, ${stats.lists} tool lists, ${stats.maps} maps, ` +
        `${stats.yamlHeavy} YAML-heavy, ${stats.crlf} CRLF, ${stats.bom} BOM, ` +
        `${stats.clashes} clashes, malformed ${JSON.stringify(stats.malformed)}; generated in ${fmtMs(generateMs)} ms`,
    );
    ctx.log(`  ${check.skills.length} skills; diagnostics ${JSON.stringify(diagnostics)}`);
    const fast = fastPathShare(check.skills.map((s) => s.filePath));
    ctx.log(
      `  frontmatter fast path: ${fmtInt(fast.fast)} of ${fmtInt(fast.heads)} heads (${((fast.fast / fast.heads) * 100).toFixed(1)}%); ` +
        "parsed without `yaml` (the fast path, or one of the two YAML mistakes it recognises); the rest load and run `yaml`",
    );
    ctx.log(
      `  fast path declines, by the first entry it declines: ${Object.entries(fast.declines)
        .sort((a, b) => b[1] - a[1])
        .map(([reason, count]) => `${reason} ${fmtInt(count)}`)
        .join(", ")}`,
    );

    const inProcess = await compare(
      {
        ours: () => discoverSkills({ fs, roots }),
        oursSync: () => discoverSkills({ fs: syncFs, roots }),
        engine: () => createEngine({ cwd, home, env }).discover(),
        floor: async () => fsFloorSync(roots),
        floorAsync: () => fsFloor(roots),
      },
      { runs: ctx.runs, warmup: ctx.warmup },
    );

    const cli = join(ctx.repoRoot, "dist", "bin", "main.js"); // the shipped bin (package.json "bin")
    const cliArgs = [cli, "list", "--json", "--cwd", cwd, "--home", home];
    const cliEnv = childEnv(env);
    const listed = await succeed(runChild(process.execPath, cliArgs, { env: cliEnv, capture: "file" }));
    const cliCount = JSON.parse(listed.stdout).length;
    if (cliCount < stats.expectedSkills) {
      throw new Error(`N=${n}: CLI listed ${cliCount} skills, corpus holds ${stats.expectedSkills}`);
    }
    const piped = await succeed(runChild(process.execPath, cliArgs, { env: cliEnv, capture: "pipe" }));
    if (piped.stdout.length !== listed.stdout.length) {
      ctx.log(
        `  WARNING: \`list --json\` through a pipe wrote ${fmtInt(piped.stdout.length)} of ` +
          `${fmtInt(listed.stdout.length)} chars (stdout cut off at exit)`,
      );
    }
    const child = join(ctx.repoRoot, "bench", "rss-child.js");
    const floorChild = join(ctx.repoRoot, "bench", "floor-child.js");
    const processes = await compare(
      {
        cli: () => succeed(runChild(process.execPath, cliArgs, { env: cliEnv })),
        cliUncached: () =>
          succeed(
            runChild(process.execPath, cliArgs, { env: { ...cliEnv, SKILLWRIGHT_DISCOVERY_CACHE: "off" } }),
          ),
        node: () => succeed(runChild(process.execPath, ["-e", "0"], { env: cliEnv })),
        discoverChild: () =>
          succeed(runChild(process.execPath, [child, "discover", managedDir, home, cwd], { env: cliEnv })),
        floorChild: () => succeed(runChild(process.execPath, [floorChild, rootsFile], { env: cliEnv })),
        statFloorChild: () =>
          succeed(runChild(process.execPath, [floorChild, rootsFile, "1", "--stat"], { env: cliEnv })),
      },
      { runs: ctx.runs, warmup: 1 },
    );
    const load = loadNote();

    /** @type {Record<string, number | undefined>} */
    const rssMb = {};
    for (const mode of RSS_MODES) {
      let peak = 0;
      for (let i = 0; i < RSS_RUNS; i++) {
        const out = await succeed(
          runChild(process.execPath, [child, mode, managedDir, home, cwd], { env: cliEnv, capture: "pipe" }),
        );
        peak = Math.max(peak, JSON.parse(out.stdout).maxRssKb / 1024);
      }
      rssMb[mode] = peak;
    }
    const floorRss = await succeed(
      runChild(process.execPath, [floorChild, rootsFile], { env: cliEnv, capture: "pipe" }),
    );
    rssMb.floorSync = JSON.parse(floorRss.stdout).maxRssKb / 1024;
    rssMb.cli = await cliPeakRss(cliArgs, cliEnv);

    /** @type {SizeFigures} */
    const result = {
      n,
      corpus: stats,
      generateMs,
      diagnostics,
      fastPath: fast,
      inProcess,
      process: processes,
      load,
      rssMb,
    };
    const ratio = inProcess.ours.median / inProcess.floor.median;
    const v = listRssVerdict(result);
    ctx.log(
      `  list --json peak RSS ${rssMb.cli?.toFixed(1) ?? "n/a"} MB` +
        `${v.ratio === undefined ? "" : ` (${fmtRatio(v.ratio)} the sync floor child, ${fmtRatio(v.asyncRatio ?? Number.NaN)} the async one)`}: ${v.over ? "MISSED" : "met"}; ` +
        `discovery/sync floor ${fmtRatio(ratio)}: ${ratio > TARGET_IN_PROCESS_RATIO ? "MISSED" : "met"}`,
    );
    const overTarget = ratio > TARGET_IN_PROCESS_RATIO || (rssMb.engine ?? 0) > TARGET_RSS_MB || v.over;
    if (largest && (ctx.profile || overTarget)) {
      /** @param {string} mode */
      const childArgs = (mode) => [child, mode, managedDir, home, cwd, String(PROFILE_REPEAT)];
      result.profile = await profileChild(childArgs("discover"), { env: cliEnv, top: PROFILE_TOP });
      result.floorProfile = await profileChild([floorChild, rootsFile, String(PROFILE_REPEAT)], {
        env: cliEnv,
        top: PROFILE_TOP,
      });
      result.cliProfile = await profileChild(cliArgs, { env: cliEnv, top: PROFILE_TOP });
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
  const ratioCell = (/** @type {number} */ r, target = TARGET_FLOOR_RATIO) =>
    `${fmtRatio(r)}${mark(r > target)}`;
  const childCpu = (/** @type {import("./lib.js").Stats} */ a, /** @type {import("./lib.js").Stats} */ b) =>
    fmtRatio((a.childCpuMedian ?? Number.NaN) / (b.childCpuMedian ?? Number.NaN));
  /** @type {[string, (f: SizeFigures) => string, string][]} */
  const rows = [
    ["ours: discoverSkills, default fs (createNodeFs())", (f) => fmtMs(f.inProcess.ours.median), ""],
    ["ours: discoverSkills, createNodeFs({ syncReads })", (f) => fmtMs(f.inProcess.oursSync.median), ""],
    ["engine: createEngine().discover()", (f) => fmtMs(f.inProcess.engine.median), ""],
    ["sync floor (readdir+open/fstat/read head, sync)", (f) => fmtMs(f.inProcess.floor.median), ""],
    ["async floor (readdir+realpath+readFile, p-limit 64)", (f) => fmtMs(f.inProcess.floorAsync.median), ""],
    [
      "ours (default fs) / sync floor",
      (f) => ratioCell(f.inProcess.ours.median / f.inProcess.floor.median, TARGET_IN_PROCESS_RATIO),
      `≤ ${fmtRatio(TARGET_IN_PROCESS_RATIO)}`,
    ],
    [
      "ours (syncReads) / sync floor",
      (f) => fmtRatio(f.inProcess.oursSync.median / f.inProcess.floor.median),
      "",
    ],
    ["ours (default fs) / sync floor, CPU time", (f) => cpuRatio(f.inProcess.ours, f.inProcess.floor), ""],
    ["engine / sync floor", (f) => fmtRatio(f.inProcess.engine.median / f.inProcess.floor.median), ""],
    [
      "ours (default fs) / async floor (old floor)",
      (f) => fmtRatio(f.inProcess.ours.median / f.inProcess.floorAsync.median),
      "",
    ],
    ["process: discoverSkills child (default fs)", (f) => fmtMs(f.process.discoverChild.median), ""],
    ["process: sync floor child (node:fs only)", (f) => fmtMs(f.process.floorChild.median), ""],
    [
      "whole process: discover child / floor child",
      (f) => ratioCell(f.process.discoverChild.median / f.process.floorChild.median),
      `≤ ${fmtRatio(TARGET_FLOOR_RATIO)}`,
    ],
    ["process: CLI list --json (discovery cache warm)", (f) => fmtMs(f.process.cli.median), ""],
    ["process: CLI list --json, cache off", (f) => fmtMs(f.process.cliUncached.median), ""],
    ["process: warm floor child (list + stat every file)", (f) => fmtMs(f.process.statFloorChild.median), ""],
    [
      "list --json cold (cache off) / sync floor child",
      (f) => ratioCell(f.process.cliUncached.median / f.process.floorChild.median),
      `≤ ${fmtRatio(TARGET_FLOOR_RATIO)}`,
    ],
    ["  … CPU", (f) => childCpu(f.process.cliUncached, f.process.floorChild), ""],
    [
      "list --json warm / warm floor child",
      (f) => ratioCell(f.process.cli.median / f.process.statFloorChild.median, TARGET_WARM_RATIO),
      `≤ ${fmtRatio(TARGET_WARM_RATIO)}`,
    ],
    ["  … CPU", (f) => childCpu(f.process.cli, f.process.statFloorChild), ""],
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
    ["peak RSS: async floor child (same modules)", (f) => mb(f.rssMb.floor), ""],
    ["peak RSS: sync floor child (node:fs only)", (f) => mb(f.rssMb.floorSync), ""],
    ["peak RSS: engine modules, no discovery", (f) => mb(f.rssMb["engine-modules"]), ""],
    ["peak RSS: discovery modules, no discovery", (f) => mb(f.rssMb["discover-modules"]), ""],
    [
      "peak RSS: CLI list --json",
      (f) => {
        const v = listRssVerdict(f);
        return `${mb(f.rssMb.cli)}${v.ratio === undefined ? "" : ` (${fmtRatio(v.ratio)})`}${mark(v.over)}`;
      },
      `≤ ${TARGET_RSS_MB} MB to ${fmtInt(LIST_RSS_ABSOLUTE_UP_TO)}, then ≤ ${fmtRatio(LIST_RSS_FLOOR_RATIO)} sync floor`,
    ],
  ];
  return rows.map(([label, cell, target]) => [label, ...figures.map(cell), target]);
}

/**
 * The `list --json` peak RSS verdict: an absolute target up to LIST_RSS_ABSOLUTE_UP_TO skills, a multiple of
 * the sync floor child's peak above. `ratio` is over the sync floor child, `asyncRatio` over the async one.
 * @param {{ n: number, rssMb: Record<string, number | undefined> }} f
 * @returns {{ over: boolean, ratio: number | undefined, asyncRatio: number | undefined }}
 */
export function listRssVerdict(f) {
  const cli = f.rssMb.cli;
  const over = (/** @type {number | undefined} */ floor) =>
    cli === undefined || floor === undefined ? undefined : cli / floor;
  const ratio = over(f.rssMb.floorSync);
  const asyncRatio = over(f.rssMb.floor);
  if (cli === undefined) return { over: false, ratio, asyncRatio };
  if (f.n <= LIST_RSS_ABSOLUTE_UP_TO) return { over: cli > TARGET_RSS_MB, ratio, asyncRatio };
  return { over: ratio !== undefined && ratio > LIST_RSS_FLOOR_RATIO, ratio, asyncRatio };
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
      `\nCPU profile: discoverSkills child vs sync floor child (node:fs only), N=${fmtInt(f.n)}, ` +
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

/**
 * How many of the files' frontmatter blocks the fast path parses (the rest need `yaml`), read whole here (not
 * timed), and why it declined the others: the first top-level entry it declines on its own, by shape. Discovery
 * reads the same blocks from the head of each file.
 * @param {string[]} paths
 * @returns {{ heads: number, fast: number, declines: Record<string, number> }}
 */
function fastPathShare(paths) {
  let heads = 0;
  let fast = 0;
  /** @type {Record<string, number>} */
  const declines = {};
  for (const path of paths) {
    const { frontmatter } = splitFrontmatter(readFileSync(path, "utf8"));
    if (frontmatter === undefined) continue;
    heads += 1;
    if (parseSimpleFrontmatter(frontmatter) !== undefined) fast += 1;
    else {
      const reason = declineReason(frontmatter);
      declines[reason] = (declines[reason] ?? 0) + 1;
    }
  }
  return { heads, fast, declines };
}

/**
 * The shape of the first top-level entry of `frontmatter` that the fast path declines alone (an entry: a line at
 * column 0 and the indented lines after it).
 * @param {string} frontmatter
 */
export function declineReason(frontmatter) {
  const lines = frontmatter.split("\n");
  /** @type {string[][]} */
  const entries = [];
  for (const line of lines) {
    if (entries.length === 0 || /^[^\s#]/.test(line)) entries.push([line]);
    else entries[entries.length - 1]?.push(line);
  }
  for (const entry of entries) {
    const text = entry.join("\n");
    if (parseSimpleFrontmatter(text) !== undefined) continue;
    const head = entry[0] ?? "";
    if (!/^[A-Za-z_][\w-]*:/.test(head)) return "not a `key:` line";
    if (/[&*][\w-]+/.test(text) && /(^|[\s:[{,-])[&*][\w-]/.test(text)) return "anchor or alias";
    if (/:\s*\{/.test(head) || /^\s+[\w-]+:\s*\{/m.test(text)) return "flow map";
    if (
      entry
        .slice(1)
        .some(
          (l) =>
            /^\s{2,}\S/.test(l) && /^\s+/.exec(l)?.[0].length !== /^\s+/.exec(entry[1] ?? "")?.[0].length,
        )
    )
      return "nested collection";
    if (/:\s*\[/.test(head)) return "flow list with other than scalars";
    if (/:\s*[|>]/.test(head)) return "block scalar (other header or indent)";
    if (/:\s*["']/.test(head)) return "quoted scalar (multi-line or odd escape)";
    return "other";
  }
  return "the whole (duplicate key or a line between entries)";
}

/**
 * The closing note's lines: each size's discovery/sync-floor ratios and `list --json` peak RSS, with verdicts.
 * @param {SizeFigures[]} figures
 * @returns {string[]}
 */
export function closing(figures) {
  const verdict = (/** @type {boolean} */ over) => (over ? "MISSED" : "met");
  return figures.flatMap((f) => {
    const inProcess = f.inProcess.ours.median / f.inProcess.floor.median;
    const whole = f.process.discoverChild.median / f.process.floorChild.median;
    const rss = listRssVerdict(f);
    const target =
      f.n <= LIST_RSS_ABSOLUTE_UP_TO
        ? `≤ ${TARGET_RSS_MB} MB`
        : `≤ ${fmtRatio(LIST_RSS_FLOOR_RATIO)} the sync floor child`;
    const cold = f.process.cliUncached.median / f.process.floorChild.median;
    const warm = f.process.cli.median / f.process.statFloorChild.median;
    return [
      `N=${fmtInt(f.n)} discovery / sync floor ${fmtRatio(inProcess)} in process (target ≤ ${fmtRatio(TARGET_IN_PROCESS_RATIO)}): ` +
        `${verdict(inProcess > TARGET_IN_PROCESS_RATIO)}; ${fmtRatio(whole)} whole process (target ≤ ${fmtRatio(TARGET_FLOOR_RATIO)}): ${verdict(whole > TARGET_FLOOR_RATIO)}`,
      `N=${fmtInt(f.n)} list --json as a whole process: cold ${fmtRatio(cold)} the sync floor child (target ≤ ${fmtRatio(TARGET_FLOOR_RATIO)}): ` +
        `${verdict(cold > TARGET_FLOOR_RATIO)}; warm ${fmtRatio(warm)} the list-and-stat child (target ≤ ${fmtRatio(TARGET_WARM_RATIO)}): ` +
        `${verdict(warm > TARGET_WARM_RATIO)} (measured at ${f.load})`,
      `N=${fmtInt(f.n)} list --json peak RSS ${f.rssMb.cli?.toFixed(1) ?? "n/a"} MB` +
        `${rss.ratio === undefined ? "" : ` (${fmtRatio(rss.ratio)} the sync floor child, ${fmtRatio(rss.asyncRatio ?? Number.NaN)} the async one)`} (target ${target}): ${verdict(rss.over)}`,
    ];
  });
}
