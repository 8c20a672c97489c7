import { createHash, randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { cp, mkdir, mkdtemp, realpath, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SqlDriver } from "../../src/serve/store/driver.js";
import { openPgliteDriver } from "../../src/serve/store/pglite-driver.js";
import { createStore } from "../../src/serve/store/store.js";

// A PGlite data dir costs an initdb (seconds idle, tens of seconds on a busy 2-core machine): far more than the
// test that uses it. Tests that need a fresh, migrated database copy one made once instead, and open the copy
// with the real driver (a data dir, as `serve` uses). The template is kept in the temp dir under a name that
// changes with the migrations and the PGlite version, so it is made again whenever either changes.

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The template's name: a hash of what decides what an empty migrated database holds. */
function templateName(): string {
  const hash = createHash("sha256");
  hash.update(readFileSync(join(root, "src/serve/store/migrations.ts")));
  hash.update(readFileSync(join(root, "node_modules/@electric-sql/pglite/package.json")));
  return `skillwright-test-pglite-${hash.digest("hex").slice(0, 16)}`;
}

let made: Promise<string> | undefined;

/**
 * The migrated template dir, made on first use (by whichever test process gets there first: each makes its own
 * beside it and renames it into place, so a reader never sees half of one).
 */
function template(): Promise<string> {
  made ??= (async () => {
    const dir = join(tmpdir(), templateName());
    if (existsSync(join(dir, "PG_VERSION"))) return dir;
    const building = `${dir}.${process.pid}-${randomUUID()}`;
    const store = await createStore(await openPgliteDriver(building, "the test template"));
    await store.close();
    try {
      await rename(building, dir);
    } catch (error) {
      // Another test process renamed its own first: use that one.
      await rm(building, { recursive: true, force: true });
      if (!existsSync(join(dir, "PG_VERSION"))) throw error;
    }
    return dir;
  })();
  return made;
}

/**
 * Makes `dir` (which must not exist yet; its parents are created) a fresh PGlite data dir with every migration
 * applied, as a first `serve --db DIR` would leave it: hand it to `serve --db` or `openPgliteDriver`.
 */
export async function freshPgliteDir(dir: string): Promise<string> {
  await mkdir(dirname(dir), { recursive: true });
  await cp(await template(), dir, { recursive: true, errorOnExist: true, force: false });
  return dir;
}

/** The real PGlite driver over a fresh data dir of its own; `close` closes it and removes the dir. */
export async function freshPgliteDriver(): Promise<SqlDriver> {
  const parent = await realpath(await mkdtemp(join(tmpdir(), "skillwright-test-db-")));
  const driver = await openPgliteDriver(await freshPgliteDir(join(parent, "data")));
  return {
    ...driver,
    async close() {
      try {
        await driver.close();
      } finally {
        await rm(parent, { recursive: true, force: true });
      }
    },
  };
}
