// Bench section "listing": `buildListing` (SPEC §3) over 10,000 synthetic skills, with a budget that fits
// every full line, with the default 8,000-char budget, and with a budget the packer can meet exactly.
// Run alone with `node bench/listing.js` after `npm run build`.
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildListing, DEFAULT_LISTING_BUDGET } from "../dist/listing.js";
import { compare, createRng, DEFAULT_RUNS, DEFAULT_WARMUP, fmtInt, fmtMs, formatTable } from "./lib.js";

/** Target for one `buildListing` call over the corpus, in ms (median). */
export const TARGET_LISTING_MS = 10;
/** Skills in the corpus. */
export const SKILLS = 10_000;
/** Timed runs at least (the brief asks for 20; a run is cheap, and more runs steady the median). */
const MIN_RUNS = 50;
/** Untimed runs at least: V8 optimises the packer's loops after a few calls. */
const MIN_WARMUP = 10;
/** Description length range in chars (before `when_to_use`). */
export const DESCRIPTION_CHARS = { min: 40, max: 400 };
/** Share of skills with `when_to_use`. */
export const WHEN_TO_USE_SHARE = 0.3;
/** Share of bundled skills (they keep their full line when over budget). */
export const BUNDLED_SHARE = 0.05;
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
 * The corpus: `SKILLS` skills in listing order (bundled ones last, as discovery orders them) and usage scores
 * for about `USAGE_SHARE` of them. Plain objects with the fields `buildListing` reads, shaped like `Skill`.
 * @param {number} [seed]
 */
export function generateListingCorpus(seed = SEED) {
  const rng = createRng(seed);
  /** @type {import("../dist/skill/skill.js").Skill[]} */
  const skills = [];
  /** @type {Map<string, { count: number, lastUsedAt: number }>} */
  const usage = new Map();
  const bundled = Math.round(SKILLS * BUNDLED_SHARE);
  for (let i = 0; i < SKILLS; i++) {
    const isBundled = i >= SKILLS - bundled;
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
 * Chars of the packer's floor: every listable entry name-only except bundled ones, which keep full text.
 * No budget below this can be met, since the listing never drops an entry (SPEC §3).
 * @param {import("../dist/listing.js").Listing} full a listing built with a budget that fits everything
 * @param {import("../dist/skill/skill.js").Skill[]} skills
 */
function floorChars(full, skills) {
  const byName = new Map(skills.map((s) => [s.name, s]));
  let chars = Math.max(0, full.entries.length - 1);
  for (const entry of full.entries) {
    const skill = byName.get(entry.name);
    if (skill?.source === "bundled") chars += entry.text.length;
    else chars += (skill?.alias === undefined ? entry.name : `${entry.name} (${skill.alias})`).length + 2;
  }
  return chars;
}

/**
 * Runs the section: prints the corpus, a table and the budget checks; resolves to the figures. Rejects when a
 * listing goes over a budget the packer can meet, or when the fits-all listing is not complete.
 * @param {import("./lib.js").BenchContext} ctx
 */
export async function run(ctx) {
  ctx.log("## listing\n");
  const { skills, usage } = generateListingCorpus();
  const full = buildListing(skills, { budget: Number.MAX_SAFE_INTEGER, usage, now: NOW });
  const fitsAll = full.chars;
  const floor = floorChars(full, skills);
  const between = Math.round((floor + fitsAll) / 2);
  const bundled = skills.filter((s) => s.source === "bundled").length;
  ctx.log(
    `${fmtInt(SKILLS)} skills (${fmtInt(full.entries.length)} listable, ${fmtInt(bundled)} bundled, ` +
      `${fmtInt(usage.size)} with usage scores); full listing ${fmtInt(fitsAll)} chars, ` +
      `packer floor (bundled full + the rest name-only) ${fmtInt(floor)} chars`,
  );

  /** @type {{ label: string, budget: number, meetable: boolean }[]} */
  const cases = [
    { label: "(a) budget fits all", budget: fitsAll, meetable: true },
    {
      label: `(b) default ${fmtInt(DEFAULT_LISTING_BUDGET)} chars`,
      budget: DEFAULT_LISTING_BUDGET,
      meetable: false,
    },
    { label: "(c) halfway floor..full", budget: between, meetable: true },
  ];
  /** Per case: runs within budget, runs in all, largest output and name-only count seen. */
  const checks = cases.map(() => ({ within: 0, runs: 0, maxChars: 0, nameOnly: 0 }));
  /** @type {Record<string, () => Promise<void>>} */
  const tasks = {};
  cases.forEach((c, i) => {
    tasks[c.label] = async () => {
      const listing = buildListing(skills, { budget: c.budget, usage, now: NOW });
      const check = checks[i];
      if (check === undefined) return;
      check.runs += 1;
      if (listing.chars <= c.budget) check.within += 1;
      check.maxChars = Math.max(check.maxChars, listing.chars);
      check.nameOnly = listing.entries.filter((e) => e.nameOnly).length;
      if (listing.chars > Math.max(c.budget, floor)) {
        throw new Error(`${c.label}: ${listing.chars} chars, over both the budget and the floor (${floor})`);
      }
    };
  });
  const timed = await compare(tasks, {
    runs: Math.max(ctx.runs, MIN_RUNS),
    warmup: Math.max(ctx.warmup, MIN_WARMUP),
  });

  const rows = cases.map((c, i) => {
    const stats = timed[c.label];
    const check = checks[i] ?? { within: 0, runs: 0, maxChars: 0, nameOnly: 0 };
    const ms = stats?.median ?? Number.NaN;
    return [
      c.label,
      fmtInt(c.budget),
      fmtMs(ms),
      fmtMs(stats?.cpuMedian ?? Number.NaN),
      fmtMs(stats?.min ?? Number.NaN),
      `≤ ${TARGET_LISTING_MS}${ms <= TARGET_LISTING_MS ? "" : " ✗"}`,
      fmtInt(check.maxChars),
      fmtInt(check.nameOnly),
      `${check.within}/${check.runs}${check.within === check.runs ? "" : c.meetable ? " ✗" : " (floor)"}`,
    ];
  });
  ctx.log(
    `\n${formatTable(
      [
        "buildListing, 10k skills",
        "budget",
        "median ms",
        "CPU ms",
        "min ms",
        "target",
        "chars",
        "name-only",
        "≤ budget",
      ],
      rows,
    )}\n`,
  );
  ctx.log(`(load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} CPUs while timing)`);
  if (fitsAll !== full.chars || checks[0]?.nameOnly !== 0) throw new Error("(a) left entries name-only");
  ctx.log(
    `(b) cannot be met with ${fmtInt(SKILLS)} skills: the listing never drops an entry, so it ends at the floor ` +
      `of ${fmtInt(floor)} chars (SPEC §3); every run stayed within max(budget, floor).\n`,
  );
  for (const [i, c] of cases.entries()) {
    const check = checks[i];
    if (c.meetable && check !== undefined && check.within !== check.runs) {
      throw new Error(`${c.label}: ${check.runs - check.within} runs went over the ${c.budget}-char budget`);
    }
  }
  return {
    skills: SKILLS,
    listable: full.entries.length,
    bundled,
    withUsage: usage.size,
    fullChars: fitsAll,
    floorChars: floor,
    cases: cases.map((c, i) => ({ ...c, stats: timed[c.label], check: checks[i] })),
    targetMs: TARGET_LISTING_MS,
    met: cases.every((c) => (timed[c.label]?.median ?? Number.POSITIVE_INFINITY) <= TARGET_LISTING_MS),
  };
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
