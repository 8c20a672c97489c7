import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/serve/errors.js";
import { openDriver } from "../../src/serve/store/open-driver.js";
import { createStore, type Store } from "../../src/serve/store/store.js";
import { ensureWorkspace } from "../../src/serve/store/workspaces.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { usePostgresAndTree } from "../support/postgres-tree.js";

// What a virtual file system over a session's mounts will call, without HTTP: store.mounts.

const setup = usePostgresAndTree();

const session = { type: "session_actor" as const, session_id: "sesn_01test" };

describe.each([
  ["PGlite", () => freshPgliteDir(setup.tree.path("pglite-mounts"))],
  ["PostgreSQL", () => setup.postgres.createDatabase("mounts")],
])("the mount content interface on %s", (_name, location) => {
  let store: Store;
  let ws: string;
  let otherWs: string;
  beforeAll(async () => {
    store = await createStore(await openDriver(await location()));
    ws = await ensureWorkspace(store.db, "default");
    otherWs = await ensureWorkspace(store.db, "other");
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });

  it("reads, writes and lists memories by path, each write a version by the session", async () => {
    const memoryStore = await store.memoryStores.create(ws, { name: "notes", description: "", metadata: {} });
    const { mounts } = store;
    expect(await mounts.readMemory(ws, memoryStore.id, "/todo.md")).toBeUndefined();
    const created = await mounts.writeMemory(ws, memoryStore.id, "/todo.md", "one", session);
    expect(created).toMatchObject({ path: "/todo.md", content: "one" });
    const edited = await mounts.writeMemory(ws, memoryStore.id, "/todo.md", "two", session);
    expect(edited.id).toBe(created.id);
    await mounts.writeMemory(ws, memoryStore.id, "/dir/a.md", "aaa", session);
    expect((await mounts.readMemory(ws, memoryStore.id, "/todo.md"))?.content).toBe("two");
    expect(await mounts.listMemories(ws, memoryStore.id, "/")).toEqual([
      { path: "/dir/a.md", size: 3 },
      { path: "/todo.md", size: 3 },
    ]);
    expect(await mounts.listMemories(ws, memoryStore.id, "/dir/")).toEqual([{ path: "/dir/a.md", size: 3 }]);
    const versions = await store.memoryVersions.list(
      ws,
      memoryStore.id,
      { limit: 10, after: undefined },
      {
        memoryId: created.id,
        operation: undefined,
        apiKeyId: undefined,
        sessionId: "sesn_01test",
        createdFrom: undefined,
        createdTo: undefined,
      },
      true,
    );
    expect(versions.data.map((v) => [v.operation, v.content, v.created_by])).toEqual([
      ["modified", "two", session],
      ["created", "one", session],
    ]);
  });

  it("refuses a bad path, a clash and another workspace's store, writing nothing", async () => {
    const memoryStore = await store.memoryStores.create(ws, {
      name: "strict",
      description: "",
      metadata: {},
    });
    const { mounts } = store;
    await mounts.writeMemory(ws, memoryStore.id, "/a.md", "a", session);
    const refusals = [
      mounts.writeMemory(ws, memoryStore.id, "/../etc/passwd", "x", session),
      mounts.writeMemory(ws, memoryStore.id, "/a.md/b", "x", session),
      mounts.writeMemory(ws, memoryStore.id, "/big.md", "x".repeat(102_401), session),
      mounts.writeMemory(otherWs, memoryStore.id, "/b.md", "x", session),
      mounts.readMemory(otherWs, memoryStore.id, "/a.md"),
    ];
    const statuses = await Promise.all(
      refusals.map((call) =>
        call.then(
          () => 0,
          (error: unknown) => (error instanceof ApiError ? error.status : -1),
        ),
      ),
    );
    expect(statuses).toEqual([400, 409, 413, 404, 404]);
    expect(await mounts.listMemories(ws, memoryStore.id, "/")).toEqual([{ path: "/a.md", size: 1 }]);
  });

  it("reads an uploaded file's bytes, in its workspace only", async () => {
    const content = new Uint8Array(150_000).map((_, i) => i % 256);
    const file = await store.files.create(ws, {
      filename: "f.bin",
      mimeType: "application/octet-stream",
      content,
    });
    expect(Buffer.from(await store.mounts.readFile(ws, file.id)).equals(Buffer.from(content))).toBe(true);
    await expect(store.mounts.readFile(otherWs, file.id)).rejects.toMatchObject({ status: 404 });
    await store.files.delete(ws, file.id);
    const [left] = await store.db.query("SELECT count(*) AS n FROM file_chunks WHERE file_id = $1", [
      file.id,
    ]);
    expect(Number(left?.n)).toBe(0);
  });
});
