// Serve skill search bench (issue #25 item 2): STORE_SKILLS stored skills searched with PostgreSQL's full-text
// machinery (a workspace through the postings of skill_terms, an agent's skills through their versions' vectors), on PGlite
// (serve's default) and on PostgreSQL, through the store's own function (`searchStoredSkills`) and driver.
// Queries are 3-6 words of the skills' vocabulary, most matching thousands of skills. The floor: a primary-key lookup of one skill through the same
// driver (the cheapest statement a search could be). Target: p99 <= 20 ms at 100k skills.
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { startPostgres } from "../dist/dev/postgres.js";
import { openPgDriver } from "../dist/serve/store/pg-driver.js";
import { openPgliteDriver } from "../dist/serve/store/pglite-driver.js";
import { createPostingsUpkeep } from "../dist/serve/store/postings-upkeep.js";
import { searchStoredSkills } from "../dist/serve/store/skill-search.js";
import { createStore } from "../dist/serve/store/store.js";
import { createRng, formatTable } from "./lib.js";

/** Stored skills (`SEARCH_BENCH_SKILLS` overrides, for a quick run). */
export const STORE_SKILLS = Number(process.env.SEARCH_BENCH_SKILLS ?? 100_000);
/** Timed searches per database. */
export const SAMPLES = Number(process.env.SEARCH_BENCH_SAMPLES ?? 400);
const WARMUP = 40;
export const TARGETS = { p99Ms: 20 };

/** The words the synthetic skills are written in: the repo's own docs, 4+ letters, each once. @param {string} root */
function vocabulary(root) {
  const text =
    readFileSync(join(root, "docs/behaviour.md"), "utf8") + readFileSync(join(root, "README.md"), "utf8");
  return [...new Set(text.toLowerCase().match(/[a-z]{4,}/g) ?? [])].sort();
}

/** p50, p99, max of milliseconds. @param {number[]} samples */
function percentiles(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (/** @type {number} */ q) =>
    sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0 };
}

/**
 * Seeds the workspace with `count` skills, each with a name of 2 words and a description of 12, in one statement
 * per table. @param {import("../dist/serve/store/driver.js").SqlDriver} db @param {string[]} words @param {number} count
 */
async function seed(db, words, count) {
  await db.query("INSERT INTO workspaces (id, name) VALUES ('wrkspc_bench', 'bench')");
  const vocab = JSON.stringify(words);
  const n = words.length;
  await db.query(
    `INSERT INTO skills (id, workspace_id, name, display_name, latest_version_id)
     SELECT 'skill_s' || i, 'wrkspc_bench', 'skill-' || i, 'skill-' || i, 'skillver_s' || i FROM generate_series(1, $1::integer) i`,
    [count],
  );
  await db.query(
    `INSERT INTO skill_versions (id, skill_id, name, description, head)
     SELECT 'skillver_s' || i, 'skill_s' || i,
            ($2::jsonb ->> ((i * 7) % $3)) || '-' || ($2::jsonb ->> ((i * 13 + 5) % $3)),
            (SELECT string_agg($2::jsonb ->> ((i * k * 31 + k * 977) % $3), ' ') FROM generate_series(1, 12) k),
            jsonb_build_object('whenToUse', 'Use when ' || ($2::jsonb ->> ((i * 17 + 3) % $3)))
       FROM generate_series(1, $1::integer) i`,
    [count, vocab, n],
  );
  // The skills were written before their versions: setting the latest version again fires the trigger that
  // writes the version's postings, as the store's own writes do.
  await db.query(
    "UPDATE skills SET latest_version_id = latest_version_id WHERE workspace_id = 'wrkspc_bench'",
  );
  // What follows that many writes: PostgreSQL's autovacuum VACUUMs and ANALYZEs the tables; PGlite has no
  // autovacuum, and the store's own upkeep VACUUMs the postings (every few hundred skill writes, and on open).
  if (db.kind === "postgres") await db.query("VACUUM ANALYZE");
  else await createPostingsUpkeep(db).opened();
}

