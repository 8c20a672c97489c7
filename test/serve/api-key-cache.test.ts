import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKeyCache } from "../../src/serve/http/api-key-cache.js";
import { createServeApp } from "../../src/serve/http/app.js";
import { hashApiKey } from "../../src/serve/store/ids.js";
import { createStore, type Store } from "../../src/serve/store/store.js";
import { addApiKey, ensureWorkspace, workspaceForKeyHash } from "../../src/serve/store/workspaces.js";
import { freshPgliteDriver } from "../support/pglite-template.js";
import { listenInProcess } from "./serve-process.js";

// Requests find their workspace through a short-lived cache of API key hash → workspace instead of asking the
// database each time. A key deleted from the store must stop working once its entry expires, and a new key
// must work at once (unknown keys are never remembered).

/** A lookup over a plain map that counts its calls, and a clock the test moves. */
function fakes() {
  const keys = new Map<string, string>();
  let calls = 0;
  let now = 1_000;
  return {
    keys,
    calls: () => calls,
    advance: (ms: number) => {
      now += ms;
    },
    options: {
      lookup: async (hash: string) => {
        calls += 1;
        return keys.get(hash);
      },
      now: () => now,
    },
  };
}

describe("createApiKeyCache", () => {
  it("asks the store once per key within the TTL, by the key's hash", async () => {
    const f = fakes();
    f.keys.set(hashApiKey("k1"), "ws_1");
    const cache = createApiKeyCache({ ...f.options, ttlMs: 5_000 });
    expect(await cache.workspaceFor("k1")).toBe("ws_1");
    f.advance(4_999);
    expect(await cache.workspaceFor("k1")).toBe("ws_1");
    expect(f.calls()).toBe(1);
  });

  it("stops admitting a key deleted from the store once the TTL has passed", async () => {
    const f = fakes();
    f.keys.set(hashApiKey("k1"), "ws_1");
    const cache = createApiKeyCache({ ...f.options, ttlMs: 5_000 });
    expect(await cache.workspaceFor("k1")).toBe("ws_1");
    f.keys.delete(hashApiKey("k1"));
    f.advance(5_000);
    expect(await cache.workspaceFor("k1")).toBeUndefined();
  });

  it("never remembers an unknown key: a key created later works at once", async () => {
    const f = fakes();
    const cache = createApiKeyCache(f.options);
    expect(await cache.workspaceFor("k2")).toBeUndefined();
    f.keys.set(hashApiKey("k2"), "ws_2");
    expect(await cache.workspaceFor("k2")).toBe("ws_2");
  });

  it("keeps at most maxEntries keys, dropping the oldest", async () => {
    const f = fakes();
    for (const key of ["a", "b", "c"]) f.keys.set(hashApiKey(key), `ws_${key}`);
    const cache = createApiKeyCache({ ...f.options, maxEntries: 2 });
    for (const key of ["a", "b", "c"]) await cache.workspaceFor(key);
    expect(f.calls()).toBe(3);
    await cache.workspaceFor("c");
    await cache.workspaceFor("b");
    expect(f.calls()).toBe(3);
    f.keys.delete(hashApiKey("a"));
    expect(await cache.workspaceFor("a")).toBeUndefined();
    expect(f.calls()).toBe(4);
  });

  it("counts the TTL from when the lookup was sent: a slow lookup cannot stretch a revocation", async () => {
    const f = fakes();
    f.keys.set(hashApiKey("k1"), "ws_1");
    const cache = createApiKeyCache({
      ...f.options,
      ttlMs: 5_000,
      lookup: async (hash) => {
        const found = await f.options.lookup(hash);
        // The key was read, then revoked while the answer took 3 s to come back.
        f.keys.delete(hash);
        f.advance(3_000);
        return found;
      },
    });
    expect(await cache.workspaceFor("k1")).toBe("ws_1");
    f.advance(2_000);
    expect(await cache.workspaceFor("k1")).toBeUndefined();
  });

  it("forgetAll: every key asks the store again, and a lookup in flight is not remembered", async () => {
    const f = fakes();
    f.keys.set(hashApiKey("k1"), "ws_1");
    f.keys.set(hashApiKey("k2"), "ws_2");
    let release: () => void = () => {};
    let hold = false;
    const cache = createApiKeyCache({
      ...f.options,
      lookup: async (hash) => {
        const found = await f.options.lookup(hash);
        if (hold) await new Promise<void>((resolve) => (release = resolve));
        return found;
      },
    });
    expect(await cache.workspaceFor("k1")).toBe("ws_1");
    hold = true;
    const inFlight = cache.workspaceFor("k2");
    await expect.poll(() => f.calls()).toBe(2);
    // k1 and k2 are revoked now, and this instance is told.
    f.keys.clear();
    cache.forgetAll();
    release();
    expect(await inFlight).toBe("ws_2");
    hold = false;
    expect(await cache.workspaceFor("k2")).toBeUndefined();
    expect(await cache.workspaceFor("k1")).toBeUndefined();
  });

  it("does not remember a failed lookup", async () => {
    const f = fakes();
    let down = true;
    f.keys.set(hashApiKey("k1"), "ws_1");
    const cache = createApiKeyCache({
      ...f.options,
      lookup: async (hash) => {
        if (down) throw new Error("database unavailable");
        return f.options.lookup(hash);
      },
    });
    await expect(cache.workspaceFor("k1")).rejects.toThrow(/unavailable/);
    down = false;
    expect(await cache.workspaceFor("k1")).toBe("ws_1");
  });
});

describe("the served API with the key cache, over a real store", () => {
  let store: Store;
  let url: string;
  let close: () => Promise<void>;
  let now = 0;
  beforeAll(async () => {
    store = await createStore(await freshPgliteDriver());
    await addApiKey(store.db, await ensureWorkspace(store.db, "default"), "old-key");
    const apiKeys = createApiKeyCache({
      lookup: (hash) => workspaceForKeyHash(store.db, hash),
      now: () => now,
      ttlMs: 5_000,
    });
    ({ url, close } = await listenInProcess(createServeApp({ store, apiKeys })));
  }, 60_000);
  afterAll(async () => {
    await close?.();
    await store?.close();
  });

  const status = async (key: string) =>
    (await fetch(`${url}/v1/skills`, { headers: { "x-api-key": key } })).status;

  it("answers 401 to a key deleted from the database once its cache entry has expired", async () => {
    expect(await status("old-key")).toBe(200);
    await store.db.query("DELETE FROM api_keys WHERE key_hash = $1", [hashApiKey("old-key")]);
    now += 5_000;
    expect(await status("old-key")).toBe(401);
  });

  it("admits a key added after a request with it was refused, at once", async () => {
    expect(await status("new-key")).toBe(401);
    await addApiKey(store.db, await ensureWorkspace(store.db, "default"), "new-key");
    expect(await status("new-key")).toBe(200);
  });
});
