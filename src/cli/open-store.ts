import { isAbsolute, join, resolve } from "node:path";
import { DataDirInUseError } from "../serve/store/data-dir-lock.js";
import type { SqlDriver } from "../serve/store/driver.js";
import { takeKeyInbox } from "../serve/store/key-inbox.js";
import { isPostgresUrl, openDriver } from "../serve/store/open-driver.js";
import { createStore, type Store } from "../serve/store/store.js";
import type { CliArgs } from "./args.js";
import type { CliIo } from "./io.js";

/** Where `--db` points: a PostgreSQL URL as is, a dir resolved against the cwd, by default `~/.skillwright/data`. */
export function dbLocation(db: string | undefined, io: Pick<CliIo, "cwd" | "home">): string {
  if (db === undefined) return join(io.home, ".skillwright", "data");
  if (isPostgresUrl(db) || isAbsolute(db)) return db;
  return resolve(io.cwd, db);
}

/** `location` as it may be printed: a PostgreSQL URL's user and password hidden (`postgres://…@host/db`). Pure. */
export function shownDbLocation(location: string): string {
  return location.replace(/\/\/[^@/]*@/, "//…@");
}

/** Writes why the database at `location` cannot be opened (a PostgreSQL URL's password hidden). */
export function reportOpenFailure(io: CliIo, location: string, error: unknown, hint = ""): void {
  if (error instanceof DataDirInUseError) {
    io.stderr(`skillwright: ${error.message}${hint}\n`);
    return;
  }
  io.stderr(
    `skillwright: cannot open the database ${shownDbLocation(location)}: ${error instanceof Error ? error.message : String(error)}\n`,
  );
}

/**
 * Opens the store `--db` names for `command` (what a second opener of a PGlite dir is told holds it), or
 * writes why it cannot (`hint` follows the message of a dir in use) and returns undefined. On a PGlite dir, the
 * keys `keys create` left in its inbox are taken in first.
 */
export async function openStoreFor(
  args: CliArgs,
  io: CliIo,
  command: string,
  hint = "",
): Promise<Store | undefined> {
  const location = dbLocation(args.db, io);
  let driver: SqlDriver | undefined;
  try {
    driver = await openDriver(location, { holder: command });
    const store = await createStore(driver);
    if (!isPostgresUrl(location)) await takeKeyInbox(driver, location);
    return store;
  } catch (error) {
    await driver?.close().catch(() => {});
    reportOpenFailure(io, location, error, hint);
    return undefined;
  }
}
