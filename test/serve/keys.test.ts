import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type TestPostgres } from "../../src/dev/postgres.js";
import { API_KEY_TTL_MS } from "../../src/serve/http/api-key-cache.js";
import { hashApiKey } from "../../src/serve/store/ids.js";
import { KEY_INBOX_FILE } from "../../src/serve/store/key-inbox.js";
import { openDriver } from "../../src/serve/store/open-driver.js";
import { createStore } from "../../src/serve/store/store.js";
import { apiKeyId, ensureWorkspace } from "../../src/serve/store/workspaces.js";
import { cli, json } from "../cli/run-cli.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

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

/**
 * Waits until `server` refuses `key`, for at most the key cache's TTL (plus a second for the requests
 * themselves): every running instance must refuse a revoked key within it.
 */
async function refusedWithinTtl(server: ServeProcess, key: string): Promise<void> {
  await expect
    .poll(() => statusWith(server, key), { timeout: API_KEY_TTL_MS + 1_000, interval: 100 })
    .toBe(401);
}

/** `keys …` through the running `server`, with `key` as the operator key. */
function keysVia(server: ServeProcess, argv: string[], key: string) {
  return cli(tree, ["keys", ...argv, "--server", server.url, "--api-key", key]);
}

/** The key `keys create` printed, and its id. */
function madeKey(made: { code: number; stdout: string; stderr: string }): { key: string; id: string } {
  expect(made.code, made.stderr).toBe(0);
  const key = made.stdout.trim();
  expect(made.stderr).toContain(`(id ${apiKeyId(hashApiKey(key))})`);
  return { key, id: apiKeyId(hashApiKey(key)) };
}

describe("keys on a PGlite dir", () => {
  let db: string;
  let first: { key: string; id: string };
  let second: { key: string; id: string };

  beforeAll(async () => {
    db = tree.path("pglite-keys");
    first = await createKey(db, "alpha");
    second = await createKey(db, "beta");
    // Kept for the store's next opener: `keys create` never started PGlite (it would have initialised the dir).
    expect(existsSync(join(db, "PG_VERSION"))).toBe(false);
    expect(existsSync(join(db, KEY_INBOX_FILE))).toBe(true);
    // Initialised here (PGlite's initdb takes seconds, many more on a loaded machine), so that each command
    // below only starts it. A plain open leaves the inbox for the commands.
    const store = await createStore(await openDriver(db));
    await store.close();
  }, 120_000);

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
  }, 120_000);

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
  }, 180_000);

  it("revokes one key: serve then answers 401 to it and 200 to the other", async () => {
    const revoked = await cli(tree, ["keys", "revoke", first.id.slice(0, 8), "--db", db]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toBe(`revoked key ${first.id} of workspace alpha\n`);
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
  }, 120_000);

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
  }, 300_000);

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
  }, 120_000);
});

describe("keys while serve holds a PGlite dir", () => {
  const operator = "sk-keys-operator";
  let db: string;
  let server: ServeProcess;

  beforeAll(async () => {
    db = await freshPgliteDir(tree.path("pglite-held"));
    server = await startServe(["--db", db, "--api-key", operator]);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("refuses every other opener of the dir, naming the serve, and changes nothing", async () => {
    const inUse =
      `skillwright: ${db} is in use by skillwright serve (pid ${server.process.pid}); stop it, ` +
      "or use `--db postgres://…` to run several processes";
    for (const argv of [
      ["keys", "list"],
      ["keys", "create", "--workspace", "w"],
      ["keys", "revoke", "abcd"],
      ["serve", "--port", "0", "--api-key", "sk-keys-second"],
    ]) {
      const result = await cli(tree, [...argv, "--db", db]);
      expect(result.code, argv.join(" ")).toBe(1);
      expect(result.stderr, argv.join(" ")).toContain(inUse);
      expect(result.stdout, argv.join(" ")).toBe("");
    }
    expect(existsSync(join(db, KEY_INBOX_FILE))).toBe(false);
    // The serve went on unharmed.
    expect(await statusWith(server, operator)).toBe(200);
  }, 120_000);

  it("creates, lists and revokes keys through it with the operator key: a new key works at once, a revoked one is refused at once", async () => {
    const made = madeKey(await keysVia(server, ["create", "--workspace", "delta"], operator));
    expect(await statusWith(server, made.key)).toBe(200);
    const listed = json<ListedKey[]>(
      await keysVia(server, ["list", "--json", "--workspace", "delta"], operator),
    );
    expect(listed.map((key) => [key.id, key.workspace])).toEqual([[made.id, "delta"]]);
    // No other key may administer keys, nor can a command without one.
    const refused = await keysVia(server, ["list"], made.key);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("answered 403: key administration needs the operator key");
    const keyless = await cli(tree, ["keys", "list", "--server", server.url]);
    expect(keyless.code).toBe(2);
    expect(keyless.stderr).toContain("keys --server needs the operator key");

    const revoked = await keysVia(server, ["revoke", made.id.slice(0, 6)], operator);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(
      `revoked key ${made.id} of workspace delta; ${server.url} refuses it now`,
    );
    expect(await statusWith(server, made.key)).toBe(401);
    const again = await keysVia(server, ["revoke", made.id], operator);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`answered 404: no key matches "${made.id}"`);
  }, 120_000);

  it("loses nothing to a SIGKILL of serve: the restarted serve has every record, and the revocation holds", async () => {
    const client = sdkClient(server.url, operator);
    const environment = await client.beta.environments.create({ name: "kept-env" });
    const agent = await client.beta.agents.create({ name: "kept-agent", model: "claude-sonnet-5-5" });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id });
    const kept = madeKey(await keysVia(server, ["create", "--workspace", "epsilon"], operator));
    const gone = madeKey(await keysVia(server, ["create", "--workspace", "epsilon"], operator));
    expect((await keysVia(server, ["revoke", gone.id], operator)).code).toBe(0);

    server.process.kill("SIGKILL");
    await server.process;
    server = await startServe(["--db", db, "--api-key", operator]);
    const restarted = sdkClient(server.url, operator);
    expect((await restarted.beta.environments.retrieve(environment.id)).name).toBe("kept-env");
    expect((await restarted.beta.agents.retrieve(agent.id)).name).toBe("kept-agent");
    expect((await restarted.beta.sessions.retrieve(session.id)).id).toBe(session.id);
    expect(await statusWith(server, kept.key)).toBe(200);
    expect(await statusWith(server, gone.key)).toBe(401);
    const listed = json<ListedKey[]>(
      await keysVia(server, ["list", "--json", "--workspace", "epsilon"], operator),
    );
    expect(listed.map((key) => key.id)).toEqual([kept.id]);
  }, 180_000);
});

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
