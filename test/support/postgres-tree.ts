import { afterAll, beforeAll } from "vitest";
import { startPostgres, type TestPostgres } from "../../src/dev/postgres.js";
import { type TmpTree, type TreeEntry, tmpTree } from "./tmp-tree.js";

/** What {@link usePostgresAndTree} sets up; read its members inside tests and hooks (they exist once started). */
export interface PostgresAndTree {
  readonly tree: TmpTree;
  readonly postgres: TestPostgres;
}

/**
 * The set-up the serve tests that run on both databases share: a temp tree of `entries` and a PostgreSQL server,
 * started before the file's tests and stopped and removed after them.
 */
export function usePostgresAndTree(entries: Record<string, TreeEntry> = {}): PostgresAndTree {
  let tree: TmpTree | undefined;
  let postgres: TestPostgres | undefined;
  beforeAll(async () => {
    tree = await tmpTree(entries);
    postgres = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await postgres?.stop();
    await tree?.cleanup();
  });
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the ${what} is not started yet: use it inside a test or hook`);
    return value;
  };
  return {
    get tree() {
      return started(tree, "temp tree");
    },
    get postgres() {
      return started(postgres, "PostgreSQL server");
    },
  };
}
