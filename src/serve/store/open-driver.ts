import type { SqlDriver } from "./driver.js";

/** True when `--db` names a PostgreSQL server (`postgres://` or `postgresql://`), not a PGlite directory. */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//.test(db);
}

/**
 * Opens the database `--db` names: a `postgres://` or `postgresql://` URL is a PostgreSQL server (`pg`);
 * anything else is a directory for the embedded PGlite (created when missing, and held by this process alone
 * until `close`; `holder` is what a second opener is told holds it). `poolSize`: PostgreSQL connections.
 */
export async function openDriver(
  db: string,
  options: { poolSize?: number; holder?: string } = {},
): Promise<SqlDriver> {
  if (isPostgresUrl(db)) {
    return (await import("./pg-driver.js")).openPgDriver(db, options.poolSize);
  }
  return (await import("./pglite-driver.js")).openPgliteDriver(db, options.holder);
}
