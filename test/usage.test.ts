import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeFs } from "../src/io/fs.js";
import {
  createFileUsageStore,
  defaultUsagePath,
  parseUsage,
  serializeUsage,
  USAGE_DECAY_FLOOR,
  usageScore,
} from "../src/usage.js";

const NOW = Date.UTC(2025, 5, 1);
const DAY = 86_400_000;

describe("usageScore", () => {
  it.each([
    { case: "never used", entry: undefined, want: 0 },
    { case: "zero count", entry: { count: 0, lastUsedAt: NOW }, want: 0 },
    { case: "used now", entry: { count: 3, lastUsedAt: NOW }, want: 3 },
    { case: "one half-life", entry: { count: 4, lastUsedAt: NOW - 7 * DAY }, want: 2 },
    { case: "two half-lives", entry: { count: 4, lastUsedAt: NOW - 14 * DAY }, want: 1 },
    { case: "floor", entry: { count: 10, lastUsedAt: NOW - 365 * DAY }, want: 10 * USAGE_DECAY_FLOOR },
    { case: "future counts as now", entry: { count: 2, lastUsedAt: NOW + DAY }, want: 2 },
  ])("$case", ({ entry, want }) => {
    expect(usageScore(entry, NOW)).toBeCloseTo(want, 10);
  });
});

describe("parseUsage / serializeUsage", () => {
  it.each([
    { case: "not JSON", text: "{oops", want: [] },
    { case: "an array", text: "[1,2]", want: [] },
    {
      case: "bad entries dropped",
      text: '{"a":{"count":1,"lastUsedAt":5},"b":{"count":"x"},"c":3}',
      want: ["a"],
    },
    {
      case: "__proto__ is just a name",
      text: '{"__proto__":{"count":2,"lastUsedAt":1}}',
      want: ["__proto__"],
    },
  ])("$case", ({ text, want }) => {
    expect([...parseUsage(text).keys()]).toEqual(want);
  });

  it("round-trips with names sorted", () => {
    const scores = new Map([
      ["b", { count: 1, lastUsedAt: 2 }],
      ["a", { count: 3, lastUsedAt: 4 }],
    ]);
    const text = serializeUsage(scores);
    expect(text.indexOf('"a"')).toBeLessThan(text.indexOf('"b"'));
    expect(parseUsage(text)).toEqual(scores);
    expect(serializeUsage(new Map())).toBe("{}\n");
  });
});

describe("createFileUsageStore", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "skillwright-usage-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("puts the file at ~/.skillwright/usage.json", () => {
    expect(defaultUsagePath("/home/u")).toBe("/home/u/.skillwright/usage.json");
  });

  it("reads a missing file as empty", async () => {
    const store = createFileUsageStore({ fs: createNodeFs(), path: defaultUsagePath(dir) });
    expect((await store.load()).size).toBe(0);
  });

  it("records counts and last use, creating the dir", async () => {
    const path = defaultUsagePath(dir);
    const store = createFileUsageStore({ fs: createNodeFs(), path });
    await store.record("deploy", 1_000);
    await store.record("deploy", 2_000);
    await store.record("review", 1_500);
    expect(Object.fromEntries(await store.load())).toEqual({
      deploy: { count: 2, lastUsedAt: 2_000 },
      review: { count: 1, lastUsedAt: 1_500 },
    });
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({
      deploy: { count: 2, lastUsedAt: 2_000 },
      review: { count: 1, lastUsedAt: 1_500 },
    });
  });

  it("keeps every increment of concurrent records", async () => {
    const store = createFileUsageStore({ fs: createNodeFs(), path: join(dir, "usage.json") });
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.record("x", i)));
    expect((await store.load()).get("x")?.count).toBe(20);
  });

  it("treats a corrupt file as empty and replaces it atomically, leaving no temp file", async () => {
    const path = join(dir, "usage.json");
    await writeFile(path, "{ this is not json");
    const store = createFileUsageStore({ fs: createNodeFs(), path });
    expect((await store.load()).size).toBe(0);
    await store.record("fresh", 7);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ fresh: { count: 1, lastUsedAt: 7 } });
    expect(await readdir(dir)).toEqual(["usage.json"]);
  });

  it("rejects a record that cannot be written, and later records still work", async () => {
    const blocker = join(dir, "file");
    await writeFile(blocker, "");
    const bad = createFileUsageStore({ fs: createNodeFs(), path: join(blocker, "usage.json") });
    await expect(bad.record("x", 1)).rejects.toThrow();
    await expect(bad.record("x", 2)).rejects.toThrow();
    const good = createFileUsageStore({ fs: createNodeFs(), path: join(dir, "ok", "usage.json") });
    await good.record("x", 1);
    expect((await good.load()).get("x")).toEqual({ count: 1, lastUsedAt: 1 });
  });
});
