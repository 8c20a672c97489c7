import type { SqlDriver, SqlParam, SqlQuery, SqlRow } from "./driver.js";

/** The default size of the connection pool: enough for a few hundred concurrent served sessions per instance. */
export const DEFAULT_PG_POOL_SIZE = 32;

/**
 * The PostgreSQL driver: a `pg` pool of `poolSize` connections (default {@link DEFAULT_PG_POOL_SIZE}) on `url`
 * (`postgres://…`). Each transaction holds one pooled client from BEGIN to COMMIT/ROLLBACK. Loaded lazily,
 * like the PGlite driver.
 */
export async function openPgDriver(url: string, poolSize = DEFAULT_PG_POOL_SIZE): Promise<SqlDriver> {
  const pg = (await import("pg")).default;
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client losing its connection (the server restarted) must not crash the process.
  pool.on("error", () => {});
  const isRow = (row: unknown): row is SqlRow => typeof row === "object" && row !== null;
  // Rows are always objects here: checked without copying the array (one allocation less per query).
  const rowsOf = (rows: unknown[]): SqlRow[] => (rows.every(isRow) ? rows : rows.filter(isRow));
  const query = async (sql: string, params: readonly SqlParam[] = []) =>
    rowsOf((await pool.query(sql, [...params])).rows);
  // Fail fast with a clear error when the server is not reachable.
  await query("SELECT 1");
  return {
    kind: "postgres",
    query,
    transaction: async (fn) => {
      const client = await pool.connect();
      // A checked-out client has no pool listener: a connection lost mid-transaction (the server restarted)
      // emits `error` on it, which must not crash the process. Such a client is destroyed, not reused.
      let broken = false;
      const onError = () => {
        broken = true;
      };
      client.on("error", onError);
      const tx: SqlQuery = {
        query: async (sql, params = []) => rowsOf((await client.query(sql, [...params])).rows),
      };
      try {
        await client.query("BEGIN");
        const result = await fn(tx);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {
          broken = true;
        });
        throw error;
      } finally {
        client.off("error", onError);
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}
