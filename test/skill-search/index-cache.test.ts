import { mkdir, readdir, readFile, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CACHE_FILE_MAX_AGE_MS } from "../../src/discovery/cache-prune.js";
import { createNodeFs } from "../../src/io/fs.js";
import { decodeIndexCache, encodeIndexCache } from "../../src/skill-search/index-cache.js";
import { buildLexicalIndex, queryLexicalIndex } from "../../src/skill-search/lexical-index.js";
import { createSkillSearcher } from "../../src/skill-search/search.js";
import { skillDocument } from "../../src/skill-search/skill-document.js";
import { makeSkill } from "../support/make-skill.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

/** A run a minute from now: the files' status-change times (set by `utimes`) are then outside the racy window. */
const later = () => Date.now() + 60_000;
/** Long ago. */
const OLD = new Date("2025-01-01T00:00:00Z");

/** File skills over real files whose `loadBody` reads the file and counts the reads. */
async function fileSkills(bodies: Record<string, string>) {
  tree = await tmpTree(
    Object.fromEntries(Object.entries(bodies).map(([n, b]) => [`skills/${n}/SKILL.md`, b])),
  );
  const root = tree.root;
  const reads: string[] = [];
  for (const name of Object.keys(bodies)) await utimes(join(root, "skills", name, "SKILL.md"), OLD, OLD);
  const skills = Object.keys(bodies).map((name) => {
    const filePath = join(root, "skills", name, "SKILL.md");
    return makeSkill({
      name,
      description: `Does ${name}`,
      filePath,
      loadBody: async () => {
        reads.push(name);
        return readFile(filePath, "utf8");
      },
    });
  });
  return { root, skills, reads, cacheFile: join(root, "cache", "search", "project.idx") };
}

