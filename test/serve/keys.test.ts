import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type TestPostgres } from "../../src/dev/postgres.js";
import { hashApiKey } from "../../src/serve/store/ids.js";
import { openDriver } from "../../src/serve/store/open-driver.js";
import { createStore } from "../../src/serve/store/store.js";
import { apiKeyId, ensureWorkspace } from "../../src/serve/store/workspaces.js";
import { cli, json } from "../cli/run-cli.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { type ServeProcess, startServe } from "./serve-process.js";

// `skillwright keys create|list|revoke` through the shipped bin, and `serve` refusing a revoked key.

interface ListedKey {
  id: string;
  workspace: string;
  created_at: string;
}

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({ "home/repo/.keep": "" });
});
afterAll(async () => {
  await tree?.cleanup();
});

/** Makes a key for `workspace` and returns it with the id `keys create` reports. */
async function createKey(db: string, workspace: string): Promise<{ key: string; id: string }> {
  const made = await cli(tree, ["keys", "create", "--workspace", workspace, "--db", db]);
  expect(made.code, made.stderr).toBe(0);
  const id = /\(id ([0-9a-f]+)\)/.exec(made.stderr)?.[1];
  if (id === undefined) throw new Error(`no id in: ${made.stderr}`);
  return { key: made.stdout.trim(), id };
}

/** Runs `serve` with `key` as its --api-key (or as SKILLWRIGHT_API_KEY), expecting it to refuse to start. */
async function serveRefusing(db: string, key: string, from: "flag" | "env") {
  const argv = ["serve", "--port", "0", "--db", db, ...(from === "flag" ? ["--api-key", key] : [])];
  return cli(tree, argv, "home/repo", from === "env" ? { SKILLWRIGHT_API_KEY: key } : {});
}

/** Checks that `serve` refused the revoked key `key`: exit 1, the reason on stderr, never listening. */
function expectRefused(result: { code: number; stdout: string; stderr: string }, key: string, from: string) {
  expect(result.stdout).not.toContain("listening on");
  expect(result.stderr).toContain(
    `skillwright: the key given by ${from} (id ${apiKeyId(hashApiKey(key))}) was revoked with \`skillwright keys revoke\` and stays revoked`,
  );
  expect(result.code).toBe(1);
}

/** The status of an authenticated request to the served API. */
async function statusWith(server: ServeProcess, key: string): Promise<number> {
  const response = await fetch(`${server.url}/v1/skills`, { headers: { "x-api-key": key } });
  await response.body?.cancel();
  return response.status;
}

/** Polls until `key` gets `status` (a revocation reaches a running instance within its key cache TTL). */
async function untilStatus(server: ServeProcess, key: string, status: number, deadlineMs = 30_000) {
  const deadline = Date.now() + deadlineMs;
  let last = await statusWith(server, key);
  while (last !== status && Date.now() < deadline) {
    await sleep(200);
    last = await statusWith(server, key);
  }
  return last;
}

