import type { SqlDriver } from "./driver.js";

/** Skill writes between two VACUUMs of the search postings on a database without autovacuum (PGlite). */
export const VACUUM_EVERY_SKILL_WRITES = 200;

/**
 * Keeps the search postings (`skill_terms`) readable from their index alone. A whole-workspace search reads
 * thousands of postings from a covering index; PostgreSQL answers them from the index only for the pages its
 * visibility map marks all-visible, which only VACUUM sets, and otherwise reads each posting's table row as well
 * (the search at 100k skills took twice as long). PostgreSQL's autovacuum does this; PGlite runs without it, so
 * there the store does: once when it opens (pages a crashed process left; not while the table is empty), then
 * after every {@link VACUUM_EVERY_SKILL_WRITES} skill writes of this process (a few milliseconds: VACUUM skips
 * the pages already all-visible). A failed VACUUM costs only speed.
 */
export interface PostingsUpkeep {
  /** Runs when the store opens. */
  opened(): Promise<void>;
  /** Runs after each committed skill write (a skill or a version created or deleted). */
  wrote(): Promise<void>;
}

/** The upkeep for `db`: nothing on PostgreSQL (autovacuum), VACUUM on PGlite. */
export function createPostingsUpkeep(db: SqlDriver): PostingsUpkeep {
  if (db.kind !== "pglite") return { opened: async () => {}, wrote: async () => {} };
  let writes = 0;
  const vacuum = async () => {
    writes = 0;
    try {
      // Never on an empty table: VACUUM would record it as empty, the planner would then read the trigger's
      // `DELETE … WHERE skill_id = …` as a scan of nothing, and a bulk load after it went 20 times slower.
      const [any] = await db.query("SELECT 1 AS one FROM skill_terms LIMIT 1");
      // Outside any transaction (VACUUM refuses one); the driver runs one statement at a time.
      if (any !== undefined) await db.query("VACUUM skill_terms");
    } catch {
      // Costs only speed.
    }
  };
  return {
    opened: vacuum,
    async wrote() {
      writes += 1;
      if (writes >= VACUUM_EVERY_SKILL_WRITES) await vacuum();
    },
  };
}
