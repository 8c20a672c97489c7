import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type TestPostgres } from "../../src/dev/postgres.js";
import { hashApiKey } from "../../src/serve/store/ids.js";
import { apiKeyId } from "../../src/serve/store/workspaces.js";
import { cli } from "../cli/run-cli.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { keysCli } from "./keys-cli.js";
import { type ServeProcess, startServe } from "./serve-process.js";

// `skillwright keys` while two `serve` instances (the shipped bin) run on one real PostgreSQL: a revocation
// reaches both within the key cache's TTL and holds across a restart. A system test (`npm run test:system`); the
// single-process cases are in keys.test.ts.

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({ "home/repo/.keep": "" });
});
afterAll(async () => {
  await tree?.cleanup();
});
const { createKey, serveRefusing, expectRefused, statusWith, refusedWithinTtl, keysVia, madeKey } = keysCli(
  () => tree,
);

describe("keys while serve runs, on PostgreSQL with two instances", () => {
  const operator = "sk-keys-default";
  let postgres: TestPostgres;
  let db: string;
  let a: ServeProcess;
  let b: ServeProcess;

  beforeAll(async () => {
    postgres = await startPostgres();
    db = await postgres.createDatabase("keys");
    [a, b] = await Promise.all([
      startServe(["--db", db, "--api-key", operator]),
      startServe(["--db", db, "--api-key", operator]),
    ]);
  }, 120_000);
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await postgres?.stop();
  });

  it("a new key works at once on both; a revoked key is refused by both within the key cache TTL", async () => {
    const first = await createKey(db, "alpha");
    const second = await createKey(db, "beta");
    // Both are admitted at once, and now sit in both instances' key caches.
    for (const server of [a, b]) {
      expect(await statusWith(server, first.key)).toBe(200);
      expect(await statusWith(server, second.key)).toBe(200);
    }
    const revoked = await cli(tree, ["keys", "revoke", first.id, "--db", db]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain("running serve instances stop accepting it within 5 s");
    await Promise.all([refusedWithinTtl(a, first.key), refusedWithinTtl(b, first.key)]);
    for (const server of [a, b]) expect(await statusWith(server, second.key)).toBe(200);
  }, 60_000);

  it("a key revoked through one instance is refused there at once and by the other within the TTL", async () => {
    const made = madeKey(await keysVia(a, ["create", "--workspace", "gamma"], operator));
    for (const server of [a, b]) expect(await statusWith(server, made.key)).toBe(200);
    const revoked = await keysVia(a, ["revoke", made.id], operator);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(await statusWith(a, made.key)).toBe(401);
    await refusedWithinTtl(b, made.key);
  }, 60_000);

  it("revoking the running serve's own key holds across its restart: the restarted serve refuses to start", async () => {
    const revoked = await cli(tree, ["keys", "revoke", apiKeyId(hashApiKey(operator)), "--db", db]);
    expect(revoked.code, revoked.stderr).toBe(0);
    await Promise.all([refusedWithinTtl(a, operator), refusedWithinTtl(b, operator)]);
    await a.stop();
    expectRefused(await serveRefusing(db, operator, "flag"), operator, "--api-key");
    // Another key starts it; the revoked one still gets 401 there.
    a = await startServe(["--db", db, "--api-key", "sk-keys-other"]);
    expect(await statusWith(a, operator)).toBe(401);
    expect(await statusWith(a, "sk-keys-other")).toBe(200);
  }, 60_000);
});
