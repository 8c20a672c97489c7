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

/** PostgreSQL's type oid of `bytea`. */
const BYTEA = 17;

/**
 * A `bytea` parameter as PostgreSQL's hex text (`\x…`) in one native call: PGlite's own serializer builds a
 * string per byte, which took seconds of the main thread for a 30 MB upload.
 */
function byteaText(value: unknown): string {
  if (!(value instanceof Uint8Array)) throw new TypeError("a bytea parameter must be a Uint8Array");
  return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex")}`;
}

/** A `bytea` column's hex text (`\x…`) as bytes, in one native call (PGlite's own parser is per byte). */
function byteaBytes(text: string): Uint8Array {
  return Buffer.from(text.slice(2), "hex");
}

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
    db = await PGlite.create({
      ...(dir === undefined ? {} : { dataDir: dir }),
      serializers: { [BYTEA]: byteaText },
      parsers: { [BYTEA]: byteaBytes },
    });
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
