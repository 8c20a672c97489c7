import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SqlDriver } from "../../src/serve/store/driver.js";
import { createStore, type Store } from "../../src/serve/store/store.js";
import { ensureWorkspace } from "../../src/serve/store/workspaces.js";
import { freshPgliteDriver } from "../support/pglite-template.js";

// The Messages API's containers in the store (issue #49), on a real PGlite: taken and touched by id within the
// workspace, expired by idle time in the database's clock (their files deleted, their id kept), swept.

const HOUR_MS = 60 * 60 * 1000;
let db: SqlDriver;
let store: Store;
let ws: string;
let other: string;

/** Makes container `id` look last used, and released, an hour ago. */
const age = (id: string) =>
  db.query(
    "UPDATE containers SET last_used_at = now() - interval '1 hour', held_until = NULL WHERE id = $1",
    [id],
  );

beforeAll(async () => {
  db = await freshPgliteDriver();
  store = await createStore(db);
  ws = await ensureWorkspace(db, "containers");
  other = await ensureWorkspace(db, "elsewhere");
}, 60_000);
afterAll(async () => {
  await store?.close();
});

describe("the container store", () => {
  it("takes a live container of the workspace, renewing its lease; another workspace's key finds none", async () => {
    const made = await store.containers.create(ws, HOUR_MS);
    expect(made.id).toMatch(/^container_/);
    await age(made.id);
    const taken = await store.containers.take(ws, made.id, 2 * HOUR_MS);
    expect(taken.kind).toBe("live");
    if (taken.kind === "live")
      expect(Date.parse(taken.container.expires_at)).toBeGreaterThan(Date.now() + HOUR_MS);
    expect(await store.containers.take(other, made.id, HOUR_MS)).toEqual({ kind: "not_found", id: made.id });
    expect(await store.containers.take(ws, "container_none", HOUR_MS)).toEqual({
      kind: "not_found",
      id: "container_none",
    });
  });

  it("expires a container idle past the limit: its files go, its id answers expired from then on", async () => {
    const made = await store.containers.create(ws, HOUR_MS);
    const kept = await store.containers.create(ws, HOUR_MS);
    await store.containers.files.write(made.id, "/mnt/user-data/a.txt", new TextEncoder().encode("12345"));
    await store.containers.files.write(kept.id, "/mnt/user-data/b.txt", new TextEncoder().encode("kept"));
    expect(await store.containers.size(made.id)).toBe(5);
    await age(made.id);
    expect(await store.containers.take(ws, made.id, HOUR_MS / 2)).toEqual({ kind: "expired", id: made.id });
    expect(await store.containers.size(made.id)).toBe(0);
    // Expired for good: a longer limit does not bring it back.
    expect(await store.containers.take(ws, made.id, 10 * HOUR_MS)).toEqual({ kind: "expired", id: made.id });
    // The container used just now is untouched by the sweep.
    expect(await store.containers.size(kept.id)).toBe(4);
    expect(await store.containers.sweep(HOUR_MS / 2)).toBe(0);
  });

  it("holds a container for one request: another finds it busy until it is released or the hold runs out", async () => {
    const made = await store.containers.create(ws, HOUR_MS);
    expect(await store.containers.take(ws, made.id, HOUR_MS)).toEqual({ kind: "busy", id: made.id });
    await store.containers.touch(made.id, HOUR_MS);
    expect(await store.containers.take(ws, made.id, HOUR_MS)).toEqual({ kind: "busy", id: made.id });
    await store.containers.release(made.id, HOUR_MS);
    const taken = await store.containers.take(ws, made.id, HOUR_MS);
    expect(taken.kind).toBe("live");
    expect(await store.containers.take(ws, made.id, HOUR_MS)).toEqual({ kind: "busy", id: made.id });
    // The instance holding it died: its hold ran out with its idle time, and the container is free again.
    await db.query("UPDATE containers SET held_until = now() - interval '1 second' WHERE id = $1", [made.id]);
    expect((await store.containers.take(ws, made.id, HOUR_MS)).kind).toBe("live");
  });

  it("never sweeps a container a request holds, however long since its last use", async () => {
    const made = await store.containers.create(ws, HOUR_MS);
    await store.containers.files.write(made.id, "/mnt/user-data/held.txt", new TextEncoder().encode("held"));
    await db.query("UPDATE containers SET last_used_at = now() - interval '1 hour' WHERE id = $1", [made.id]);
    await store.containers.sweep(HOUR_MS / 2);
    expect(await store.containers.size(made.id)).toBe(4);
    expect(await store.containers.take(ws, made.id, HOUR_MS / 2)).toEqual({ kind: "busy", id: made.id });
  });

  it("forgets a container expired more than 7 days ago: its id answers not found", async () => {
    const made = await store.containers.create(ws, HOUR_MS);
    await age(made.id);
    await store.containers.sweep(HOUR_MS / 2);
    expect(await store.containers.take(ws, made.id, HOUR_MS)).toEqual({ kind: "expired", id: made.id });
    await db.query("UPDATE containers SET expired_at = now() - interval '6 days' WHERE id = $1", [made.id]);
    await store.containers.sweep(HOUR_MS / 2);
    expect(await store.containers.take(ws, made.id, HOUR_MS)).toEqual({ kind: "expired", id: made.id });
    await db.query("UPDATE containers SET expired_at = now() - interval '8 days' WHERE id = $1", [made.id]);
    await store.containers.sweep(HOUR_MS / 2);
    expect(await store.containers.take(ws, made.id, HOUR_MS)).toEqual({ kind: "not_found", id: made.id });
  });
});
