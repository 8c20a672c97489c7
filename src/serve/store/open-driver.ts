import type { SqlDriver } from "./driver.js";

/**
 * Opens the database `--db` names: a `postgres://` or `postgresql://` URL is a PostgreSQL server (`pg`);
 * anything else is a directory for the embedded PGlite (created when missing).
 */
export async function openDriver(db: string): Promise<SqlDriver> {
  if (/^postgres(ql)?:\/\//.test(db)) {
    return (await import("./pg-driver.js")).openPgDriver(db);
  }
  return (await import("./pglite-driver.js")).openPgliteDriver(db);
}
