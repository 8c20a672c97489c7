import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHUNK_BYTES, packChunks } from "../../src/serve/store/skill-file-chunks.js";
import type { SkillUpload } from "../../src/serve/store/skill-upload.js";
import { createStore, type Store } from "../../src/serve/store/store.js";
import { ensureWorkspace } from "../../src/serve/store/workspaces.js";
import { freshPgliteDriver } from "../support/pglite-template.js";

// A skill version's bytes are stored as chunks written a few per statement before the version's transaction:
// how they are packed, that they come back byte for byte, and that nothing is left when an upload fails or a
// version goes.

describe("packChunks", () => {
  it.each([
    ["one small file", [{ path: "a", size: 10 }], [[["a", 0, 0, 10]]]],
    ["an empty file has no chunk", [{ path: "a", size: 0 }], []],
    [
      "a big file takes a statement per chunk",
      [{ path: "a", size: 250 }],
      [[["a", 0, 0, 100]], [["a", 1, 100, 100]], [["a", 2, 200, 50]]],
    ],
    [
      "small files share statements up to the byte limit",
      [
        { path: "a", size: 40 },
        { path: "b", size: 40 },
        { path: "c", size: 40 },
      ],
      [
        [
          ["a", 0, 0, 40],
          ["b", 0, 0, 40],
        ],
        [["c", 0, 0, 40]],
      ],
    ],
    [
      "and up to the row limit",
      [
        { path: "a", size: 1 },
        { path: "b", size: 1 },
        { path: "c", size: 1 },
      ],
      [
        [
          ["a", 0, 0, 1],
          ["b", 0, 0, 1],
        ],
        [["c", 0, 0, 1]],
      ],
    ],
  ])("%s", (_label, files, statements) => {
    const packed = packChunks(files, 100, 2).map((rows) =>
      rows.map((r) => [r.path, r.n, r.offset, r.length]),
    );
    expect(packed).toEqual(statements);
  });
});

describe("the store's chunked files", () => {
  let store: Store;
  let ws: string;
  const chunkRows = async () =>
    Number((await store.db.query("SELECT count(*) AS n FROM skill_file_chunks"))[0]?.n ?? -1);
  const upload = (name: string, files: SkillUpload["files"]): SkillUpload => ({
    name,
    description: "d",
    head: {},
    files: [{ path: "SKILL.md", content: new TextEncoder().encode(`---\nname: ${name}\n---\n`) }, ...files],
  });
  beforeAll(async () => {
    store = await createStore(await freshPgliteDriver());
    ws = await ensureWorkspace(store.db, "default");
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });

  it("gives back every file byte for byte, across chunk boundaries", async () => {
    const big = new Uint8Array(2 * CHUNK_BYTES + 5).map((_, i) => (i * 31) % 256);
    const files = [
      { path: "assets/big.bin", content: big },
      { path: "assets/empty.txt", content: new Uint8Array() },
      { path: "notes.md", content: new TextEncoder().encode("é ok") },
    ];
    const skill = await store.skills.create(ws, upload("round", files));
    const stored = await store.skills.files(skill.latest_version_id);
    expect(stored.map((f) => f.path)).toEqual(["SKILL.md", "assets/big.bin", "assets/empty.txt", "notes.md"]);
    expect(Buffer.from(stored[1]?.content ?? []).equals(Buffer.from(big))).toBe(true);
    expect(stored[2]?.content.length).toBe(0);
    expect(Buffer.from((await store.skills.file(skill.latest_version_id, "notes.md")) ?? []).toString()).toBe(
      "é ok",
    );
    expect(await store.skills.file(skill.latest_version_id, "missing.md")).toBeUndefined();
  });

  it("leaves no chunk behind when a version is refused, or deleted with its skill", async () => {
    const skill = await store.skills.create(ws, upload("kept", []));
    const before = await chunkRows();
    await expect(
      store.skills.addVersion(
        ws,
        skill.id,
        upload("renamed", [{ path: "a.bin", content: new Uint8Array(10) }]),
      ),
    ).rejects.toThrow(/does not match this skill's name/);
    expect(await chunkRows()).toBe(before);
    const v2 = await store.skills.addVersion(
      ws,
      skill.id,
      upload("kept", [{ path: "a.bin", content: new Uint8Array(CHUNK_BYTES + 1) }]),
    );
    expect(await chunkRows()).toBe(before + 3);
    await store.skills.deleteVersion(ws, skill.id, v2.id);
    expect(await chunkRows()).toBe(before);
    await store.skills.delete(ws, skill.id);
    expect(await chunkRows()).toBe(before - 1);
  });
});
