import { readdir, readFile, writeFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import {
  HEAD_CACHE_FORMAT,
  type HeadCache,
  isPlainData,
  isRacy,
  openHeadCache,
  RACY_WINDOW_MS,
} from "../../src/discovery/head-cache.js";
import { createNodeFs, type FileStat, type FsOps } from "../../src/io/fs.js";
import { type HeadResult, readSkillHead, type SkillFileRef } from "../../src/skill/load-skill.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { spyFs } from "./spy-fs.js";

const fs = createNodeFs();
const KEY = "1.0.0+build-a";
const RICH = [
  "---",
  "description: Deploys things",
  "allowed-tools: [Read, Bash(git add:*)]",
  "paths: ['src/**/*.ts', docs/*.md]",
  "metadata: { owner: me, tags: [a, b], nested: { n: 1, ok: true, none: null } }",
  "custom: { deep: [1, two, { three: 3 }] }",
  "---",
  "# Body",
  "",
].join("\n");

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

interface Read {
  ref: SkillFileRef;
  stat: FileStat;
  head: HeadResult;
}

/** A temp tree with skills `a`, `b` (and any extra files), and the cache file path inside it. */
async function setup(files: Record<string, string> = {}): Promise<{ t: TmpTree; file: string }> {
  tree = await tmpTree({ "skills/a/SKILL.md": RICH, "skills/b/SKILL.md": "plain body\n", ...files });
  return { t: tree, file: tree.path("cache/heads.json") };
}

async function readSkill(t: TmpTree, name: string): Promise<Read> {
  const ref: SkillFileRef = {
    path: t.path(`skills/${name}/SKILL.md`),
    name,
    kind: "skill",
    source: "user",
    root: t.path("skills"),
    baseDir: t.path(`skills/${name}`),
  };
  return { ref, stat: await fs.stat(ref.path), head: await readSkillHead(fs, ref) };
}

/** The ways the cache file is read: the default 64 KB chunks, chunks that split lines and characters, whole. */
const READERS: [string, FsOps][] = [
  ["in 64 KB chunks", fs],
  ["in 7-byte chunks", { ...fs, readChunksSync: (path) => fs.readChunksSync?.(path, 7) ?? [] }],
  ["whole (an fs without readChunksSync)", { ...fs, readChunksSync: undefined }],
];

/** A clock an hour ahead: none of the test's files is racy. */
const LATER = Date.now() + 3_600_000;

function open(file: string, now: number, key = KEY, ops: FsOps = fs): Promise<HeadCache> {
  return openHeadCache({ fs: ops, file, key, now });
}

/** Looks files up in one pass (a cache is looked up once): each one's head, or undefined on a miss. */
function lookupAll(cache: HeadCache, files: [SkillFileRef, FileStat][]): (HeadResult | undefined)[] {
  const heads: (HeadResult | undefined)[] = files.map(() => undefined);
  const missed = cache.lookup(
    files.map(([ref]) => ref),
    (index) => files[index]?.[1],
    (index, head) => {
      heads[index] = head;
    },
  );
  expect(missed).toEqual(heads.flatMap((h, i) => (h === undefined ? [i] : [])));
  return heads;
}

/** Looks one file up: its head, or undefined on a miss. */
function get(cache: HeadCache, ref: SkillFileRef, stat: FileStat): HeadResult | undefined {
  return lookupAll(cache, [[ref, stat]])[0];
}

/** Puts each read skill into a fresh cache and saves it. */
async function seed(file: string, reads: Read[], now = LATER): Promise<void> {
  const cache = await open(file, now);
  for (const r of reads) cache.put(r.ref, r.stat, r.head);
  expect(await cache.save()).toBeUndefined();
}

describe("isRacy", () => {
  const now = 1_700_000_000_000;
  it.each<[string, number, number, boolean]>([
    ["both well before the window", now - RACY_WINDOW_MS - 1, now - RACY_WINDOW_MS - 1, false],
    ["exactly at the window's edge", now - RACY_WINDOW_MS, now - RACY_WINDOW_MS, false],
    ["mtime inside the window", now - RACY_WINDOW_MS + 1, now - 10_000, true],
    ["ctime inside the window (mtime set back)", now - 10_000, now - 1, true],
    ["a time in the future", now + 5_000, now + 5_000, true],
  ])("%s → %s", (_, mtimeMs, ctimeMs, racy) => {
    expect(isRacy({ mtimeMs, ctimeMs }, now)).toBe(racy);
  });
});

describe("isPlainData", () => {
  class Point {
    x = 1;
  }
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  const shared = { s: "x" };
  it.each<[string, unknown, boolean]>([
    ["a string", "s", true],
    ["null", null, true],
    ["nested plain data", { a: [1, "b", true, null, { c: [[]] }], d: { e: -1.5 } }, true],
    ["a null-prototype object", Object.assign(Object.create(null), { a: 1 }), true],
    ["an undefined object property", { a: undefined, b: 1 }, true],
    ["the same object twice (not a cycle)", { a: shared, b: [shared] }, true],
    ["Infinity", { a: Number.POSITIVE_INFINITY }, false],
    ["NaN", [Number.NaN], false],
    ["-0 (JSON writes 0)", { a: -0 }, false],
    ["a Date", { a: new Date(0) }, false],
    ["a Map", new Map([["a", 1]]), false],
    ["a Set", { a: new Set([1]) }, false],
    ["a Uint8Array (YAML !!binary)", { a: new Uint8Array(2) }, false],
    ["a class instance", { a: new Point() }, false],
    ["undefined in an array", [1, undefined], false],
    ["a hole in an array", Object.assign(new Array<unknown>(3), { 0: 1, 2: 2 }), false],
    ["undefined itself", undefined, false],
    ["a function", { f: () => 1 }, false],
    ["a bigint", { n: 1n }, false],
    ["a cycle (YAML `a: &x { b: *x }`)", cyclic, false],
  ])("%s → %s", (_, value, plain) => {
    expect(isPlainData(value)).toBe(plain);
  });
});

describe("openHeadCache", () => {
  it("keeps a head across runs under the same key, and only under it", async () => {
    const { t, file } = await setup();
    const a = await readSkill(t, "a");
    expect(a.head.meta?.paths).toEqual(["src/**/*.ts", "docs/*.md"]);
    await seed(file, [a]);
    const same = await open(file, LATER);
    expect(get(same, a.ref, a.stat)).toEqual(a.head);
    expect(get(await open(file, LATER, "1.0.1+build-b"), a.ref, a.stat)).toBeUndefined();
  });

  /** The header line and the entry lines of a cache file. */
  const splitLines = (text: string) => {
    const [header = "", ...entries] = text.split("\n").filter((line) => line !== "");
    return { header: JSON.parse(header) as Record<string, unknown>, entries };
  };
  const v2 = (text: string) => {
    const { entries } = splitLines(text);
    const tuples = entries.map((line) => JSON.parse(line) as unknown[]);
    return JSON.stringify({
      format: 2,
      key: KEY,
      entries: Object.fromEntries(tuples.map((e) => [e[0], e.slice(1)])),
    });
  };

  it.each<[string, (text: string) => string]>([
    [
      "another format",
      (text) => text.replace(`"format":${HEAD_CACHE_FORMAT}`, `"format":${HEAD_CACHE_FORMAT + 1}`),
    ],
    ["the old format (one JSON object)", v2],
    [
      "the old format with the new header's format number",
      (text) => v2(text).replace('"format":2', `"format":${HEAD_CACHE_FORMAT}`),
    ],
    ["a corrupt header", (text) => text.slice(1)],
    ["a truncated entry", (text) => text.slice(0, -3)],
    ["an entry cut off at the header", (text) => text.slice(0, text.indexOf("\n") + 1)],
    [
      "a JSON array header",
      (text) => `[${text.slice(0, text.indexOf("\n"))}]${text.slice(text.indexOf("\n"))}`,
    ],
    ["no line ends", (text) => text.replaceAll("\n", " ")],
    ["binary noise", () => "\0\xff\n\0\n"],
  ])("a file with %s reads as empty, and is rewritten", async (_, spoil) => {
    const { t, file } = await setup();
    const a = await readSkill(t, "a");
    await seed(file, [a]);
    const good = await readFile(file, "utf8");
    expect(splitLines(good).header).toEqual({ format: HEAD_CACHE_FORMAT, key: KEY });
    for (const [, reader] of READERS) {
      await writeFile(file, spoil(good));
      const cache = await open(file, LATER, KEY, reader);
      expect(get(cache, a.ref, a.stat)).toBeUndefined();
      cache.put(a.ref, a.stat, a.head);
      expect(await cache.save()).toBeUndefined();
      expect(await readFile(file, "utf8")).toBe(good);
    }
  });

  it.each(READERS)(
    "serves every entry when the file is read %s, multi-byte text included",
    async (_, reader) => {
      const { t, file } = await setup({
        "skills/uni/SKILL.md":
          '---\ndescription: héllo 日本語 🎉 — ünïcødé\nmetadata: { k: "𝄞" }\n---\nbody\n',
      });
      const reads = [await readSkill(t, "a"), await readSkill(t, "uni"), await readSkill(t, "b")];
      await seed(file, reads);
      const cache = await open(file, LATER, KEY, reader);
      expect(
        lookupAll(
          cache,
          reads.map((r) => [r.ref, r.stat]),
        ),
      ).toEqual(reads.map((r) => r.head));
      expect(reads[1]?.head.meta?.description).toBe("héllo 日本語 🎉 — ünïcødé");
    },
  );

  it("one bad line costs only its own entry: the others are served, and the file is rewritten without it", async () => {
    const { t, file } = await setup();
    const [a, b] = [await readSkill(t, "a"), await readSkill(t, "b")];
    await seed(file, [a, b]);
    const good = await readFile(file, "utf8");
    const { entries } = splitLines(good);
    const lines = good.split("\n");
    await writeFile(file, [lines[0], `${entries[0]?.slice(0, 20)}`, "", "{}", entries[1], ""].join("\n"));
    const cache = await open(file, LATER);
    expect(
      lookupAll(cache, [
        [a.ref, a.stat],
        [b.ref, b.stat],
      ]),
    ).toEqual([undefined, b.head]);
    cache.put(a.ref, a.stat, a.head);
    expect(await cache.save()).toBeUndefined();
    expect(splitLines(await readFile(file, "utf8")).entries).toEqual([entries[1], entries[0]]);
  });

  // Mutations that do not depend on the tuple's layout: whatever the format, none of these is a usable entry.
  it.each<[string, (entry: unknown[]) => unknown]>([
    ["the untouched entry (control)", (e) => e],
    ["an object instead of a tuple", (e) => ({ ...e })],
    ["a short tuple", (e) => e.slice(0, 3)],
    ["numbers written as strings", (e) => e.map((v) => (typeof v === "number" ? String(v) : v))],
    ["an unknown kind", (e) => e.map((v) => (v === "skill" ? "agent" : v))],
    ["a meta that is a string", (e) => e.map((v) => (isRecord(v) ? "meta" : v))],
    ["diagnostics that are not a list", (e) => e.map((v) => (Array.isArray(v) ? {} : v))],
    ["a meta with a numeric description", (e) => e.map((v) => (isRecord(v) ? { ...v, description: 7 } : v))],
    [
      "a meta with allowedTools as a string",
      (e) => e.map((v) => (isRecord(v) ? { ...v, allowedTools: "R" } : v)),
    ],
    ["a meta with extra as a list", (e) => e.map((v) => (isRecord(v) ? { ...v, extra: [] } : v))],
  ])("an entry with %s", async (label, change) => {
    const { t, file } = await setup();
    const a = await readSkill(t, "a");
    await seed(file, [a]);
    const [header, entry] = (await readFile(file, "utf8")).split("\n");
    await writeFile(file, `${header}\n${JSON.stringify(change(JSON.parse(entry ?? "") as unknown[]))}\n`);
    const cache = await open(file, LATER);
    const hit = get(cache, a.ref, a.stat);
    if (label.includes("control")) expect(hit).toEqual(a.head);
    else expect(hit).toBeUndefined();
    expect(await cache.save()).toBeUndefined();
  });

  it("serves a path listed twice (and three times) from its one line, and then has nothing to rewrite", async () => {
    const { t, file } = await setup();
    const [a, b] = [await readSkill(t, "a"), await readSkill(t, "b")];
    await seed(file, [a, b]);
    const spy = spyFs();
    const cache = await open(file, LATER, KEY, spy.fs);
    const twice: [SkillFileRef, FileStat][] = [
      [a.ref, a.stat],
      [b.ref, b.stat],
      [a.ref, a.stat],
      [a.ref, a.stat],
    ];
    expect(lookupAll(cache, twice)).toEqual([a.head, b.head, a.head, a.head]);
    expect(await cache.save()).toBeUndefined();
    expect(spy.calls.writeFile).toEqual([]);
  });

  it("reads lines split across chunks at every byte offset, multi-byte characters included", async () => {
    const { t } = await setup({ "cache/.keep": "" });
    const file = t.path("cache/lines.json");
    const description = (i: number) => `héllo 日本語 🎉 ${i}`;
    const stat: FileStat = { kind: "file", size: 5, mtimeMs: 1, ctimeMs: 1, fileId: "1:2" };
    const failures: string[] = [];
    // Paths of every length from 1 to 12 chars more move each line's bytes across the chunk boundaries.
    for (let pad = 0; pad < 12; pad += 1) {
      const refs: SkillFileRef[] = [0, 1, 2, 3].map((i) => ({
        path: `/p${"x".repeat(pad)}/${i}`,
        name: `n${i}`,
        kind: "skill",
        source: "user",
        root: "/",
        baseDir: "/",
      }));
      const lines = refs.map((ref, i) =>
        JSON.stringify([
          ref.path,
          stat.fileId,
          5,
          1,
          1,
          ref.name,
          "skill",
          { description: description(i) },
          0,
        ]),
      );
      await writeFile(
        file,
        `${JSON.stringify({ format: HEAD_CACHE_FORMAT, key: KEY })}\n${lines.join("\n")}\n`,
      );
      for (let size = 1; size < 30; size += 1) {
        const reader: FsOps = { ...fs, readChunksSync: (path) => fs.readChunksSync?.(path, size) ?? [] };
        const heads = lookupAll(
          await open(file, LATER, KEY, reader),
          refs.map((ref) => [ref, stat]),
        );
        const got = heads.map((h) => h?.meta?.description);
        if (got.some((d, i) => d !== description(i)))
          failures.push(`pad ${pad}, chunk ${size}: ${got.join(" | ")}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("a directory at the cache path reads as empty and cannot be saved over, without throwing", async () => {
    const { t, file } = await setup({ "cache/heads.json/inside": "x" });
    const a = await readSkill(t, "a");
    const cache = await open(file, LATER);
    expect(get(cache, a.ref, a.stat)).toBeUndefined();
    cache.put(a.ref, a.stat, a.head);
    expect(await cache.save()).toMatchObject({ severity: "info", code: "cache-unwritable", path: file });
    expect(await readdir(t.path("cache"))).toEqual(["heads.json"]);
  });

  it.each<[string, (r: Read) => [SkillFileRef, FileStat]]>([
    ["fileId", (r) => [r.ref, { ...r.stat, fileId: `${r.stat.fileId}0` }]],
    ["size", (r) => [r.ref, { ...r.stat, size: r.stat.size + 1 }]],
    ["mtimeMs", (r) => [r.ref, { ...r.stat, mtimeMs: r.stat.mtimeMs + 0.5 }]],
    ["ctimeMs", (r) => [r.ref, { ...r.stat, ctimeMs: r.stat.ctimeMs - 1 }]],
    ["ref.name", (r) => [{ ...r.ref, name: "b" }, r.stat]],
    ["ref.kind", (r) => [{ ...r.ref, kind: "command" }, r.stat]],
  ])("a change of %s alone is a miss", async (_, vary) => {
    const { t, file } = await setup();
    const a = await readSkill(t, "a");
    await seed(file, [a]);
    const cache = await open(file, LATER);
    expect(get(cache, ...vary(a))).toBeUndefined();
    expect(get(await open(file, LATER), a.ref, a.stat)).toEqual(a.head);
  });

  it.each<[string, (stat: FileStat) => number, boolean]>([
    ["inside the racy window is not kept", (s) => Math.max(s.mtimeMs, s.ctimeMs) + RACY_WINDOW_MS - 1, false],
    [
      "just outside the racy window is kept",
      (s) => Math.max(s.mtimeMs, s.ctimeMs) + RACY_WINDOW_MS + 1,
      true,
    ],
  ])("a head whose stamp is %s", async (_, now, kept) => {
    const { t, file } = await setup();
    const a = await readSkill(t, "a");
    await seed(file, [a], now(a.stat));
    const hit = get(await open(file, LATER), a.ref, a.stat);
    expect(hit === undefined ? "miss" : "hit").toBe(kept ? "hit" : "miss");
  });

  it.each<[string, string]>([
    ["YAML .inf in an unknown key", "---\ndescription: d\nodd: .inf\n---\nbody\n"],
    ["a YAML alias cycle", "---\ndescription: d\nloop: &x\n  again: *x\n---\nbody\n"],
    ["a YAML timestamp", "---\ndescription: d\nwhen: !!timestamp 2001-12-14\n---\nbody\n"],
  ])("a head that JSON would change (%s) is not kept", async (_, text) => {
    const { t, file } = await setup({ "skills/odd/SKILL.md": text });
    const [a, odd] = [await readSkill(t, "a"), await readSkill(t, "odd")];
    expect(odd.head.meta?.description).toBe("d");
    await seed(file, [a, odd]);
    const cache = await open(file, LATER);
    expect(
      lookupAll(cache, [
        [odd.ref, odd.stat],
        [a.ref, a.stat],
      ]),
    ).toEqual([undefined, a.head]);
  });

  it("writes only when something changed, drops entries not looked up, and leaves no temp files", async () => {
    const { t, file } = await setup();
    const [a, b] = [await readSkill(t, "a"), await readSkill(t, "b")];
    await seed(file, [a, b]);

    const spy = spyFs();
    const allHits = await open(file, LATER, KEY, spy.fs);
    expect(
      lookupAll(allHits, [
        [a.ref, a.stat],
        [b.ref, b.stat],
      ]),
    ).toEqual([a.head, b.head]);
    expect(await allHits.save()).toBeUndefined();
    expect([spy.calls.writeFile, spy.calls.rename, spy.calls.mkdir]).toEqual([[], [], []]);

    const onlyA = await open(file, LATER, KEY, spy.fs);
    expect(get(onlyA, a.ref, a.stat)).toEqual(a.head);
    expect(await onlyA.save()).toBeUndefined();
    expect(spy.calls.rename).toHaveLength(1);

    const next = await open(file, LATER);
    expect(
      lookupAll(next, [
        [b.ref, b.stat],
        [a.ref, a.stat],
      ]),
    ).toEqual([undefined, a.head]);
    expect(await readdir(t.path("cache"))).toEqual(["heads.json"]);
  });

  it("an unwritable location gives an info diagnostic naming the file, never an error", async () => {
    const { t } = await setup({ blocker: "a regular file, not a dir" });
    const file = t.path("blocker/cache/heads.json");
    const a = await readSkill(t, "a");
    const cache = await open(file, LATER);
    cache.put(a.ref, a.stat, a.head);
    const problem = await cache.save();
    expect(problem).toMatchObject({ severity: "info", code: "cache-unwritable", path: file });
    expect(problem?.message).toContain("ENOTDIR");
  });

  it("a failed rename removes its temp file", async () => {
    const { t, file } = await setup();
    const a = await readSkill(t, "a");
    const spy = spyFs((method) => (method === "rename" ? "EXDEV" : undefined));
    const cache = await open(file, LATER, KEY, spy.fs);
    cache.put(a.ref, a.stat, a.head);
    expect(await cache.save()).toMatchObject({ code: "cache-unwritable", path: file });
    expect(spy.calls.writeFile).toHaveLength(1);
    expect(await readdir(t.path("cache"))).toEqual([]);
  });
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
