import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashApiKey } from "../../src/serve/store/ids.js";
import { addToKeyInbox, inboxKeys, KEY_INBOX_FILE, takeKeyInbox } from "../../src/serve/store/key-inbox.js";
import { createStore, type Store } from "../../src/serve/store/store.js";
import { revokeApiKey, workspaceForKeyHash } from "../../src/serve/store/workspaces.js";
import { freshPgliteDriver } from "../support/pglite-template.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

// `keys create` on a PGlite dir leaves the key's hash in the dir's inbox; the store's next opener takes it in.

let tree: TmpTree;
let store: Store;
beforeAll(async () => {
  tree = await tmpTree({ "inbox/.keep": "" });
  store = await createStore(await freshPgliteDriver());
}, 60_000);
afterAll(async () => {
  await store?.close();
  await tree?.cleanup();
});

describe("the key inbox", () => {
  it("reads each line on its own, skipping one cut short or malformed", () => {
    const good = { key_hash: "a".repeat(64), workspace: "w", created_at: "2026-01-02T03:04:05.000Z" };
    const text = [
      JSON.stringify(good),
      '{"key_hash":"bbbb',
      JSON.stringify({ ...good, key_hash: "nothex" }),
      "",
    ];
    expect(inboxKeys(text.join("\n"))).toEqual([
      { keyHash: good.key_hash, workspace: "w", createdAt: good.created_at },
    ]);
  });

  it("takes its keys in once, and taking the same lines again leaves a revoked key revoked", async () => {
    const dir = tree.path("inbox");
    const createdAt = "2026-01-02T03:04:05.000Z";
    await addToKeyInbox(dir, { keyHash: hashApiKey("kept"), workspace: "alpha", createdAt });
    await addToKeyInbox(dir, { keyHash: hashApiKey("dropped"), workspace: "beta", createdAt });
    const lines = await readFile(join(dir, KEY_INBOX_FILE), "utf8");
    expect(lines).not.toContain("kept");
    expect(await takeKeyInbox(store.db, dir)).toBe(2);
    expect(existsSync(join(dir, KEY_INBOX_FILE))).toBe(false);
    expect(await workspaceForKeyHash(store.db, hashApiKey("kept"))).toMatch(/^wrkspc_/);
    const [row] = await store.db.query("SELECT created_at FROM api_keys WHERE key_hash = $1", [
      hashApiKey("kept"),
    ]);
    expect(row?.created_at).toEqual(new Date(createdAt));
    expect((await revokeApiKey(store.db, hashApiKey("dropped").slice(0, 12))).kind).toBe("revoked");
    // A crash between the commit and the inbox's removal: the next opener takes the same lines in again.
    await writeFile(join(dir, KEY_INBOX_FILE), lines);
    expect(await takeKeyInbox(store.db, dir)).toBe(2);
    expect(await workspaceForKeyHash(store.db, hashApiKey("dropped"))).toBeUndefined();
    expect(await takeKeyInbox(store.db, dir)).toBe(0);
  });
});