/** @param {import("./lib.js").BenchContext} ctx */
export async function run(ctx) {
  const words = vocabulary(ctx.repoRoot);
  const rng = createRng(25);
  const queries = Array.from({ length: SAMPLES + WARMUP }, () =>
    Array.from({ length: rng.int(3, 6) }, () => rng.pick(words)).join(" "),
  );
  // The versions an agent's 50 skills are given (the seed names skill-N's version skillver_sN).
  const agentVersions = Array.from({ length: 50 }, (_, i) => `skillver_s${1 + ((i * 7919) % STORE_SKILLS)}`);
  /** @type {Record<string, unknown>} */
  const figures = {};
  const rows = [];
  const dir = await mkdtemp(join(tmpdir(), "skillwright-search-bench-"));
  const postgres = await startPostgres().catch(() => undefined);
  /** @type {[string, () => Promise<import("../dist/serve/store/driver.js").SqlDriver>][]} */
  const databases = [["PGlite", () => openPgliteDriver(join(dir, "pglite"))]];
  if (postgres === undefined)
    ctx.log("serve-search: PostgreSQL skipped (no server binaries: apt-get install postgresql)");
  else
    databases.push(["PostgreSQL", async () => openPgDriver(await postgres.createDatabase("bench_search"))]);
  try {
    for (const [label, open] of databases) {
      const db = await open();
      const store = await createStore(db);
      const seededAt = performance.now();
      await seed(db, words, STORE_SKILLS);
      const seedMs = performance.now() - seededAt;
      /** @type {Record<string, (q: string, i: number) => Promise<unknown>>} */
      const kinds = {
        "floor: one skill by primary key": (_q, i) =>
          db.query("SELECT name FROM skills WHERE id = $1 AND workspace_id = $2", [
            `skill_s${1 + ((i * 7919) % STORE_SKILLS)}`,
            "wrkspc_bench",
          ]),
        "search the workspace, top 10": (q) => searchStoredSkills(db, "wrkspc_bench", q, { limit: 10 }),
        "search an agent's 50 skills, top 10": (q) =>
          searchStoredSkills(db, "wrkspc_bench", q, { limit: 10, versionIds: agentVersions }),
      };
      /** @type {Record<string, ReturnType<typeof percentiles>>} */
      const measured = {};
      for (const [kind, once] of Object.entries(kinds)) {
        const samples = [];
        for (let i = 0; i < queries.length; i++) {
          const t = performance.now();
          await once(queries[i] ?? "", i);
          if (i >= WARMUP) samples.push(performance.now() - t);
        }
        measured[kind] = percentiles(samples);
      }
      const floor = measured["floor: one skill by primary key"]?.p50 ?? 1;
      for (const [kind, p] of Object.entries(measured)) {
        rows.push([
          label,
          kind,
          p.p50.toFixed(2),
          p.p99.toFixed(2),
          p.max.toFixed(2),
          `x${(p.p50 / floor).toFixed(1)}`,
        ]);
      }
      figures[label] = { seedMs, ...measured };
      await store.close();
    }
  } finally {
    await postgres?.stop();
    await rm(dir, { recursive: true, force: true });
  }
  ctx.log(
    `serve-search: ${STORE_SKILLS.toLocaleString("en")} stored skills, ${SAMPLES} queries of 3-6 words (after ${WARMUP} untimed)\n\n` +
      formatTable(["database", "statement", "p50 ms", "p99 ms", "max ms", "p50 vs floor"], rows),
  );
  return figures;
}

/** The closing note's lines: p99 of the workspace search per database against the target. @param {Record<string, any>} figures */
export function closing(figures) {
  return Object.entries(figures ?? {}).map(([label, f]) => {
    const p99 = f["search the workspace, top 10"]?.p99 ?? Number.NaN;
    return `stored-skill search on ${label} at ${STORE_SKILLS.toLocaleString("en")} skills: p99 ${p99.toFixed(2)} ms (target <= ${TARGETS.p99Ms} ms: ${p99 <= TARGETS.p99Ms ? "met" : "missed"})`;
  });
}
