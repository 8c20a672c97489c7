import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FsOps } from "../../src/io/fs.js";
import { createMountFs } from "../../src/serve/sessions/mount-fs.js";
import { createStore, type Store } from "../../src/serve/store/store.js";
import { ensureWorkspace } from "../../src/serve/store/workspaces.js";
import { createBuiltinTools } from "../../src/tools/builtin.js";
import { freshPgliteDriver } from "../support/pglite-template.js";

// A served session's file system over its mounts, on a real database: memory stores (read-write and
// read-only), an uploaded file, and the scratch space; the built-in Grep, Glob and LS run on it.

let store: Store;
let ws: string;
let fs: FsOps;
let other: FsOps;
/** The same session's file system as another instance opens it. */
let again: FsOps;
let storeId: string;
beforeAll(async () => {
  store = await createStore(await freshPgliteDriver());
  ws = await ensureWorkspace(store.db, "default");
  const newSession = () =>
    store.sessions.create(ws, {
      agent: {
        type: "agent",
        id: "agent_1",
        version: 1,
        name: "a",
        description: null,
        model: { id: "claude-sonnet-5-5", speed: "standard" },
        system: null,
        skills: [],
        tools: [],
        mcp_servers: [],
        execution_identity: { type: "service_account" },
        multiagent: null,
      },
      environmentId: "env_1",
      title: null,
      metadata: {},
      vault_ids: [],
    });
  const notes = await store.memoryStores.create(ws, { name: "notes", description: "", metadata: {} });
  storeId = notes.id;
  const frozen = await store.memoryStores.create(ws, { name: "frozen", description: "", metadata: {} });
  const actor = { type: "session_actor" as const, session_id: "sesn_seed" };
  await store.mounts.writeMemory(ws, notes.id, "/prefs/editor.md", "vim with tabs", actor);
  await store.mounts.writeMemory(ws, notes.id, "/top.md", "top level", actor);
  await store.mounts.writeMemory(ws, frozen.id, "/rule.md", "do not change", actor);
  const file = await store.files.create(ws, {
    filename: "data.csv",
    mimeType: "text/csv",
    content: new Uint8Array(Buffer.from("a,b\n1,2\n")),
  });
  const session = await newSession();
  const mounts = [
    { kind: "memory" as const, path: "/mnt/memory/notes", storeId: notes.id, readOnly: false },
    { kind: "memory" as const, path: "/mnt/memory/frozen", storeId: frozen.id, readOnly: true },
    { kind: "file" as const, path: "/mnt/session/uploads/data.csv", fileId: file.id },
  ];
  const base = { workspaceId: ws, mounts, content: store.mounts, scratch: store.scratch };
  fs = createMountFs({ ...base, sessionId: session.id });
  again = createMountFs({ ...base, sessionId: session.id });
  other = createMountFs({ ...base, sessionId: (await newSession()).id });
}, 60_000);
afterAll(async () => {
  await store?.close();
});

