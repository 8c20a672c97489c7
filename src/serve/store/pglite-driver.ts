import { mkdir } from "node:fs/promises";
import { lockDataDir } from "./data-dir-lock.js";
import type { SqlDriver, SqlParam, SqlQuery, SqlRow } from "./driver.js";

interface PgliteLike {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  transaction<T>(fn: (tx: { query: PgliteLike["query"] }) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

function rowsOf(result: { rows: unknown[] }): SqlRow[] {
  return result.rows.filter((row): row is SqlRow => typeof row === "object" && row !== null);
}

/** What a process holding a PGlite dir is called when its opener does not say (`DIR is in use by …`). */
export const DEFAULT_HOLDER = "a skillwright process";

/**
 * The embedded driver: PGlite (PostgreSQL compiled to WebAssembly) keeping its data in `dir`, or in memory
 * when `dir` is undefined. `dir` and its missing parents are created (owner only): a first `serve` on a machine
 * has no `~/.skillwright` yet. PGlite is single-process: the dir is locked for this process (`holder` names it
 * to a second opener, which gets a `DataDirInUseError`) until `close`. Loaded lazily: the package is large and
 * only `serve` and `keys` need it.
 */
export async function openPgliteDriver(dir: string | undefined, holder = DEFAULT_HOLDER): Promise<SqlDriver> {
  if (dir !== undefined) await mkdir(dir, { recursive: true, mode: 0o700 });
  const lock = dir === undefined ? undefined : await lockDataDir(dir, holder);
  let db: PgliteLike;
  try {
    const { PGlite } = await import("@electric-sql/pglite");
    db = await PGlite.create(dir === undefined ? {} : { dataDir: dir });
  } catch (error) {
    await lock?.release();
    throw error;
  }
  const wrap = (q: PgliteLike["query"]): SqlQuery => ({
    query: async (sql: string, params: readonly SqlParam[] = []) => rowsOf(await q(sql, [...params])),
  });
  const root = wrap((sql, params) => db.query(sql, params));
  return {
    kind: "pglite",
    query: root.query,
    transaction: (fn) => db.transaction((tx) => fn(wrap((sql, params) => tx.query(sql, params)))),
    close: async () => {
      try {
        await db.close();
      } finally {
        await lock?.release();
      }
    },
  };
}
