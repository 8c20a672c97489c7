import { describe, expect, it } from "vitest";
import {
  listedEntry,
  memoryPathProblem,
  memoryPrefixProblem,
  pathsOverlap,
  storeSlug,
} from "../../src/serve/store/memory-paths.js";

describe("memory path rules", () => {
  it("take a leading /, 1 to 20 segments, NFC, at most 1,024 bytes", () => {
    for (const path of [
      "/a",
      "/projects/foo/notes.md",
      "/é/ü.md",
      `/${"s/".repeat(19)}s`,
      `/${"x".repeat(1023)}`,
    ]) {
      expect([path, memoryPathProblem(path)]).toEqual([path, undefined]);
    }
  });

  it("refuse every other path, saying why", () => {
    const cases: [string, RegExp][] = [
      ["a.md", /starts with "\/"/],
      ["/", /empty segment/],
      ["/a//b", /empty segment/],
      ["/a/", /empty segment/],
      ["/a/./b", /"\." or "\.\."/],
      ["/../b", /"\." or "\.\."/],
      [`/${"s/".repeat(20)}s`, /1 to 20 segments; this one has 21/],
      [`/${"x".repeat(1024)}`, /at most 1024 bytes; this one is 1025/],
      [`/${"é".repeat(512)}`, /at most 1024 bytes; this one is 1025/],
      ["/cafe\u0301", /NFC: send "\/café"/],
      ["/a\nb", /control or format/],
      ["/a\u200bb", /control or format/],
      ["/a\u2029b", /control or format/],
    ];
    for (const [path, why] of cases)
      expect([path, memoryPathProblem(path)]).toEqual([path, expect.stringMatching(why)]);
  });

  it("take a list prefix that ends in / and matches whole segments", () => {
    expect(memoryPrefixProblem("/")).toBeUndefined();
    expect(memoryPrefixProblem("/notes/")).toBeUndefined();
    expect(memoryPrefixProblem("/notes")).toMatch(/ends with "\/"/);
    expect(memoryPrefixProblem("/a/../")).toMatch(/"\." or "\.\."/);
  });

  it("find two paths overlap when equal or one is a directory of the other", () => {
    expect(pathsOverlap("/notes", "/notes")).toBe(true);
    expect(pathsOverlap("/notes", "/notes/todo.md")).toBe(true);
    expect(pathsOverlap("/notes/todo.md", "/notes")).toBe(true);
    expect(pathsOverlap("/notes", "/notes-archive/todo.md")).toBe(false);
    expect(pathsOverlap("/a/b", "/a/c")).toBe(false);
  });

  it("roll paths below the depth up into prefixes", () => {
    expect(listedEntry("/a/b/c.md", "/", 0)).toEqual({ kind: "memory" });
    expect(listedEntry("/a.md", "/", 1)).toEqual({ kind: "memory" });
    expect(listedEntry("/a/b/c.md", "/", 1)).toEqual({ kind: "prefix", path: "/a/" });
    expect(listedEntry("/a/b/c.md", "/", 2)).toEqual({ kind: "prefix", path: "/a/b/" });
    expect(listedEntry("/a/b/c.md", "/a/", 1)).toEqual({ kind: "prefix", path: "/a/b/" });
    expect(listedEntry("/a/b/c.md", "/a/b/", 1)).toEqual({ kind: "memory" });
  });

  it("mount a store under a slug of its name", () => {
    expect(storeSlug("Team Notes (2026)")).toBe("team-notes-2026");
    expect(storeSlug("--ünï--")).toBe("n");
    expect(storeSlug("!!!")).toBe("store");
  });
});
