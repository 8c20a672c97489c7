// Bench section "listing": `buildListing` (SPEC §3) over 10,000 and 100,000 synthetic skills, with the budgets a
// session uses (8,000 chars for a 200k-token model, 30,000 for a 1M one). Targets (issue 12 #4): ≤ 5 ms at 10k
// skills, ≤ 40 ms at 100k, median of the timed runs; every listing must stay within its budget (SPEC §3: never
// over budget because of names). Timings live here, not in tests (issue 16 #8).
// Run alone with `node bench/listing.js` after `npm run build`.
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import { DEFAULT_LISTING_BUDGET } from "../dist/listing/budget.js";
import { focusSeed } from "../dist/listing/focus.js";
import { buildListing } from "../dist/listing/packing.js";
import { compare, createRng, DEFAULT_RUNS, DEFAULT_WARMUP, fmtInt, fmtMs, formatTable } from "./lib.js";

/** Target for one `buildListing` call, in ms (median), by catalog size. */
export const TARGET_LISTING_MS = { 10000: 5, 100000: 40 };
/** Catalog sizes measured. */
export const SIZES = [10_000, 100_000];
/** The listing budget of a 1M-token model (1,000,000 × 3 chars/token × 1%). */
const LARGE_WINDOW_BUDGET = 30_000;
/** Timed runs at least (a run is cheap, and more runs steady the median). */
const MIN_RUNS = 30;
/** Untimed runs at least: V8 optimises the packer's loops after a few calls. */
const MIN_WARMUP = 10;
/** Description length range in chars (before `when_to_use`). */
export const DESCRIPTION_CHARS = { min: 40, max: 400 };
/** Share of skills with `when_to_use`. */
export const WHEN_TO_USE_SHARE = 0.3;
/** Bundled skills (they keep their full line, and are never left out): a handful, as the package ships. */
export const BUNDLED = 5;
/** Share of skills with a usage score. */
export const USAGE_SHARE = 0.2;
/** Share with a `name:` alias (listed as `{dir} ({alias})`). */
const ALIAS_SHARE = 0.02;
/** Share with `disable-model-invocation` (never listed). */
const HIDDEN_SHARE = 0.01;
/** Share with a description longer than the 1,536-char cap. */
const LONG_SHARE = 0.002;
const SEED = 0x115_7ed;
/** "Now" for usage decay: fixed, so every run packs the same way. */
const NOW = Date.UTC(2026, 0, 15);
const DAY_MS = 86_400_000;

const VERBS = ["Generates", "Reviews", "Deploys", "Migrates", "Audits", "Formats", "Explains", "Checks"];
const OBJECTS = ["pull requests", "database schemas", "release notes", "API clients", "CI pipelines", "docs"];
const WORDS = (
  "the a and for with when from into code test build deploy review change commit branch server client api " +
  "schema query table index cache token model agent tool user project config log error warning retry " +
  "timeout request response stream event hook plugin command release version docs guide step check run fix"
).split(" ");
const SOURCES = /** @type {const} */ (["user", "project", "project", "project", "plugin", "managed"]);

/**
 * A sentence-like text of about `chars` characters.
 * @param {import("./lib.js").Rng} rng
 * @param {number} chars
 */
function prose(rng, chars) {
  let text = `${rng.pick(VERBS)} ${rng.pick(OBJECTS)}`;
  while (text.length < chars) text += ` ${rng.pick(WORDS)}`;
  return `${text.slice(0, chars).trimEnd()}.`;
}

/**
 * The corpus: `size` skills in listing order (the `BUNDLED` bundled ones last, as discovery orders them) and
 * usage scores for about `USAGE_SHARE` of them. Plain objects with the fields `buildListing` reads, shaped like
 * `Skill`.
 * @param {number} size
 * @param {number} [seed]
 */
