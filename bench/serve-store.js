// Serve store bench: a store of STORE_SKILLS skills on PostgreSQL, read over HTTP from one `serve` instance
// (the shipped bin) by sequential requests — retrieve a skill, list a page of 20 — next to a floor: the same
// retrieve statement sent by the bench straight to PostgreSQL through `pg`. The difference between the two is
// what HTTP, auth, the route and the JSON cost. Warm-up requests are not counted.
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { startPostgres } from "../dist/dev/postgres.js";
import { fmtInt, fmtMs, formatTable } from "./lib.js";
import { startServe } from "./serve-process.js";

/** Skills in the store (`SERVE_BENCH_SKILLS` overrides, for a quick run). */
export const STORE_SKILLS = Number(process.env.SERVE_BENCH_SKILLS ?? 100_000);
/** Timed retrieves per row (`SERVE_BENCH_STORE_SAMPLES` overrides); list pages are a quarter of it. */
export const SAMPLES = Number(process.env.SERVE_BENCH_STORE_SAMPLES ?? 4_000);
/** Untimed requests first, per row. */
export const WARMUP = 300;
/** Targets of the issue. */
export const TARGETS = { retrieveP99Ms: 2, listP99Ms: 10 };
const API_KEY = "sk-bench-serve-store";

/** A `--trace-gc` line: the kind of collection and its pause in ms. */
const GC_LINE = /(Scavenge|Mark-Compact|Mark-sweep)[^,]*, ([\d.]+) \/ [\d.]+ ms/g;

/**
 * `serve` (BIN) with `--trace-gc`; `gc()` sums the pauses it has reported since `gcReset()`.
 * @param {string} bin @param {string} db
 */
async function startServeTracingGc(bin, db) {
  let gc = { count: 0, totalMs: 0, maxMs: 0 };
  const serve = await startServe({
    bin,
    db,
    apiKey: API_KEY,
    nodeArgs: ["--trace-gc"],
    onOutput: (text) => {
      for (const match of text.matchAll(GC_LINE)) {
        const pause = Number(match[2]);
        gc = { count: gc.count + 1, totalMs: gc.totalMs + pause, maxMs: Math.max(gc.maxMs, pause) };
      }
    },
  });
  return {
    ...serve,
    gc: () => gc,
    gcReset: () => {
      gc = { count: 0, totalMs: 0, maxMs: 0 };
    },
  };
}

/**
 * p50, p99 and max of a list of milliseconds. Pure.
 * @param {readonly number[]} samples
 */
export function percentiles(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (/** @type {number} */ q) =>
    sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0, n: sorted.length };
}

/** A millisecond figure with two decimals: these are around a millisecond. @param {number} ms */
const ms2 = (ms) => (ms < 100 ? ms.toFixed(2) : fmtMs(ms));

/** Seeds `count` skills (one version each) in the workspace of the bench's key. @param {pg.Client} client @param {number} count */
async function seed(client, count) {
  await client.query(
    `WITH ws AS (SELECT w.id FROM workspaces w JOIN api_keys k ON k.workspace_id = w.id LIMIT 1)
     INSERT INTO skills (id, workspace_id, name, display_name, latest_version_id)
     SELECT 'skill_bench' || n, ws.id, 'skill-' || n, 'skill-' || n, 'skillver_bench' || n FROM ws, generate_series(1, $1::integer) n`,
    [count],
  );
  await client.query(
    `INSERT INTO skill_versions (id, skill_id, name, description, head)
     SELECT 'skillver_bench' || n, 'skill_bench' || n, 'skill-' || n, 'Skill number ' || n, '{}'::jsonb FROM generate_series(1, $1::integer) n`,
    [count],
  );
  await client.query("ANALYZE");
  const [row] = (await client.query("SELECT workspace_id FROM skills WHERE id = 'skill_bench1'")).rows;
  return String(row.workspace_id);
}

