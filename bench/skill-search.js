// Bench section "skill-search" (issue #25 item 1): the retriever's quality on the evaluation set in the repo
// (test/fixtures/skill-search-eval: recall@5 and MRR@10, on the dev part it was tuned on, the held-out test
// part, and all), then its cost at 1k/10k/100k skills synthesised from the eval skills (each a copy of one, its
// body included, under a new name and with a varied description): the index build (bodies analysed), the
// index cache load (read, decode, check) and a query, each against an honest floor:
// - build: one pass over the same text that lower-cases and splits it into words (what any index must do);
// - cache load: reading the same bytes from the same file;
// - query: a plain substring scan of the same text for the query's words (what a search without an index does).
// Targets (issue #25): 10k skills build < 1 s, cache load < 100 ms, query < 5 ms.
// Run alone with `node bench/run.js skill-search` after `npm run build`.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { scanSkillRoots } from "../dist/discovery/scan-roots.js";
import { createNodeFs } from "../dist/io/fs.js";
import { decodeIndexCache, encodeIndexCache, loadIndexCache } from "../dist/skill-search/index-cache.js";
import { buildLexicalIndex } from "../dist/skill-search/lexical-index.js";
import { createSkillSearcher, headSignature } from "../dist/skill-search/search.js";
import { skillDocument } from "../dist/skill-search/skill-document.js";
import { compare, createRng, fmtInt, fmtMs, fmtRatio, formatTable, withTempDir } from "./lib.js";

/** Targets at 10,000 skills, in ms (median). */
export const TARGETS_MS = { build: 1_000, load: 100, query: 5 };
/** The recall@5 the issue asks for. */
export const TARGET_RECALL = 0.9;
/** Catalog sizes measured. */
export const SIZES = [1_000, 10_000, 100_000];
// (`--sizes` replaces them; the 10k targets are printed when 10,000 is among them.)
/** Timed runs of each build or load at least, and of each query pass. */
const MIN_RUNS = 5;
const SEED = 0x5ea_2c4;
/** The query timing runs every this-many-th request of the set. */
const QUERY_STRIDE = 8;
const EVAL_DIR = fileURLToPath(new URL("../test/fixtures/skill-search-eval/", import.meta.url));
const WORDS = "quick careful small team legacy cloud local shared nightly strict".split(" ");

/**
 * The evaluation set: its skills with their bodies read, and its requests.
 * @returns {Promise<{ skills: import("../dist/skill/skill.js").Skill[], bodies: Map<string, string>,
 *   requests: { request: string, expected: string, split: string }[] }>}
 */
export async function loadEvalSet() {
  const listing = await scanSkillRoots({
    fs: createNodeFs(),
    roots: [{ dir: join(EVAL_DIR, "skills"), source: "project", layout: "skills", label: "eval" }],
  });
  const skills = [...listing.skills].sort((a, b) => (a.name < b.name ? -1 : 1));
  const bodies = new Map();
  for (const skill of skills) bodies.set(skill.name, await skill.loadBody());
  const requests = JSON.parse(await readFile(join(EVAL_DIR, "requests.json"), "utf8"));
  return { skills, bodies, requests };
}

/**
 * `size` skills made from the eval skills: copy `i` of skill `i mod n`, named `{name}-{i}`, its description
 * with a seeded word added, its body the same text (held once in memory).
 * @param {import("../dist/skill/skill.js").Skill[]} base
 * @param {Map<string, string>} bodies
 * @param {number} size
 */
export function synthesise(base, bodies, size) {
  const rng = createRng(SEED);
  return Array.from({ length: size }, (_, i) => {
    const from = /** @type {import("../dist/skill/skill.js").Skill} */ (base[i % base.length]);
    const body = bodies.get(from.name) ?? "";
    return {
      ...from,
      name: `${from.name}-${i}`,
      description: `${from.description} (${rng.pick(WORDS)} ${i})`,
      filePath: "",
      loadBody: async () => body,
    };
  });
}

/**
 * Recall@5 and MRR@10 of the default searcher over some requests.
 * @param {import("../dist/skill/skill.js").Skill[]} skills
 * @param {{ request: string, expected: string }[]} requests
 */
async function quality(skills, requests) {
  const searcher = createSkillSearcher();
  let hits = 0;
  let reciprocal = 0;
  for (const r of requests) {
    const names = (await searcher.search(skills, r.request)).map((m) => m.skill.name);
    const at = names.indexOf(r.expected);
    if (at !== -1 && at < 5) hits += 1;
    if (at !== -1 && at < 10) reciprocal += 1 / (at + 1);
  }
  return { n: requests.length, recall: hits / requests.length, mrr: reciprocal / requests.length };
}