export function generateListingCorpus(size, seed = SEED) {
  const rng = createRng(seed);
  /** @type {import("../dist/skill/skill.js").Skill[]} */
  const skills = [];
  /** @type {Map<string, { count: number, lastUsedAt: number }>} */
  const usage = new Map();
  for (let i = 0; i < size; i++) {
    const isBundled = i >= size - BUNDLED;
    const name = `${rng.pick(["fast", "safe", "tidy", "deep", "lazy"])}-${rng.pick(["lint", "ship", "docs", "test"])}-${i}`;
    const long = rng.chance(LONG_SHARE);
    const length = long ? rng.int(1_600, 2_400) : rng.int(DESCRIPTION_CHARS.min, DESCRIPTION_CHARS.max);
    const description = rng.chance(0.05)
      ? `${prose(rng, length / 2)}\n${prose(rng, length / 2)}`
      : prose(rng, length);
    const dir = `/repo/.claude/skills/${name}`;
    /** @type {import("../dist/skill/skill.js").Skill} */
    const skill = {
      name,
      description,
      descriptionFromBody: false,
      argumentNames: [],
      allowedTools: [],
      disallowedTools: [],
      context: "inline",
      userInvocable: true,
      disableModelInvocation: rng.chance(HIDDEN_SHARE),
      shell: "bash",
      extra: {},
      source: isBundled ? "bundled" : rng.pick(SOURCES),
      kind: "skill",
      filePath: `${dir}/SKILL.md`,
      baseDir: dir,
      root: "/repo/.claude/skills",
      loadBody: async () => "",
    };
    if (rng.chance(WHEN_TO_USE_SHARE)) skill.whenToUse = `Use when ${prose(rng, rng.int(20, 160))}`;
    if (rng.chance(ALIAS_SHARE)) skill.alias = `alias-${i}`;
    skills.push(skill);
    if (rng.chance(USAGE_SHARE)) {
      usage.set(name, { count: rng.int(1, 60), lastUsedAt: NOW - rng.int(0, 90) * DAY_MS });
    }
  }
  return { skills, usage };
}

/**
 * Times one catalog size: a table row per budget with the median, CPU and min ms, the target and verdict, the
 * chars sent against the budget, and how many entries were name-only and left out.
 * @param {import("./lib.js").BenchContext} ctx
 * @param {number} size
 */
async function runSize(ctx, size) {
  const { skills, usage } = generateListingCorpus(size);
  const full = buildListing(skills, { budget: Number.MAX_SAFE_INTEGER, usage, now: NOW });
  const target = TARGET_LISTING_MS[/** @type {10000 | 100000} */ (size)] ?? Number.NaN;
  ctx.log(
    `${fmtInt(size)} skills (${fmtInt(full.entries.length)} listable, ${BUNDLED} bundled, ` +
      `${fmtInt(usage.size)} with usage scores); every full line: ${fmtInt(full.chars)} chars`,
  );
  // A session packs with its focus (issue #25 item 4): ten relevant names and the rotation of its first prompt.
  const focus = {
    relevant: skills.filter((_, i) => i % Math.floor(size / 10) === 7).map((s) => s.name),
    seed: focusSeed("turn these invoices into a pdf"),
  };
  /** @type {{ label: string, budget: number, focus?: typeof focus }[]} */
  const cases = [
    { label: `200k-token model: ${fmtInt(DEFAULT_LISTING_BUDGET)}`, budget: DEFAULT_LISTING_BUDGET },
    { label: `1M-token model: ${fmtInt(LARGE_WINDOW_BUDGET)}`, budget: LARGE_WINDOW_BUDGET },
    { label: `${fmtInt(DEFAULT_LISTING_BUDGET)}, session focus`, budget: DEFAULT_LISTING_BUDGET, focus },
    { label: `${fmtInt(LARGE_WINDOW_BUDGET)}, session focus`, budget: LARGE_WINDOW_BUDGET, focus },
  ];
  const checks = cases.map(() => ({ within: 0, runs: 0, chars: 0, nameOnly: 0, omitted: 0 }));
  /** @type {Record<string, () => Promise<void>>} */
  const tasks = {};
  cases.forEach((c, i) => {
    tasks[c.label] = async () => {
      const listing = buildListing(skills, {
        budget: c.budget,
        usage,
        now: NOW,
        searchable: true,
        focus: c.focus === undefined ? undefined : () => focus,
      });
      const check = checks[i];
      if (check === undefined) return;
      check.runs += 1;
      if (listing.chars <= c.budget) check.within += 1;
      check.chars = listing.chars;
      check.nameOnly = listing.entries.filter((e) => e.nameOnly).length;
      check.omitted = listing.omitted.length;
    };
  });
  const timed = await compare(tasks, {
    runs: Math.max(ctx.runs, MIN_RUNS),
    warmup: Math.max(ctx.warmup, MIN_WARMUP),
  });
  const rows = cases.map((c, i) => {
    const stats = timed[c.label];
    const check = checks[i] ?? { within: 0, runs: 0, chars: 0, nameOnly: 0, omitted: 0 };
    const ms = stats?.median ?? Number.NaN;
    return [
      c.label,
      fmtMs(ms),
      fmtMs(stats?.cpuMedian ?? Number.NaN),
      fmtMs(stats?.min ?? Number.NaN),
      `≤ ${target}`,
      ms <= target ? "met" : "MISSED",
      fmtInt(check.chars),
      fmtInt(check.nameOnly),
      fmtInt(check.omitted),
      `${check.within}/${check.runs}${check.within === check.runs ? "" : " ✗"}`,
    ];
  });
  ctx.log(
    `\n${formatTable(
      [
        `buildListing, ${fmtInt(size)} skills, budget`,
        "median ms",
        "CPU ms",
        "min ms",
        "target",
        "verdict",
        "chars",
        "name-only",
        "left out",
        "≤ budget",
      ],
      rows,
    )}\n`,
  );
  const median = (/** @type {number} */ i) => timed[cases[i]?.label ?? ""]?.median ?? Number.NaN;
  ctx.log(
    `session focus costs ×${(median(2) / median(0)).toFixed(2)} (8,000) and ×${(median(3) / median(1)).toFixed(2)} ` +
      "(30,000) of the same packing without it\n",
  );
  for (const [i, c] of cases.entries()) {
    const check = checks[i];
    if (check !== undefined && check.within !== check.runs) {
      throw new Error(`${size} skills, ${c.label}: ${check.runs - check.within} runs went over the budget`);
    }
  }
  return {
    size,
    listable: full.entries.length,
    fullChars: full.chars,
    targetMs: target,
    cases: cases.map((c, i) => ({ ...c, stats: timed[c.label], check: checks[i] })),
    met: cases.every((c) => (timed[c.label]?.median ?? Number.POSITIVE_INFINITY) <= target),
  };
}

