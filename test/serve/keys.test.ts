import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashApiKey } from "../../src/serve/store/ids.js";
import { KEY_INBOX_FILE } from "../../src/serve/store/key-inbox.js";
import { openDriver } from "../../src/serve/store/open-driver.js";
import { createStore } from "../../src/serve/store/store.js";
import { apiKeyId, ensureWorkspace } from "../../src/serve/store/workspaces.js";
import { cli, json } from "../cli/run-cli.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { keysCli, type ListedKey } from "./keys-cli.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

// `skillwright keys create|list|revoke` through the shipped bin, and `serve` refusing a revoked key. The same
// with two serve instances on one PostgreSQL is a system test: keys-instances.test.ts (shares ./keys-cli.ts).

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({ "home/repo/.keep": "" });
});
afterAll(async () => {
  await tree?.cleanup();
});
const { createKey, serveRefusing, expectRefused, statusWith, keysVia, madeKey } = keysCli(() => tree);

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