describe("a session's file system over its mounts", () => {
  it("lists the directories above the mounts, and nothing else of the host", async () => {
    expect(await fs.readdir("/")).toEqual([
      { name: "mnt", kind: "dir" },
      { name: "workspace", kind: "dir" },
    ]);
    expect(await fs.readdir("/mnt/memory")).toEqual([
      { name: "frozen", kind: "dir" },
      { name: "notes", kind: "dir" },
    ]);
    expect(await fs.readdir("/mnt/session/uploads")).toEqual([{ name: "data.csv", kind: "file" }]);
    for (const hostPath of ["/etc/passwd", "/home", "/mnt/other", "/workspace/../etc/hostname"]) {
      await expect(fs.stat(hostPath), hostPath).rejects.toMatchObject({ code: "ENOENT" });
    }
    await expect(fs.writeFile("/etc/x", "x")).rejects.toMatchObject({ code: "EACCES" });
  });

  it("reads memories as files and their path prefixes as directories", async () => {
    expect(await fs.readFile("/mnt/memory/notes/prefs/editor.md")).toBe("vim with tabs");
    expect(await fs.readdir("/mnt/memory/notes")).toEqual([
      { name: "prefs", kind: "dir" },
      { name: "top.md", kind: "file" },
    ]);
    expect((await fs.stat("/mnt/memory/notes/prefs")).kind).toBe("dir");
    expect(await fs.stat("/mnt/memory/notes/top.md")).toMatchObject({ kind: "file", size: 9 });
    await expect(fs.readFile("/mnt/memory/notes/prefs")).rejects.toMatchObject({ code: "EISDIR" });
    await expect(fs.readFile("/mnt/memory/notes/none.md")).rejects.toMatchObject({ code: "ENOENT" });
    expect(new TextDecoder().decode(await fs.readBytes("/mnt/session/uploads/data.csv"))).toBe("a,b\n1,2\n");
  });

  it("writes a memory as a new version; refuses read-only mounts, uploads, and removing memories", async () => {
    await fs.writeFile("/mnt/memory/notes/new/one.md", "first");
    await fs.writeFile("/mnt/memory/notes/new/one.md", "second");
    const memory = await store.mounts.readMemory(ws, storeId, "/new/one.md");
    expect(memory?.content).toBe("second");
    const versions = await store.memoryVersions.list(
      ws,
      storeId,
      { limit: 10, after: undefined },
      {
        memoryId: memory?.id ?? "",
        operation: undefined,
        apiKeyId: undefined,
        sessionId: undefined,
        createdFrom: undefined,
        createdTo: undefined,
      },
      false,
    );
    expect(versions.data).toHaveLength(2);
    await expect(fs.writeFile("/mnt/memory/frozen/rule.md", "changed")).rejects.toMatchObject({
      code: "EROFS",
    });
    await expect(fs.writeFile("/mnt/session/uploads/data.csv", "x")).rejects.toMatchObject({ code: "EROFS" });
    await expect(fs.rm("/mnt/memory/notes/top.md")).rejects.toMatchObject({ code: "EPERM" });
    await expect(fs.writeFile("/mnt/memory/notes/bad/../x.md", "x")).resolves.toBeUndefined();
    await expect(fs.writeFile("/mnt/memory/notes/a.md", "x".repeat(200_000))).rejects.toMatchObject({
      code: "EFBIG",
    });
    // A memory is text PostgreSQL holds: a NUL is refused with a clear error, not the database's.
    await expect(fs.writeFile("/mnt/memory/notes/nul.md", "a\u0000b")).rejects.toMatchObject({
      code: "EINVAL",
      message: expect.stringMatching(/cannot hold a NUL character/),
    });
    expect(await store.mounts.readMemory(ws, storeId, "/nul.md")).toBeUndefined();
    expect(await fs.readFile("/mnt/memory/frozen/rule.md")).toBe("do not change");
  });

  it("keeps the scratch space per session, in the database: write, rename, remove", async () => {
    await fs.mkdir("/workspace/src");
    await fs.writeFile("/workspace/src/a.txt", "alpha");
    await fs.rename("/workspace/src", "/workspace/lib");
    expect(await fs.readdir("/workspace")).toEqual([{ name: "lib", kind: "dir" }]);
    expect(await fs.readFile("/workspace/lib/a.txt")).toBe("alpha");
    expect(await again.readFile("/workspace/lib/a.txt")).toBe("alpha");
    await expect(other.readFile("/workspace/lib/a.txt")).rejects.toMatchObject({ code: "ENOENT" });
    expect(await other.readdir("/workspace")).toEqual([]);
    await fs.rm("/workspace/lib");
    await expect(fs.stat("/workspace/lib")).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("mounts every file of the session's skills, byte for byte and read-only, under /mnt/skills", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe]);
    const files = new Map<string, Uint8Array>([
      ["SKILL.md", Buffer.from("---\nname: greet\ndescription: d\n---\nbody")],
      ["reference/phrases.md", Buffer.from("Hello there")],
      ["scripts/run.sh", Buffer.from("echo hi")],
      ["assets/logo.png", png],
    ]);
    const withSkills = createMountFs({
      workspaceId: ws,
      sessionId: "sesn_none",
      mounts: [],
      content: store.mounts,
      scratch: store.scratch,
      skills: async () => [
        { name: "greet", paths: [...files.keys()], read: async (path) => files.get(path) },
      ],
    });
    expect(await withSkills.readdir("/mnt")).toEqual([{ name: "skills", kind: "dir" }]);
    expect(await withSkills.readdir("/mnt/skills")).toEqual([{ name: "greet", kind: "dir" }]);
    expect(await withSkills.readdir("/mnt/skills/greet")).toEqual([
      { name: "SKILL.md", kind: "file" },
      { name: "assets", kind: "dir" },
      { name: "reference", kind: "dir" },
      { name: "scripts", kind: "dir" },
    ]);
    expect(await withSkills.readFile("/mnt/skills/greet/SKILL.md")).toContain("name: greet");
    expect(await withSkills.readFile("/mnt/skills/greet/reference/phrases.md")).toBe("Hello there");
    expect(await withSkills.readBytes("/mnt/skills/greet/assets/logo.png")).toEqual(png);
    expect((await withSkills.stat("/mnt/skills/greet/assets/logo.png")).size).toBe(png.length);
    await expect(withSkills.readFile("/mnt/skills/greet/none.md")).rejects.toMatchObject({ code: "ENOENT" });
    await expect(withSkills.readFile("/mnt/skills/other/x")).rejects.toMatchObject({ code: "ENOENT" });
    await expect(withSkills.writeFile("/mnt/skills/greet/scripts/run.sh", "rm -rf /")).rejects.toMatchObject({
      code: "EROFS",
    });
    expect(await withSkills.readFile("/mnt/skills/greet/scripts/run.sh")).toBe("echo hi");
  });

  it("runs the built-in Grep, Glob and LS on it", async () => {
    const tools = createBuiltinTools({ fs, homeDir: "/home" });
    expect(tools.map((t) => t.name)).not.toContain("Bash");
    const ctx = { cwd: "/workspace", signal: new AbortController().signal, toolUseId: "t" };
    const run = async (name: string, input: unknown) => {
      const tool = tools.find((t) => t.name === name);
      if (tool === undefined) throw new Error(`no ${name}`);
      return JSON.stringify((await tool.run(input, ctx)).content);
    };
    expect(await run("Grep", { pattern: "tabs", path: "/mnt/memory" })).toContain(
      "/mnt/memory/notes/prefs/editor.md",
    );
    expect(await run("Glob", { pattern: "**/*.md", path: "/mnt/memory/frozen" })).toContain("rule.md");
    expect(await run("LS", { path: "/mnt/memory/notes" })).toContain("top.md");
  });
});
