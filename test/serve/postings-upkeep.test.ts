import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SqlDriver, SqlParam, SqlRow } from "../../src/serve/store/driver.js";
import { openPgliteDriver } from "../../src/serve/store/pglite-driver.js";
import { createPostingsUpkeep, VACUUM_EVERY_SKILL_WRITES } from "../../src/serve/store/postings-upkeep.js";
import { searchStoredSkills } from "../../src/serve/store/skill-search.js";
import type { SkillUpload } from "../../src/serve/store/skill-upload.js";
import { createStore, type Store } from "../../src/serve/store/store.js";
import { ensureWorkspace } from "../../src/serve/store/workspaces.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

// The search postings stay readable from their index alone on PGlite, which has no autovacuum: the store
// VACUUMs skill_terms when it opens and after every VACUUM_EVERY_SKILL_WRITES skill writes (issue #25 item 2).

const upload = (name: string): SkillUpload => ({
  name,
  description: `${name} renders invoices`,
  head: { description: `${name} renders invoices` },
  files: [{ path: "SKILL.md", content: new TextEncoder().encode(`---\nname: ${name}\n---\nBody\n`) }],
});

const vacuums = async (db: SqlDriver) => {
  const [row] = await db.query("SELECT vacuum_count FROM pg_stat_user_tables WHERE relname = 'skill_terms'");
  return Number(row?.vacuum_count ?? 0);
};

/** The heap rows a whole-workspace read of one word's postings fetched besides the index (0: index only). */
const heapFetches = async (db: SqlDriver, workspaceId: string) => {
  await db.query("SET enable_seqscan = off");
  const plan = await db.query(
    "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT skill_name FROM skill_terms WHERE workspace_id = $1 AND term = 'invoic'",
    [workspaceId],
  );
  await db.query("RESET enable_seqscan");
  const line = plan.map((r) => String(r["QUERY PLAN"])).find((l) => l.includes("Heap Fetches"));
  return Number(/Heap Fetches: (\d+)/.exec(line ?? "")?.[1] ?? Number.NaN);
};

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({});
});
afterAll(async () => {
  await tree?.cleanup();
});

describe("the postings' upkeep on PGlite", () => {
  let store: Store;
  afterAll(async () => {
    await store?.close();
  });

  it("VACUUMs the postings when the store opens over some and after every VACUUM_EVERY_SKILL_WRITES skill writes, so searches read the index only", async () => {
    const dir = await freshPgliteDir(tree.path("pglite"));
    store = await createStore(await openPgliteDriver(dir));
    // Not on an empty table: the planner would take it for empty ever after, and a bulk load would crawl.
    expect(await vacuums(store.db)).toBe(0);
    const ws = await ensureWorkspace(store.db, "default");
    for (let i = 1; i < VACUUM_EVERY_SKILL_WRITES; i++) await store.skills.create(ws, upload(`invoice-${i}`));
    expect(await vacuums(store.db)).toBe(0);
    expect(await heapFetches(store.db, ws)).toBe(VACUUM_EVERY_SKILL_WRITES - 1);
    // A refused write is not counted; the next one that commits is the count's last.
    await expect(store.skills.delete(ws, "skill_missing")).rejects.toThrow(/skill_missing/);
    expect(await vacuums(store.db)).toBe(0);
    const last = await store.skills.create(ws, upload(`invoice-${VACUUM_EVERY_SKILL_WRITES}`));
    expect(await vacuums(store.db)).toBe(1);
    expect(await heapFetches(store.db, ws)).toBe(0);
    expect((await searchStoredSkills(store.db, ws, "invoices", { limit: 3 })).length).toBe(3);
    // Versions and deletes count too.
    for (let i = 0; i < VACUUM_EVERY_SKILL_WRITES / 2; i++)
      await store.skills.addVersion(ws, last.id, upload(`invoice-${VACUUM_EVERY_SKILL_WRITES}`));
    for (let i = 1; i <= VACUUM_EVERY_SKILL_WRITES / 2; i++) {
      const [skill] = (await store.skills.list(ws, { limit: 1, after: undefined })).data;
      if (skill !== undefined) await store.skills.delete(ws, skill.id);
    }
    expect(await vacuums(store.db)).toBe(2);
    // Opened again over postings: VACUUMed at once.
    await store.close();
    store = await createStore(await openPgliteDriver(dir));
    expect(await vacuums(store.db)).toBe(1);
  }, 120_000);
});

describe("the postings' upkeep on PostgreSQL", () => {
  it("leaves the postings to autovacuum: no statement at all", async () => {
    const statements: string[] = [];
    const db: SqlDriver = {
      kind: "postgres",
      async query(sql: string, _params?: readonly SqlParam[]): Promise<SqlRow[]> {
        statements.push(sql);
        return [];
      },
      transaction: (fn) => fn(db),
      close: async () => {},
    };
    const upkeep = createPostingsUpkeep(db);
    await upkeep.opened();
    for (let i = 0; i < VACUUM_EVERY_SKILL_WRITES * 2; i++) await upkeep.wrote();
    expect(statements).toEqual([]);
  });
});