/**
 * The floor for a build: lower-case and split every field of every skill, counting the words.
 * @param {{ fields: Record<string, string> }[]} documents
 */
function tokenizeFloor(documents) {
  let words = 0;
  for (const d of documents) {
    for (const text of Object.values(d.fields)) words += text.toLowerCase().split(/[^\p{L}\p{N}]+/u).length;
  }
  return words;
}

/**
 * The floor for a query: a substring scan of every skill's lower-cased text (head, then body) for each word.
 * @param {{ head: string, body: string }[]} texts
 * @param {string[]} words
 */
function scanFloor(texts, words) {
  let found = 0;
  for (const text of texts) {
    for (const w of words) if (text.head.includes(w) || text.body.includes(w)) found += 1;
  }
  return found;
}

/**
 * Runs the section; resolves to the figures. Rejects when the eval set's recall is under the target (a
 * retriever that lost its quality is a failure, not a figure).
 * @param {import("./lib.js").BenchContext} ctx
 */
export async function run(ctx) {
  ctx.log("## skill-search\n");
  const { skills, bodies, requests } = await loadEvalSet();
  const splits = ["dev", "test", "all"].map((split) => ({
    split,
    requests: requests.filter((r) => split === "all" || r.split === split),
  }));
  const scores = [];
  for (const { split, requests: part } of splits) scores.push({ split, ...(await quality(skills, part)) });
  ctx.log(
    `evaluation set: ${skills.length} skills, ${requests.length} requests (dev: tuned on; test: held out)\n` +
      `${formatTable(
        ["part", "requests", "recall@5", "MRR@10", "target recall@5"],
        scores.map((s) => [
          s.split,
          String(s.n),
          s.recall.toFixed(3),
          s.mrr.toFixed(3),
          `≥ ${TARGET_RECALL}`,
        ]),
      )}\n`,
  );
  /** @type {string[][]} */
  const rows = [];
  /** @type {{ size: number, terms: number, postings: number, cacheBytes: number, buildMs: number,
   *   buildCpuMs: number, buildFloorMs: number, loadMs: number, loadFloorMs: number, queryMs: number, queryFloorMs: number }[]} */
  const figures = [];
  await withTempDir("skill-search-bench-", async (dir) => {
    for (const size of ctx.sizes === undefined || ctx.sizes.join() === "1000,10000" ? SIZES : ctx.sizes) {
      const synthetic = synthesise(skills, bodies, size);
      // One document per skill; a copy shares its original's body text (the strings, not the work: each is
      // analysed on its own).
      const bodyDocs = new Map(skills.map((k) => [k.name, skillDocument(k, bodies.get(k.name) ?? "")]));
      const documents = synthetic.map((s, i) => {
        const own = skillDocument(s, undefined);
        const from = bodyDocs.get((skills[i % skills.length] ?? s).name) ?? own;
        return { ...own, fields: { ...own.fields, headings: from.fields.headings, body: from.fields.body } };
      });
      const t0 = performance.now();
      const index = buildLexicalIndex(documents);
      ctx.log(`${fmtInt(size)} skills: first build ${fmtMs(performance.now() - t0)} ms`);
      const stamp = { signature: headSignature(synthetic), stamps: synthetic.map(() => "mem") };
      const file = join(dir, `index-${size}.idx`);
      const bytes = encodeIndexCache(index, "bench", stamp);
      await writeFile(file, bytes);
      if (decodeIndexCache(bytes, "bench", stamp) === undefined)
        throw new Error("the index cache does not decode");
      const cache = { fs: createNodeFs(), file, key: "bench" };
      const lowerBodies = new Map();
      const texts = documents.map((d) => {
        let body = lowerBodies.get(d.fields.body);
        if (body === undefined) {
          body = `${d.fields.headings}\n${d.fields.body}`.toLowerCase();
          lowerBodies.set(d.fields.body, body);
        }
        return {
          head: `${d.fields.name}\n${d.fields.description}\n${d.fields.whenToUse}`.toLowerCase(),
          body,
        };
      });
      // Every eighth request: the floor scans all the text once per query word, so a pass of all 174 would take
      // minutes at 100k skills.
      const queries = requests.filter((_, i) => i % QUERY_STRIDE === 0).map((r) => r.request);
      const searcher = createSkillSearcher();
      await searcher.search(synthetic, "warm the index");
      const runs = Math.max(ctx.runs, MIN_RUNS);
      const warmup = Math.max(ctx.warmup, 1);
      const build = await compare(
        {
          ours: async () => buildLexicalIndex(documents),
          floor: async () => tokenizeFloor(documents),
        },
        { runs: size >= 100_000 ? Math.min(runs, 3) : runs, warmup: size >= 100_000 ? 1 : warmup },
      );
      const load = await compare(
        {
          ours: async () => {
            if ((await loadIndexCache(cache, stamp)) === undefined)
              throw new Error("the index cache was not loaded");
          },
          floor: async () => readFile(file),
        },
        { runs, warmup },
      );
      // One timed pass runs every request once; the figure is per query.
      const query = await compare(
        {
          ours: async () => {
            for (const q of queries) await searcher.search(synthetic, q);
          },
          floor: async () => {
            for (const q of queries)
              scanFloor(
                texts,
                q
                  .toLowerCase()
                  .split(/[^\p{L}\p{N}]+/u)
                  .filter((w) => w.length > 2),
              );
          },
        },
        { runs: Math.min(runs, size >= 100_000 ? 3 : runs), warmup: 1 },
      );
      const perQuery = (/** @type {number} */ ms) => ms / queries.length;
      const figure = {
        size,
        terms: index.terms.length,
        postings: index.docs.length,
        cacheBytes: bytes.length,
        buildMs: build.ours.median,
        buildCpuMs: build.ours.cpuMedian ?? Number.NaN,
        buildFloorMs: build.floor.median,
        loadMs: load.ours.median,
        loadFloorMs: load.floor.median,
        queryMs: perQuery(query.ours.median),
        queryFloorMs: perQuery(query.floor.median),
      };
      figures.push(figure);
      rows.push([
        fmtInt(size),
        fmtMs(figure.buildMs),
        fmtMs(figure.buildCpuMs),
        fmtRatio(figure.buildMs / figure.buildFloorMs),
        fmtMs(figure.loadMs),
        fmtRatio(figure.loadMs / figure.loadFloorMs),
        `${fmtInt(Math.round(figure.cacheBytes / 1024))} KB`,
        fmtMs(figure.queryMs),
        fmtRatio(figure.queryMs / figure.queryFloorMs),
      ]);
    }
  });
  ctx.log(
    `${formatTable(
      [
        "skills",
        "build ms",
        "build CPU ms",
        "build/floor",
        "cache load ms",
        "load/floor",
        "cache size",
        "query ms",
        "query/floor",
      ],
      rows,
    )}\n(floors: build = lower-case and split the same text; cache load = read the same file; query = substring` +
      " scan of the same text for the query's words)\n",
  );
  const at10k = figures.find((f) => f.size === 10_000);
  const verdict = (/** @type {number} */ ms, /** @type {number} */ target) =>
    ms < target ? "met" : "MISSED";
  if (at10k !== undefined) {
    ctx.log(
      `targets at 10,000 skills: build ${fmtMs(at10k.buildMs)} < ${TARGETS_MS.build} ms ${verdict(at10k.buildMs, TARGETS_MS.build)} ` +
        `(CPU ${fmtMs(at10k.buildCpuMs)} ms; a loaded machine inflates the wall time); ` +
        `cache load ${fmtMs(at10k.loadMs)} < ${TARGETS_MS.load} ms ${verdict(at10k.loadMs, TARGETS_MS.load)}; ` +
        `query ${fmtMs(at10k.queryMs)} < ${TARGETS_MS.query} ms ${verdict(at10k.queryMs, TARGETS_MS.query)}\n`,
    );
  }
  const all = scores.find((s) => s.split === "all");
  if (all === undefined || all.recall < TARGET_RECALL) {
    throw new Error(`recall@5 on the evaluation set is ${all?.recall.toFixed(3)}, under ${TARGET_RECALL}`);
  }
  return { quality: scores, sizes: figures };
}

/**
 * The section's lines of the closing note.
 * @param {{ quality: { split: string, recall: number, mrr: number }[], sizes: { size: number, buildMs: number,
 *   loadMs: number, queryMs: number }[] }} figures
 */
export function closing(figures) {
  const all = figures.quality.find((s) => s.split === "all");
  const test = figures.quality.find((s) => s.split === "test");
  const at10k = figures.sizes.find((f) => f.size === 10_000);
  const lines = [
    `recall@5 ${all?.recall.toFixed(3)} (held-out ${test?.recall.toFixed(3)}), MRR@10 ${all?.mrr.toFixed(3)}; target recall@5 ≥ ${TARGET_RECALL}`,
  ];
  if (at10k !== undefined) {
    lines.push(
      `at 10k skills: build ${fmtMs(at10k.buildMs)} (< ${TARGETS_MS.build}), cache load ${fmtMs(at10k.loadMs)} (< ${TARGETS_MS.load}), query ${fmtMs(at10k.queryMs)} (< ${TARGETS_MS.query})`,
    );
  }
  return lines;
}