describe("keys on a PGlite dir", () => {
  let db: string;
  let first: { key: string; id: string };
  let second: { key: string; id: string };

  beforeAll(async () => {
    db = tree.path("pglite-keys");
    first = await createKey(db, "alpha");
    second = await createKey(db, "beta");
  }, 60_000);

  it("lists both keys by id, workspace and creation time, never the key or its hash", async () => {
    const listed = await cli(tree, ["keys", "list", "--json", "--db", db]);
    expect(listed.code, listed.stderr).toBe(0);
    const keys = json<ListedKey[]>(listed);
    expect(keys.map((key) => [key.id, key.workspace])).toEqual([
      [first.id, "alpha"],
      [second.id, "beta"],
    ]);
    for (const key of keys) expect(Number.isNaN(Date.parse(key.created_at))).toBe(false);
    const text = await cli(tree, ["keys", "list", "--db", db]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`${first.id}  alpha`);
    expect(text.stdout).toContain(`${second.id}  beta`);
    for (const output of [listed.stdout, text.stdout]) {
      expect(output).not.toContain(first.key);
      expect(output).not.toContain(second.key);
      expect(output).not.toMatch(/[0-9a-f]{64}/);
    }
    const onlyBeta = json<ListedKey[]>(
      await cli(tree, ["keys", "list", "--workspace", "beta", "--json", "--db", db]),
    );
    expect(onlyBeta.map((key) => key.id)).toEqual([second.id]);
  });

  it("exits 1 naming the problem when no key or several keys match", async () => {
    // Two keys whose hashes share a prefix, written straight into the store (no key hashes to them).
    const store = await createStore(await openDriver(db));
    const workspaceId = await ensureWorkspace(store.db, "gamma");
    for (const hash of ["abcd1".padEnd(64, "0"), "abcd2".padEnd(64, "0")]) {
      await store.db.query("INSERT INTO api_keys (key_hash, workspace_id) VALUES ($1, $2)", [
        hash,
        workspaceId,
      ]);
    }
    await store.close();

    const several = await cli(tree, ["keys", "revoke", "ABCD", "--db", db]);
    expect(several.code).toBe(1);
    expect(several.stderr).toContain('2 keys match "ABCD" (abcd10000000, abcd20000000): give more of the id');
    const none = await cli(tree, ["keys", "revoke", "abcd3", "--db", db]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no key matches "abcd3"');
    const elsewhere = await cli(tree, ["keys", "revoke", first.id, "--workspace", "beta", "--db", db]);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain(`no key in workspace beta matches "${first.id}"`);
    const one = await cli(tree, ["keys", "revoke", "abcd1", "--db", db]);
    expect(one.code, one.stderr).toBe(0);
    const left = json<ListedKey[]>(
      await cli(tree, ["keys", "list", "--workspace", "gamma", "--json", "--db", db]),
    );
    expect(left.map((key) => key.id)).toEqual(["abcd20000000"]);
  }, 60_000);

  it("revokes one key: serve then answers 401 to it and 200 to the other", async () => {
    const revoked = await cli(tree, ["keys", "revoke", first.id.slice(0, 8), "--db", db]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`revoked key ${first.id} of workspace alpha`);
    expect(revoked.stdout).toContain("running serve instances stop accepting it within 5 s");
    const listed = json<ListedKey[]>(await cli(tree, ["keys", "list", "--json", "--db", db]));
    expect(listed.map((key) => key.id)).not.toContain(first.id);
    expect(listed.map((key) => key.id)).toContain(second.id);
    // PGlite's dir belongs to one process at a time: serve starts after the revocation.
    const server = await startServe(["--db", db, "--api-key", "sk-keys-default"]);
    try {
      expect(await statusWith(server, first.key)).toBe(401);
      expect(await statusWith(server, second.key)).toBe(200);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it("a revoked key stays revoked: serve refuses it as --api-key or SKILLWRIGHT_API_KEY, and keeps it revoked", async () => {
    // `first` was revoked by the test above; `keys create` made it, serve is only told it.
    expectRefused(await serveRefusing(db, first.key, "flag"), first.key, "--api-key");
    expectRefused(await serveRefusing(db, first.key, "env"), first.key, "SKILLWRIGHT_API_KEY");
    // serve's own key, revoked between two runs: the restart does not admit it again.
    const own = "sk-keys-own";
    const before = await startServe(["--db", db, "--api-key", own]);
    try {
      expect(await statusWith(before, own)).toBe(200);
    } finally {
      await before.stop();
    }
    const revoked = await cli(tree, ["keys", "revoke", apiKeyId(hashApiKey(own)), "--db", db]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expectRefused(await serveRefusing(db, own, "flag"), own, "--api-key");
    // The refusals admitted nothing: a serve with another key still answers 401 to both.
    const after = await startServe(["--db", db, "--api-key", "sk-keys-default"]);
    try {
      expect(await statusWith(after, own)).toBe(401);
      expect(await statusWith(after, first.key)).toBe(401);
    } finally {
      await after.stop();
    }
    const listed = json<ListedKey[]>(await cli(tree, ["keys", "list", "--json", "--db", db]));
    expect(listed.map((key) => key.id)).not.toContain(apiKeyId(hashApiKey(own)));
    // Revoking it again names no key.
    const again = await cli(tree, ["keys", "revoke", apiKeyId(hashApiKey(own)), "--db", db]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("no key matches");
  }, 120_000);

  it("exits 2 on bad usage", async () => {
    for (const argv of [
      ["keys"],
      ["keys", "delete", first.id],
      ["keys", "create"],
      ["keys", "list", "extra"],
      ["keys", "revoke"],
      ["keys", "revoke", first.id, second.id],
      ["keys", "revoke", "abc"],
      ["keys", "revoke", "not-hex!"],
      ["keys", "list", "--workspace", " "],
    ]) {
      const result = await cli(tree, [...argv, "--db", db]);
      expect(result.code, argv.join(" ")).toBe(2);
      expect(result.stderr, argv.join(" ")).toContain("usage: skillwright keys create");
      expect(result.stderr).toContain("skillwright keys revoke <id-or-prefix>");
    }
    const malformed = await cli(tree, ["keys", "revoke", "abc", "--db", db]);
    expect(malformed.stderr).toContain(
      'a key id is 4 or more hex characters (see `skillwright keys list`), not "abc"',
    );
  }, 60_000);
});

describe("keys revoked while serve runs, on PostgreSQL", () => {
  let postgres: TestPostgres;
  let db: string;
  let server: ServeProcess;

  beforeAll(async () => {
    postgres = await startPostgres();
    db = await postgres.createDatabase("keys");
    server = await startServe(["--db", db, "--api-key", "sk-keys-default"]);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await postgres?.stop();
  });

  it("a running serve refuses a revoked key within the key cache TTL and keeps admitting the other", async () => {
    const first = await createKey(db, "alpha");
    const second = await createKey(db, "beta");
    // Both are admitted, and now sit in the running instance's key cache.
    expect(await statusWith(server, first.key)).toBe(200);
    expect(await statusWith(server, second.key)).toBe(200);
    const revoked = await cli(tree, ["keys", "revoke", first.id, "--db", db]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(await untilStatus(server, first.key, 401)).toBe(401);
    expect(await statusWith(server, second.key)).toBe(200);
  }, 60_000);

  it("revoking the running serve's own key holds across its restart: the restarted serve refuses to start", async () => {
    const own = "sk-keys-default";
    const revoked = await cli(tree, ["keys", "revoke", apiKeyId(hashApiKey(own)), "--db", db]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(await untilStatus(server, own, 401)).toBe(401);
    await server.stop();
    expectRefused(await serveRefusing(db, own, "flag"), own, "--api-key");
    // Another key starts it; the revoked one still gets 401 there.
    server = await startServe(["--db", db, "--api-key", "sk-keys-other"]);
    expect(await statusWith(server, own)).toBe(401);
    expect(await statusWith(server, "sk-keys-other")).toBe(200);
  }, 60_000);
});