/** @param {import("./lib.js").BenchContext} ctx */
export async function run(ctx) {
  const postgres = await startPostgres().catch(() => undefined);
  if (postgres === undefined) {
    ctx.log("serve-store: skipped (no PostgreSQL server binaries: apt-get install postgresql)");
    return {};
  }
  /** @type {{ stop: () => Promise<unknown> }[]} */
  const started = [];
  const db = await postgres.createDatabase("bench_store");
  const client = new pg.Client({ connectionString: db });
  try {
    const ours = await startServeTracingGc(join(ctx.repoRoot, "dist/bin/main.js"), db);
    started.push(ours);
    // SERVE_BENCH_BASELINE_BIN=path/to/main.js: another build (e.g. main's) on the same database, measured
    // interleaved with this one, for a before/after ratio from one run.
    const baselineBin = process.env.SERVE_BENCH_BASELINE_BIN;
    const baseline = baselineBin ? await startServeTracingGc(baselineBin, db) : undefined;
    if (baseline !== undefined) started.push(baseline);
    await client.connect();
    const seededAt = performance.now();
    const workspaceId = await seed(client, STORE_SKILLS);
    const seedMs = performance.now() - seededAt;

    const headers = { "x-api-key": API_KEY };
    /** @param {string} url */
    const get = async (url) => {
      const t = performance.now();
      const response = await fetch(url, { headers });
      const body = /** @type {{ id?: string; has_more?: boolean; next_page?: string | null }} */ (
        await response.json()
      );
      if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
      return { ms: performance.now() - t, body };
    };
    const skillId = (/** @type {number} */ n) => `skill_bench${1 + ((n * 7919) % STORE_SKILLS)}`;
    /** @type {Record<string, (n: number) => Promise<number>>} */
    const retrieveBy = {
      "floor: the retrieve statement through pg": async (n) => {
        const t = performance.now();
        const { rows } = await client.query("SELECT * FROM skills WHERE id = $1 AND workspace_id = $2", [
          skillId(n),
          workspaceId,
        ]);
        if (rows.length !== 1) throw new Error(`floor: no ${skillId(n)}`);
        return performance.now() - t;
      },
      "retrieve a skill over HTTP": async (n) => {
        const { ms, body } = await get(`${ours.url}/v1/skills/${skillId(n)}`);
        if (body.id !== skillId(n)) throw new Error(`retrieve: got ${body.id}`);
        return ms;
      },
      ...(baseline === undefined
        ? {}
        : {
            "retrieve, baseline bin": async (/** @type {number} */ n) =>
              (await get(`${baseline.url}/v1/skills/${skillId(n)}`)).ms,
          }),
    };
    /** @type {Record<string, number[]>} */
    const retrieves = Object.fromEntries(Object.keys(retrieveBy).map((name) => [name, []]));
    const names = Object.keys(retrieveBy);
    // Interleaved: each round runs every row once, the order rotating, so load and GC drift hit all rows alike.
    for (let n = 0; n < WARMUP + SAMPLES; n++) {
      if (n === WARMUP) ours.gcReset();
      for (let i = 0; i < names.length; i++) {
        const name = names[(n + i) % names.length] ?? "";
        const ms = await retrieveBy[name]?.(n);
        if (n >= WARMUP && ms !== undefined) retrieves[name]?.push(ms);
      }
    }
    const retrieveGc = ours.gc();
    /** @type {Record<string, { url: string; samples: number[]; page: string }>} */
    const listers = {
      "list page (20) over HTTP": { url: ours.url, samples: [], page: "" },
      ...(baseline === undefined
        ? {}
        : { "list page (20), baseline bin": { url: baseline.url, samples: [], page: "" } }),
    };
    const listRounds = Math.ceil(SAMPLES / 4);
    for (let n = 0; n < WARMUP + listRounds; n++) {
      for (const lister of Object.values(listers)) {
        const query = lister.page === "" ? "" : `&page=${encodeURIComponent(lister.page)}`;
        const { ms, body } = await get(`${lister.url}/v1/skills?limit=20${query}`);
        if (n >= WARMUP) lister.samples.push(ms);
        lister.page = body.has_more === true && typeof body.next_page === "string" ? body.next_page : "";
      }
    }

    const retrieve = percentiles(retrieves["retrieve a skill over HTTP"] ?? []);
    const floor = percentiles(retrieves["floor: the retrieve statement through pg"] ?? []);
    const list = percentiles(listers["list page (20) over HTTP"]?.samples ?? []);
    ctx.log(
      `serve-store: ${fmtInt(STORE_SKILLS)} skills on PostgreSQL (seeded in ${fmtMs(seedMs)} ms), one instance, ` +
        `sequential requests, ${fmtInt(WARMUP)} warm-up per row not counted`,
    );
    const row = (/** @type {string} */ name, /** @type {number[]} */ samples, target = "") => {
      const p = percentiles(samples);
      return [name, fmtInt(p.n), ms2(p.p50), ms2(p.p99), ms2(p.max), target];
    };
    ctx.log(
      formatTable(
        ["figure (ms)", "n", "p50", "p99", "max", "target p99"],
        [
          ...names.map((name) =>
            row(
              name,
              retrieves[name] ?? [],
              name === "retrieve a skill over HTTP" ? `≤ ${TARGETS.retrieveP99Ms}` : "",
            ),
          ),
          ...Object.entries(listers).map(([name, lister]) =>
            row(name, lister.samples, name === "list page (20) over HTTP" ? `≤ ${TARGETS.listP99Ms}` : ""),
          ),
        ],
      ),
    );
    ctx.log(
      `retrieve over HTTP minus the floor: p50 +${ms2(retrieve.p50 - floor.p50)} ms, p99 +${ms2(retrieve.p99 - floor.p99)} ms`,
    );
    ctx.log(
      `GC in the serve process during the timed retrieve rounds: ${retrieveGc.count} pauses, ${ms2(retrieveGc.totalMs)} ms in all, longest ${ms2(retrieveGc.maxMs)} ms`,
    );
    if (baseline !== undefined) {
      const before = percentiles(retrieves["retrieve, baseline bin"] ?? []);
      ctx.log(
        `this build / baseline bin, retrieve: p50 ${(retrieve.p50 / before.p50).toFixed(2)}×, p99 ${(retrieve.p99 / before.p99).toFixed(2)}×`,
      );
    }
    return {
      retrieveP50: retrieve.p50,
      retrieveP99: retrieve.p99,
      retrieveMax: retrieve.max,
      floorP50: floor.p50,
      floorP99: floor.p99,
      listP50: list.p50,
      listP99: list.p99,
    };
  } finally {
    await client.end().catch(() => {});
    await Promise.all(started.map((s) => s.stop()));
    await postgres.stop();
  }
}

/** The closing note's lines. @param {Record<string, number>} f */
export function closing(f) {
  if (f.retrieveP99 === undefined) return ["skipped (no PostgreSQL)"];
  const verdict = (/** @type {number} */ value, /** @type {number} */ target) =>
    value <= target ? "met" : "MISSED";
  return [
    `${fmtInt(STORE_SKILLS)} skills: retrieve p99 ${ms2(f.retrieveP99)} ms (≤ ${TARGETS.retrieveP99Ms} ms: ${verdict(f.retrieveP99, TARGETS.retrieveP99Ms)}; floor p99 ${ms2(f.floorP99 ?? 0)} ms), list page p99 ${ms2(f.listP99 ?? 0)} ms (≤ ${TARGETS.listP99Ms} ms: ${verdict(f.listP99 ?? 0, TARGETS.listP99Ms)})`,
  ];
}