describe("the index cache", () => {
  it("round-trips an index, and refuses another key, signature, stamps or damaged bytes", () => {
    const index = buildLexicalIndex([
      skillDocument(makeSkill({ name: "a", description: "rotate keys" }), "# Vault\nrotation"),
      skillDocument(makeSkill({ name: "b", description: "format tables" }), undefined),
    ]);
    const stamp = { signature: "s", stamps: ["1", "2"] };
    const bytes = encodeIndexCache(index, "k", stamp);
    const back = decodeIndexCache(bytes, "k", stamp);
    expect(back?.names).toEqual(["a", "b"]);
    expect(back === undefined ? undefined : [...queryLexicalIndex(back, ["vault"]).docs]).toEqual([0]);
    expect(decodeIndexCache(bytes, "other", stamp)).toBeUndefined();
    expect(decodeIndexCache(bytes, "k", { ...stamp, signature: "t" })).toBeUndefined();
    expect(decodeIndexCache(bytes, "k", { ...stamp, stamps: ["1", "3"] })).toBeUndefined();
    expect(decodeIndexCache(bytes.slice(0, bytes.length - 4), "k", stamp)).toBeUndefined();
    expect(decodeIndexCache(new Uint8Array([1, 0, 0, 0, 123]), "k", stamp)).toBeUndefined();
    const bad = bytes.slice();
    // The last posting's document number, pointed far outside the index.
    new DataView(bad.buffer).setInt32(bad.length - 4 * (index.docs.length + 1), 99, true);
    expect(decodeIndexCache(bad, "k", stamp)).toBeUndefined();
  });

  it("removes other projects' index files not written for a month when it writes one", async () => {
    const { skills, cacheFile } = await fileSkills({ one: "vault rotation" });
    const dir = join(cacheFile, "..");
    await mkdir(dir, { recursive: true });
    const stale = join(dir, "gone-project.idx");
    const recent = join(dir, "other-project.idx");
    const notOurs = join(dir, "notes.txt");
    for (const file of [stale, recent, notOurs]) await writeFile(file, "x");
    const now = later();
    const ago = (ms: number) => new Date(now - ms);
    await utimes(stale, ago(CACHE_FILE_MAX_AGE_MS + 60_000), ago(CACHE_FILE_MAX_AGE_MS + 60_000));
    await utimes(recent, ago(60_000), ago(60_000));
    await utimes(notOurs, OLD, OLD);
    await createSkillSearcher({
      cache: { fs: createNodeFs(), file: cacheFile, key: "v1" },
      now: () => now,
    }).search(skills, "vault");
    expect((await readdir(dir)).sort()).toEqual(["notes.txt", "other-project.idx", "project.idx"]);
  });

  it("is written on the first search and spares the next run every body read while nothing changed", async () => {
    const { skills, reads, cacheFile } = await fileSkills({ one: "vault rotation", two: "table formats" });
    const cache = { fs: createNodeFs(), file: cacheFile, key: "v1" };
    const first = await createSkillSearcher({ cache, now: later }).search(skills, "vault");
    expect(first.map((m) => m.skill.name)).toEqual(["one"]);
    expect(reads.sort()).toEqual(["one", "two"]);
    reads.length = 0;
    // A new run: a new searcher over new skill objects.
    const again = await createSkillSearcher({ cache, now: later }).search(
      skills.map((s) => ({ ...s })),
      "vault",
    );
    expect(again.map((m) => m.skill.name)).toEqual(["one"]);
    expect(reads).toEqual([]);
    // Another build's key: rebuilt.
    await createSkillSearcher({ cache: { ...cache, key: "v2" }, now: later }).search(skills, "vault");
    expect(reads.sort()).toEqual(["one", "two"]);
  });

  it("tells onIndexBuild of a build from the bodies (ended once built), not of a load from a valid cache", async () => {
    const { skills, reads, cacheFile } = await fileSkills({ one: "vault rotation", two: "table formats" });
    const cache = { fs: createNodeFs(), file: cacheFile, key: "v1" };
    const events: string[] = [];
    const onIndexBuild = (count: number) => {
      events.push(`build ${count}`);
      return () => events.push(`built after ${reads.length} reads`);
    };
    const searcher = createSkillSearcher({ cache, now: later, onIndexBuild });
    await searcher.search(skills, "vault");
    await searcher.search(skills, "tables");
    expect(events).toEqual(["build 2", "built after 2 reads"]);
    events.length = 0;
    reads.length = 0;
    // The next run loads the cache: nothing to show.
    await createSkillSearcher({ cache, now: later, onIndexBuild }).search(
      skills.map((s) => ({ ...s })),
      "vault",
    );
    expect(events).toEqual([]);
    // Without a cache every first search builds.
    await createSkillSearcher({ onIndexBuild }).search(skills.slice(0, 1), "vault");
    expect(events).toEqual(["build 1", "built after 1 reads"]);
  });

  it("is rebuilt, never trusted, when a body changes or the file is corrupt", async () => {
    const { root, skills, reads, cacheFile } = await fileSkills({
      one: "vault rotation",
      two: "table formats",
    });
    const cache = { fs: createNodeFs(), file: cacheFile, key: "v1" };
    await createSkillSearcher({ cache, now: later }).search(skills, "vault");
    const edited = join(root, "skills", "two", "SKILL.md");
    await writeFile(edited, "vault keys, and tables");
    await utimes(edited, new Date("2025-02-01T00:00:00Z"), new Date("2025-02-01T00:00:00Z"));
    reads.length = 0;
    const found = await createSkillSearcher({ cache, now: later }).search(skills, "vault");
    expect(found.map((m) => m.skill.name).sort()).toEqual(["one", "two"]);
    expect(reads.sort()).toEqual(["one", "two"]);

    await writeFile(cacheFile, "not an index");
    reads.length = 0;
    const afterCorrupt = await createSkillSearcher({ cache, now: later }).search(skills, "vault");
    expect(afterCorrupt.map((m) => m.skill.name).sort()).toEqual(["one", "two"]);
    expect(reads.sort()).toEqual(["one", "two"]);
  });

  it("is not written while a file's stamp is too recent to trust", async () => {
    const { root, skills, cacheFile } = await fileSkills({ one: "vault" });
    await utimes(join(root, "skills", "one", "SKILL.md"), new Date(), new Date());
    const cache = { fs: createNodeFs(), file: cacheFile, key: "v1" };
    await createSkillSearcher({ cache }).search(skills, "vault");
    await expect(readFile(cacheFile)).rejects.toThrow();
  });
});
