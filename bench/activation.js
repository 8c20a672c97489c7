// Bench section "activation": conditional-skill activation (SPEC §9) through the one combined path matcher,
// against the naive approach (one compiled `ignore` instance per skill, every pending skill tested per path).
// Run alone with `node bench/activation.js` after `npm run build`.
import { availableParallelism, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import ignore from "ignore";
import { createActivationState } from "../dist/activation/activation-state.js";
import { skillPatterns } from "../dist/activation/globs.js";
import {
  compare,
  createRng,
  DEFAULT_RUNS,
  DEFAULT_WARMUP,
  exposeGc,
  fmtInt,
  fmtMs,
  formatTable,
  median,
} from "./lib.js";

/** Target for activating over every touched path, in ms (median). */
export const TARGET_ACTIVATE_MS = 150;
/** Conditional skills in the corpus. */
export const SKILLS = 500;
/** Touched paths, relative to the cwd. */
export const PATHS = 10_000;
/** Largest batch of paths one tool call touches (a Grep or Glob result); batches are 1 to this. */
const MAX_BATCH = 40;
/** The naive approach is timed on this share of the paths when a full run would take too long. */
const NAIVE_SUBSET = 2_000;
/** Above this (ms for one full naive run, measured once), the naive approach is timed on the subset only. */
const NAIVE_FULL_LIMIT_MS = 3_000;
const SEED = 0x5eed;
/** Untimed runs of ours before timing: V8 needs about this many before the matcher's code is optimised. */
const OURS_WARMUP = 10;
const CWD = "/bench/repo";

const PACKAGES = Array.from({ length: 60 }, (_, i) => `pkg-${i}`);
const DIRS = ["src", "lib", "components", "pages", "utils", "test", "api", "db", "scripts", "config"];
const EXTS = ["ts", "tsx", "js", "md", "json", "css", "yaml", "py", "go", "sql", "rs", "sh"];
const TOP = ["src", "docs", "packages", "scripts", "test", ".github"];

/**
 * The corpus: `SKILLS` conditional skills with about 1,300 globs in all, in a realistic mix; some name
 * packages or extensions the touched paths never hold, so they stay pending to the end.
 * @param {import("./lib.js").Rng} rng
 */
function generateSkills(rng) {
  /** @type {((r: import("./lib.js").Rng) => string)[]} */
  const templates = [
    (r) => `src/**/*.${r.pick(EXTS)}`,
    (r) => `*.${r.pick(EXTS)}`,
    (r) => `packages/${r.pick(PACKAGES)}/**`,
    (r) => `packages/${r.pick(PACKAGES)}/src/**/*.{ts,tsx}`,
    (r) => `src/{${r.pick(DIRS)},${r.pick(DIRS)}}/**/*.{${r.pick(EXTS)},${r.pick(EXTS)}}`,
    (r) => `${r.pick(["docs", "scripts", "config", "migrations", "infra"])}/`,
    (r) => `**/${r.pick(DIRS)}/*.${r.pick(EXTS)}`,
    (r) => `/${r.pick(["Makefile", "Dockerfile", "package.json", "go.mod", "Cargo.toml"])}`,
    (r) => `${r.pick(TOP)}/**/${r.pick(["index", "main", "config", "schema"])}.*`,
    (r) => `**/*.${r.pick(["test", "spec", "stories", "d"])}.{ts,tsx}`,
    (r) => `services/${r.pick(["auth", "billing", "search"])}/**`,
    () => "**/[Mm]igrations/*.sql",
  ];
  return Array.from({ length: SKILLS }, (_, i) => {
    const count = rng.pick([1, 2, 2, 3, 3, 3, 4]);
    const paths = Array.from({ length: count }, () => rng.pick(templates)(rng));
    if (rng.chance(0.03)) paths.push("!**/*.generated.ts");
    return { name: `skill-${String(i).padStart(3, "0")}`, paths, filePath: `/skills/skill-${i}/SKILL.md` };
  });
}

/**
 * `PATHS` touched paths drawn from a monorepo-like tree, weighted towards `src/` and a handful of packages.
 * @param {import("./lib.js").Rng} rng
 */
function generatePaths(rng) {
  const hot = PACKAGES.slice(0, 12);
  return Array.from({ length: PATHS }, () => {
    const file = `${rng.pick(["index", "main", "util", "a", "b", "schema", "README", "config"])}${rng.chance(0.05) ? ".test" : ""}.${rng.pick(EXTS)}`;
    const depth = rng.int(0, 3);
    const middle = Array.from({ length: depth }, () => rng.pick(DIRS));
    const roll = rng.next();
    if (roll < 0.45) return ["src", ...middle, file].join("/");
    if (roll < 0.8) return ["packages", rng.pick(hot), "src", ...middle, file].join("/");
    if (roll < 0.9) return ["docs", ...middle, file].join("/");
    return [...middle, file].join("/");
  });
}

/**
 * Splits the paths into tool-call batches of 1 to `MAX_BATCH` paths, absolute.
 * @param {import("./lib.js").Rng} rng
 * @param {string[]} paths
 */
function batchesOf(rng, paths) {
  /** @type {string[][]} */
  const batches = [];
  for (let i = 0; i < paths.length; ) {
    const size = rng.chance(0.7) ? 1 : rng.int(2, MAX_BATCH);
    batches.push(paths.slice(i, i + size).map((p) => `${CWD}/${p}`));
    i += size;
  }
  return batches;
}

/**
 * Ours: one activation state (its matcher compiled once), fed batch by batch. Returns the activated names.
 * @param {ReturnType<typeof generateSkills>} skills
 * @param {string[][]} batches
 */
function runOurs(skills, batches) {
  const state = createActivationState(skills);
  for (const batch of batches) state.touch(batch, CWD);
  return state.activated();
}

/**
 * Naive: one `ignore` instance per skill, compiled once per session; each path tested against every skill
 * not yet activated (the activated ones are skipped, as ours does).
 * @param {ReturnType<typeof generateSkills>} skills
 * @param {string[]} relPaths
 */
function runNaive(skills, relPaths) {
  const rules = skills.map((s) => ignore().add(skillPatterns(s).patterns));
  const active = new Set();
  for (const path of relPaths) {
    for (const [i, skill] of skills.entries()) {
      if (!active.has(skill.name) && rules[i]?.ignores(path)) active.add(skill.name);
    }
  }
  return [...active];
}

/**
 * Runs the section: prints the corpus, a table and the target check; resolves to the figures. Rejects when
 * the two approaches activate different skills.
 * @param {import("./lib.js").BenchContext} ctx
 */
export async function run(ctx) {
  ctx.log("## activation\n");
  const rng = createRng(SEED);
  const skills = generateSkills(rng);
  const relPaths = generatePaths(rng);
  const batches = batchesOf(rng, relPaths);
  const globs = skills.reduce((n, s) => n + s.paths.length, 0);
  const patterns = skills.reduce((n, s) => n + skillPatterns(s).patterns.length, 0);

  const coldStart = performance.now();
  const ours = runOurs(skills, batches).sort();
  const coldMs = performance.now() - coldStart;
  const naiveStart = performance.now();
  const naive = runNaive(skills, relPaths).sort();
  const naiveOnceMs = performance.now() - naiveStart;
  if (ours.join("\n") !== naive.join("\n")) {
    throw new Error(`activation: ours activated ${ours.length} skills, naive ${naive.length}; they differ`);
  }
  ctx.log(
    `${SKILLS} conditional skills, ${fmtInt(globs)} globs (${fmtInt(patterns)} patterns after brace expansion), ` +
      `${fmtInt(PATHS)} touched paths in ${fmtInt(batches.length)} tool calls; ` +
      `${ours.length} skills activate, ${SKILLS - ours.length} stay pending (same set both ways)`,
  );

  const subset = naiveOnceMs > NAIVE_FULL_LIMIT_MS;
  const naivePaths = subset ? relPaths.slice(0, NAIVE_SUBSET) : relPaths;
  const naiveRuns = Math.max(3, Math.min(ctx.runs, Math.floor(20_000 / Math.max(1, naiveOnceMs))));
  /** CPU time of each timed `ours` run (wall time suffers when other processes share the CPUs). */
  /** @type {number[]} */
  const cpuMs = [];
  let oursCalls = 0;
  const timed = await compare(
    {
      ours: async () => {
        const before = process.cpuUsage();
        runOurs(skills, batches);
        const used = process.cpuUsage(before);
        oursCalls += 1;
        if (oursCalls > Math.max(ctx.warmup, OURS_WARMUP)) cpuMs.push((used.user + used.system) / 1_000);
      },
      build: async () => createActivationState(skills),
    },
    { runs: ctx.runs, warmup: Math.max(ctx.warmup, OURS_WARMUP), gc: ctx.gc },
  );
  const oursCpuMs = median(cpuMs);
  const naiveTimed = await compare(
    { naive: async () => runNaive(skills, naivePaths) },
    { runs: naiveRuns, warmup: 1, gc: ctx.gc },
  );
  const scale = relPaths.length / naivePaths.length;
  const naiveMs = naiveTimed.naive.median * scale;
  const oursMs = timed.ours.median;
  const met = oursMs <= TARGET_ACTIVATE_MS;
  const naiveLabel = subset
    ? `naive: ignore per skill, ${fmtInt(NAIVE_SUBSET)} paths ×${scale.toFixed(0)} (extrapolated)`
    : "naive: ignore per skill, every path";
  ctx.log(
    `\n${formatTable(
      ["activation (median ms)", "ms", "target"],
      [
        ["ours: build state + touch every batch", fmtMs(oursMs), `≤ ${TARGET_ACTIVATE_MS}${met ? "" : " ✗"}`],
        ["  the same, CPU time (user + system)", fmtMs(oursCpuMs), ""],
        ["  first run in this process (cold JIT)", fmtMs(coldMs), ""],
        ["  of which: build state (compile globs)", fmtMs(timed.build.median), ""],
        [naiveLabel, fmtMs(naiveMs), ""],
        ["naive / ours", `${(naiveMs / oursMs).toFixed(1)}×`, ""],
      ],
    )}\n`,
  );
  ctx.log(`(load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} CPUs while timing)`);
  if (subset) {
    ctx.log(
      `(naive timed on the first ${fmtInt(NAIVE_SUBSET)} paths and scaled by ${scale.toFixed(0)}: pending skills ` +
        "thin out as paths go by, so the figure overstates a full run somewhat)\n",
    );
  }
  return {
    skills: SKILLS,
    globs,
    patterns,
    paths: PATHS,
    calls: batches.length,
    activated: ours.length,
    ours: timed.ours,
    oursCpuMs,
    coldMs,
    build: timed.build,
    naive: { ...naiveTimed.naive, extrapolatedMs: naiveMs, subset },
    targetMs: TARGET_ACTIVATE_MS,
    met,
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run({
    repoRoot: fileURLToPath(new URL("..", import.meta.url)),
    sizes: [],
    runs: DEFAULT_RUNS,
    warmup: DEFAULT_WARMUP,
    profile: false,
    gc: exposeGc(),
    log: (text) => process.stdout.write(`${text}\n`),
  });
}
