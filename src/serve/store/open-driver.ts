import type { SqlDriver } from "./driver.js";

/**
 * Opens the database `--db` names: a `postgres://` or `postgresql://` URL is a PostgreSQL server (`pg`);
 * anything else is a directory for the embedded PGlite (created when missing). `poolSize`: PostgreSQL connections.
 */
export async function openDriver(db: string, options: { poolSize?: number } = {}): Promise<SqlDriver> {
  if (/^postgres(ql)?:\/\//.test(db)) {
    return (await import("./pg-driver.js")).openPgDriver(db, options.poolSize);
  }
  return (await import("./pglite-driver.js")).openPgliteDriver(db);
}
