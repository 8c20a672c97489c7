import { createHash } from "node:crypto";
import Anthropic, { toFile } from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../cli/run-cli.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { usePostgresAndTree } from "../support/postgres-tree.js";
import { all, apiError } from "../support/sdk-calls.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

// The official SDK client, unchanged, against the shipped bin's `serve`: memory stores, memories, their
// versions, and files, on PGlite and on PostgreSQL; then two instances on one PostgreSQL.

const KEY = "sk-test-memory";

const setup = usePostgresAndTree({ "home/repo/.keep": "" });

const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** The SDK's error for `call`, or a failure when it resolved. */

describe.each([
  ["PGlite", () => freshPgliteDir(setup.tree.path("pglite-memory"))],
  ["PostgreSQL", async () => setup.postgres.createDatabase("memory")],
])("memory stores and files through the official SDK on %s", (_name, location) => {
  let server: ServeProcess;
  let client: Anthropic;
  let other: Anthropic;

  beforeAll(async () => {
    const db = await location();
    const made = await cli(setup.tree, ["keys", "create", "--workspace", "other", "--db", db]);
    expect(made.code).toBe(0);
    server = await startServe(["--db", db, "--api-key", KEY]);
    client = sdkClient(server.url, KEY);
    other = sdkClient(server.url, made.stdout.trim());
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("creates, lists, updates, archives and deletes memory stores", async () => {
    const store = await client.beta.memoryStores.create({
      name: "Team Notes",
      description: "What the team learned",
      metadata: { owner: "ana" },
    });
    expect(store).toMatchObject({
      type: "memory_store",
      name: "Team Notes",
      description: "What the team learned",
      metadata: { owner: "ana" },
      archived_at: null,
    });
    expect(store.id).toMatch(/^memstore_/);
    const bare = await client.beta.memoryStores.create({ name: "bare" });
    expect(bare.description).toBe("");
    const updated = await client.beta.memoryStores.update(store.id, {
      name: "Team notes",
      metadata: { owner: null, team: "core" },
    });
    expect(updated).toMatchObject({ name: "Team notes", metadata: { team: "core" } });
    expect(await client.beta.memoryStores.retrieve(store.id)).toEqual(updated);

    const third = await client.beta.memoryStores.create({ name: "third" });
    const firstPage = await client.beta.memoryStores.list({ limit: 2 });
    expect(firstPage.data.map((s) => s.id)).toEqual([third.id, bare.id]);
    expect(firstPage.hasNextPage()).toBe(true);
    expect((await all(client.beta.memoryStores.list({ limit: 2 }))).map((s) => s.id)).toEqual([
      third.id,
      bare.id,
      store.id,
    ]);

    const future = new Date(Date.parse(third.created_at) + 60_000).toISOString();
    expect((await client.beta.memoryStores.list({ "created_at[gte]": future })).data).toEqual([]);
    expect(
      (await all(client.beta.memoryStores.list({ "created_at[lte]": third.created_at }))).map((s) => s.id),
    ).toContain(third.id);
    await expect(client.beta.memoryStores.list({ "created_at[gte]": "yesterday" })).rejects.toBeInstanceOf(
      Anthropic.BadRequestError,
    );

    const archived = await client.beta.memoryStores.archive(third.id);
    expect(archived.archived_at).not.toBeNull();
    expect((await all(client.beta.memoryStores.list())).map((s) => s.id)).not.toContain(third.id);
    expect((await all(client.beta.memoryStores.list({ include_archived: true }))).map((s) => s.id)).toContain(
      third.id,
    );
    // An archived store takes no new memories and no change.
    await expect(
      client.beta.memoryStores.memories.create(third.id, { path: "/a.md", content: "x" }),
    ).rejects.toBeInstanceOf(Anthropic.ConflictError);
    await expect(client.beta.memoryStores.update(third.id, { name: "again" })).rejects.toBeInstanceOf(
      Anthropic.ConflictError,
    );
    expect(await client.beta.memoryStores.delete(third.id)).toEqual({
      id: third.id,
      type: "memory_store_deleted",
    });
    await expect(client.beta.memoryStores.retrieve(third.id)).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    await expect(client.beta.memoryStores.create({ name: "" })).rejects.toBeInstanceOf(
      Anthropic.BadRequestError,
    );
  });

  it("keeps memories with view=basic|full, depth listings, preconditions and typed path conflicts", async () => {
    const store = await client.beta.memoryStores.create({ name: "notes" });
    const memories = client.beta.memoryStores.memories;
    const text = "# Todo\n- ship é\n";
    const created = await memories.create(store.id, { path: "/projects/foo/todo.md", content: text });
    expect(created).toMatchObject({
      type: "memory",
      memory_store_id: store.id,
      path: "/projects/foo/todo.md",
      content: null,
      content_sha256: sha(text),
      content_size_bytes: Buffer.byteLength(text),
    });
    expect(created.id).toMatch(/^mem_/);
    expect(created.memory_version_id).toMatch(/^memver_/);
    const full = await memories.retrieve(created.id, { memory_store_id: store.id });
    expect(full.content).toBe(text);
    expect(
      (await memories.retrieve(created.id, { memory_store_id: store.id, view: "basic" })).content,
    ).toBeNull();
    expect((await memories.create(store.id, { path: "/b.md", content: "b", view: "full" })).content).toBe(
      "b",
    );
    await memories.create(store.id, { path: "/projects/bar.md", content: "bar" });
    await memories.create(store.id, { path: "/projects/foo/done.md", content: "" });

    const everything = await all(memories.list(store.id, { limit: 2 }));
    expect(everything.map((m) => m.path)).toEqual([
      "/b.md",
      "/projects/bar.md",
      "/projects/foo/done.md",
      "/projects/foo/todo.md",
    ]);
    expect(everything.every((m) => m.type === "memory" && m.content === null)).toBe(true);
    const top = await memories.list(store.id, { depth: 1 });
    expect(top.data).toEqual([
      expect.objectContaining({ type: "memory", path: "/b.md" }),
      { type: "memory_prefix", path: "/projects/" },
    ]);
    const projects = await all(memories.list(store.id, { path_prefix: "/projects/", depth: 1, limit: 1 }));
    expect(projects.map((m) => [m.type, m.path])).toEqual([
      ["memory", "/projects/bar.md"],
      ["memory_prefix", "/projects/foo/"],
    ]);
    const withContent = await memories.list(store.id, { path_prefix: "/projects/foo/", view: "full" });
    expect(withContent.data.map((m) => (m.type === "memory" ? m.content : undefined))).toEqual(["", text]);

    // Path conflicts: the same path, a path below a memory, a path above one; each a typed 409.
    for (const [path, conflicting] of [
      ["/b.md", "/b.md"],
      ["/b.md/deeper", "/b.md"],
      ["/projects", "/projects/bar.md"],
    ] as const) {
      const error = await apiError(memories.create(store.id, { path, content: "x" }));
      expect(error).toBeInstanceOf(Anthropic.ConflictError);
      expect(error.headers?.get("x-should-retry")).toBe("false");
      expect(error.error).toMatchObject({
        type: "error",
        error: { type: "memory_path_conflict_error", conflicting_path: conflicting },
      });
    }
    const renameClash = await apiError(
      memories.update(created.id, { memory_store_id: store.id, path: "/b.md" }),
    );
    expect(renameClash.error).toMatchObject({
      error: { type: "memory_path_conflict_error", conflicting_path: "/b.md" },
    });

    // Preconditions: a stale hash is a typed 409 and changes nothing; the current one applies.
    const stale = await apiError(
      memories.update(created.id, {
        memory_store_id: store.id,
        content: "new",
        precondition: { type: "content_sha256", content_sha256: sha("something else") },
      }),
    );
    expect(stale).toBeInstanceOf(Anthropic.ConflictError);
    expect(stale.error).toMatchObject({ error: { type: "memory_precondition_failed_error" } });
    expect((await memories.retrieve(created.id, { memory_store_id: store.id })).content).toBe(text);
    const edited = await memories.update(created.id, {
      memory_store_id: store.id,
      content: "new",
      path: "/projects/foo/todo-2.md",
      precondition: { type: "content_sha256", content_sha256: sha(text) },
    });
    expect(edited).toMatchObject({
      id: created.id,
      path: "/projects/foo/todo-2.md",
      content_sha256: sha("new"),
    });
    // Already as asked: succeeds although the hash is stale, and adds no version.
    const same = await memories.update(created.id, {
      memory_store_id: store.id,
      content: "new",
      precondition: { type: "content_sha256", content_sha256: sha(text) },
    });
    expect(same.memory_version_id).toBe(edited.memory_version_id);

    // Versions: created then modified, newest first; redaction clears a past one, not the current one.
    const versions = client.beta.memoryStores.memoryVersions;
    const lineage = await all(versions.list(store.id, { memory_id: created.id }));
    expect(lineage.map((v) => v.operation)).toEqual(["modified", "created"]);
    expect(lineage[0]).toMatchObject({
      id: edited.memory_version_id,
      path: "/projects/foo/todo-2.md",
      content: null,
      content_sha256: sha("new"),
      created_by: { type: "api_actor" },
      redacted_at: null,
    });
    const past = lineage[1];
    if (past === undefined) throw new Error("no created version");
    expect((await versions.retrieve(past.id, { memory_store_id: store.id })).content).toBe(text);
    await expect(
      versions.redact(edited.memory_version_id, { memory_store_id: store.id }),
    ).rejects.toBeInstanceOf(Anthropic.ConflictError);
    const redacted = await versions.redact(past.id, { memory_store_id: store.id });
    expect(redacted).toMatchObject({
      id: past.id,
      content: null,
      path: null,
      content_sha256: null,
      content_size_bytes: null,
      redacted_by: { type: "api_actor" },
    });
    expect(redacted.redacted_at).not.toBeNull();
    expect(await versions.retrieve(past.id, { memory_store_id: store.id })).toEqual(redacted);
    expect((await all(versions.list(store.id, { operation: "created" }))).length).toBe(4);

    // Delete: a stale expected hash deletes nothing; then the memory goes and a `deleted` version stays.
    await expect(
      memories.delete(created.id, { memory_store_id: store.id, expected_content_sha256: sha(text) }),
    ).rejects.toBeInstanceOf(Anthropic.ConflictError);
    expect(
      await memories.delete(created.id, { memory_store_id: store.id, expected_content_sha256: sha("new") }),
    ).toEqual({ id: created.id, type: "memory_deleted" });
    await expect(memories.retrieve(created.id, { memory_store_id: store.id })).rejects.toBeInstanceOf(
      Anthropic.NotFoundError,
    );
    const afterDelete = await all(versions.list(store.id, { memory_id: created.id }));
    expect(afterDelete.map((v) => v.operation)).toEqual(["deleted", "modified", "created"]);
    expect(afterDelete[0]).toMatchObject({
      content: null,
      content_sha256: null,
      path: "/projects/foo/todo-2.md",
    });
  });

  it("refuses bad paths, oversized content and another workspace's store, storing nothing", async () => {
    const store = await client.beta.memoryStores.create({ name: "strict" });
    const memories = client.beta.memoryStores.memories;
    const bad = [
      "no-slash.md",
      "/a//b.md",
      "/a/./b.md",
      "/a/../b.md",
      "/trailing/",
      `/${Array.from({ length: 21 }, (_, i) => `s${i}`).join("/")}`,
      `/${"x".repeat(1024)}`,
      "/cafe\u0301.md",
      "/tab\there.md",
      "/sep\u2028.md",
    ];
    for (const path of bad) {
      const error = await apiError(memories.create(store.id, { path, content: "x" }));
      expect([path, error.status, error.error]).toMatchObject([
        path,
        400,
        { type: "error", error: { type: "invalid_request_error" } },
      ]);
    }
    const big = "é".repeat(51_201); // 102,402 bytes
    const tooBig = await apiError(memories.create(store.id, { path: "/big.md", content: big }));
    expect(tooBig.status).toBe(413);
    expect(tooBig.error).toMatchObject({ type: "error", error: { type: "request_too_large" } });
    // At the limit exactly: stored.
    const fits = await memories.create(store.id, { path: "/fits.md", content: "x".repeat(102_400) });
    expect(fits.content_size_bytes).toBe(102_400);
    const grow = await apiError(memories.update(fits.id, { memory_store_id: store.id, content: big }));
    expect(grow.status).toBe(413);

    // Another workspace sees no such store, and writes nothing into it.
    await expect(other.beta.memoryStores.retrieve(store.id)).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    await expect(
      other.beta.memoryStores.memories.create(store.id, { path: "/intruder.md", content: "x" }),
    ).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    await expect(
      other.beta.memoryStores.memories.retrieve(fits.id, { memory_store_id: store.id }),
    ).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    await expect(other.beta.memoryStores.delete(store.id)).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    expect((await all(other.beta.memoryStores.list())).map((s) => s.id)).not.toContain(store.id);

    const stored = await all(memories.list(store.id, { view: "full" }));
    expect(stored.map((m) => m.path)).toEqual(["/fits.md"]);
    expect(stored[0]).toMatchObject({ content: "x".repeat(102_400) });
    const versions = await all(client.beta.memoryStores.memoryVersions.list(store.id));
    expect(versions.map((v) => v.operation)).toEqual(["created"]);
  });

  it("uploads files, lists them, downloads them byte-identical and deletes them", async () => {
    const bytes = new Uint8Array(200_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256;
    const uploaded = await client.beta.files.upload({
      file: await toFile(Buffer.from(bytes), "dir/data.bin", { type: "application/x-test" }),
    });
    expect(uploaded).toMatchObject({
      type: "file",
      filename: "data.bin",
      mime_type: "application/x-test",
      size_bytes: bytes.length,
      downloadable: true,
    });
    expect(uploaded.id).toMatch(/^file_/);
    const empty = await client.beta.files.upload({ file: await toFile(Buffer.alloc(0), "empty.txt") });
    expect(empty.size_bytes).toBe(0);
    expect(await client.beta.files.retrieveMetadata(uploaded.id)).toEqual(uploaded);
    const listed = await all(client.beta.files.list({ limit: 1 }));
    expect(listed.map((f) => f.id)).toEqual([empty.id, uploaded.id]);

    const download = await client.beta.files.download(uploaded.id);
    expect(download.headers.get("content-type")).toBe("application/x-test");
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    expect((await (await client.beta.files.download(empty.id)).arrayBuffer()).byteLength).toBe(0);

    // Another workspace sees none of it.
    await expect(other.beta.files.retrieveMetadata(uploaded.id)).rejects.toBeInstanceOf(
      Anthropic.NotFoundError,
    );
    await expect(other.beta.files.download(uploaded.id)).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    await expect(other.beta.files.delete(uploaded.id)).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    expect((await all(other.beta.files.list())).map((f) => f.id)).toEqual([]);

    expect(await client.beta.files.delete(uploaded.id)).toEqual({ id: uploaded.id, type: "file_deleted" });
    await expect(client.beta.files.download(uploaded.id)).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    expect((await all(client.beta.files.list())).map((f) => f.id)).toEqual([empty.id]);
  });

  it("refuses a file over the size limit with a 413 and stores nothing", async () => {
    const before = (await all(client.beta.files.list())).map((f) => f.id);
    const tooBig = await apiError(
      client.beta.files.upload({ file: await toFile(Buffer.alloc(30 * 1024 * 1024 + 1, 1), "big.bin") }),
    );
    expect(tooBig.status).toBe(413);
    expect(tooBig.error).toMatchObject({ type: "error", error: { type: "request_too_large" } });
    const noFile = await fetch(`${server.url}/v1/files`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(noFile.status).toBe(400);
    expect((await all(client.beta.files.list())).map((f) => f.id)).toEqual(before);
  });
});

describe("two instances on one PostgreSQL", () => {
  let a: ServeProcess;
  let b: ServeProcess;
  beforeAll(async () => {
    const db = await setup.postgres.createDatabase("memory_instances");
    a = await startServe(["--db", db, "--api-key", KEY]);
    b = await startServe(["--db", db, "--api-key", KEY]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it("see the same memory stores, memories, versions and files", async () => {
    const clientA = sdkClient(a.url, KEY);
    const clientB = sdkClient(b.url, KEY);
    const store = await clientA.beta.memoryStores.create({ name: "shared" });
    const memory = await clientA.beta.memoryStores.memories.create(store.id, {
      path: "/n.md",
      content: "one",
    });
    await clientB.beta.memoryStores.memories.update(memory.id, { memory_store_id: store.id, content: "two" });
    expect(
      (await clientA.beta.memoryStores.memories.retrieve(memory.id, { memory_store_id: store.id })).content,
    ).toBe("two");
    // A path one instance holds is a conflict on the other.
    await expect(
      clientB.beta.memoryStores.memories.create(store.id, { path: "/n.md/x", content: "x" }),
    ).rejects.toBeInstanceOf(Anthropic.ConflictError);
    const versions = await all(clientA.beta.memoryStores.memoryVersions.list(store.id));
    expect(versions.map((v) => v.operation)).toEqual(["modified", "created"]);

    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    const file = await clientB.beta.files.upload({ file: await toFile(bytes, "shared.bin") });
    expect(await clientA.beta.files.retrieveMetadata(file.id)).toEqual(file);
    expect(Buffer.from(await (await clientA.beta.files.download(file.id)).arrayBuffer()).equals(bytes)).toBe(
      true,
    );
  });
});