/**
 * Runs the section: a table per catalog size; resolves to the figures. Rejects when a listing goes over its
 * budget (SPEC §3: the listing is never over budget because of names).
 * @param {import("./lib.js").BenchContext} ctx
 */
export async function run(ctx) {
  ctx.log("## listing\n");
  const results = [];
  for (const size of SIZES) results.push(await runSize(ctx, size));
  ctx.log(
    `(load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} CPUs while timing; the verdict is on ` +
      "the wall-clock median, which a loaded machine inflates: CPU ms is the figure that load moves least)",
  );
  ctx.log(
    `verdict: ${results.map((r) => `${fmtInt(r.size)} skills ${r.met ? "met" : "MISSED"} (≤ ${r.targetMs} ms)`).join(", ")}\n`,
  );
  return { sizes: results, met: results.every((r) => r.met) };
}

/**
 * The closing note's lines: each size and budget's median with its target and verdict (CPU ms beside it: the
 * figure a loaded machine moves least), and whether every listing stayed within its budget (SPEC §3).
 * @param {{ sizes: Awaited<ReturnType<typeof runSize>>[] }} figures
 * @returns {string[]}
 */
export function closing(figures) {
  return figures.sizes.flatMap((size) =>
    size.cases.map((c) => {
      const ms = c.stats?.median ?? Number.NaN;
      const within = c.check !== undefined && c.check.within === c.check.runs;
      return (
        `${fmtInt(size.size)} skills, budget ${fmtInt(c.budget)}: ${fmtMs(ms)} ms (CPU ${fmtMs(c.stats?.cpuMedian ?? Number.NaN)} ms) ` +
        `(target ≤ ${size.targetMs} ms): ${ms <= size.targetMs ? "met" : "MISSED"}; within budget in every run: ${within ? "yes" : "NO"}`
      );
    }),
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run({
    repoRoot: fileURLToPath(new URL("..", import.meta.url)),
    sizes: [],
    runs: DEFAULT_RUNS,
    warmup: DEFAULT_WARMUP,
    profile: false,
    log: (text) => process.stdout.write(`${text}\n`),
  });
}
