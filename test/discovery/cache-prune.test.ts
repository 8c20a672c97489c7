import { mkdir, readdir, utimes, writeFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { CACHE_FILE_MAX_AGE_MS, pruneCacheDir, STALE_TEMP_MS } from "../../src/discovery/cache-prune.js";
import { createNodeFs } from "../../src/io/fs.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

const NOW = Date.UTC(2026, 10, 21);
let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

/** Sets a file's modification time to `ageMs` before NOW. */
async function age(path: string, ageMs: number): Promise<void> {
  const when = new Date(NOW - ageMs);
  await utimes(path, when, when);
}

describe("pruneCacheDir", () => {
  it("removes old cache files and abandoned temp files, never the one in use or anything else", async () => {
    tree = await tmpTree({
      "c/old.json": "{}",
      "c/recent.json": "{}",
      "c/current.json": "{}",
      "c/old.json.123-abc.tmp": "",
      "c/fresh.json.456-def.tmp": "",
      "c/notes.txt": "not ours",
      "c/old-dir.json": { dir: true },
    });
    const t = tree;
    await age(t.path("c/old.json"), CACHE_FILE_MAX_AGE_MS + 1_000);
    await age(t.path("c/recent.json"), CACHE_FILE_MAX_AGE_MS - 60_000);
    await age(t.path("c/current.json"), CACHE_FILE_MAX_AGE_MS * 3);
    await age(t.path("c/old.json.123-abc.tmp"), STALE_TEMP_MS + 1_000);
    await age(t.path("c/fresh.json.456-def.tmp"), 1_000);
    await age(t.path("c/notes.txt"), CACHE_FILE_MAX_AGE_MS * 3);
    await age(t.path("c/old-dir.json"), CACHE_FILE_MAX_AGE_MS * 3);

    const removed = await pruneCacheDir(createNodeFs(), t.path("c"), t.path("c/current.json"), NOW);
    expect(removed.sort()).toEqual([t.path("c/old.json"), t.path("c/old.json.123-abc.tmp")]);
    expect((await readdir(t.path("c"))).sort()).toEqual([
      "current.json",
      "fresh.json.456-def.tmp",
      "notes.txt",
      "old-dir.json",
      "recent.json",
    ]);
  });

  it("a missing dir or a file it cannot remove is left alone without rejecting", async () => {
    tree = await tmpTree({ "c/stale.json": "{}" });
    const t = tree;
    await age(t.path("c/stale.json"), CACHE_FILE_MAX_AGE_MS * 2);
    const fs = createNodeFs();
    expect(await pruneCacheDir(fs, t.path("missing"), t.path("missing/x.json"), NOW)).toEqual([]);
    const failing = { ...fs, rm: async () => Promise.reject(new Error("EACCES: no")) };
    expect(await pruneCacheDir(failing, t.path("c"), t.path("c/other.json"), NOW)).toEqual([]);
    expect(await readdir(t.path("c"))).toEqual(["stale.json"]);
  });

  it("runs after a cache write: an old neighbour disappears when the engine saves", async () => {
    tree = await tmpTree({
      "home/repo/.git": { dir: true },
      "home/repo/.claude/skills/a/SKILL.md": "---\ndescription: A\n---\n",
    });
    const t = tree;
    await mkdir(t.path("cache"));
    await writeFile(t.path("cache/gone-00000000.json"), "{}");
    const longAgo = new Date(Date.now() - CACHE_FILE_MAX_AGE_MS * 2); // the engine runs on the real clock
    await utimes(t.path("cache/gone-00000000.json"), longAgo, longAgo);
    const { createEngine } = await import("../../src/engine/engine.js");
    const engine = createEngine({
      cwd: t.path("home/repo"),
      home: t.path("home"),
      env: { SKILLWRIGHT_MANAGED_DIR: t.path("managed") },
      discoveryCache: { dir: t.path("cache"), key: "k" },
      now: () => Date.now() + 3_600_000,
    });
    await engine.discover();
    const files = await readdir(t.path("cache"));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^repo-[0-9a-f]{8}\.json$/);
  });
});
