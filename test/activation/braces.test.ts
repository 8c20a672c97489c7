import { describe, expect, it } from "vitest";
import { expandBraces } from "../../src/activation/braces.js";

describe("expandBraces", () => {
  const table: [glob: string, expected: string[]][] = [
    ["src/*.ts", ["src/*.ts"]],
    ["src/{a,b}/*.{ts,tsx}", ["src/a/*.ts", "src/a/*.tsx", "src/b/*.ts", "src/b/*.tsx"]],
    ["{a,b/{c,d}}/x", ["a/x", "b/c/x", "b/d/x"]],
    ["a{,.min}.js", ["a.js", "a.min.js"]],
    ["{a}", ["{a}"]],
    ["{}", ["{}"]],
    ["{a,b", ["{a,b"]],
    ["{x{a,b}", ["{xa", "{xb"]],
    ["{a{b,c}}", ["{ab}", "{ac}"]],
    ["{a,{b}}", ["a", "{b}"]],
    ["\\{a,b\\}", ["\\{a,b\\}"]],
    ["{a\\,b,c}", ["a\\,b", "c"]],
    ["f{1..3}.ts", ["f1.ts", "f2.ts", "f3.ts"]],
    ["f{3..1}", ["f3", "f2", "f1"]],
    ["f{01..10..3}", ["f01", "f04", "f07", "f10"]],
    ["f{-1..1}", ["f-1", "f0", "f1"]],
    ["{a..c}", ["a", "b", "c"]],
    ["{a..e..2}", ["a", "c", "e"]],
    ["{1..x}", ["{1..x}"]],
  ];
  it.each(table)("%j", (glob, expected) => {
    expect(expandBraces(glob, 1_000)).toEqual({ patterns: expected, truncated: false });
  });

  it("stops at the limit and says so", () => {
    expect(expandBraces("{a,b,c}{1,2}", 4)).toEqual({ patterns: ["a1", "a2", "b1", "b2"], truncated: true });
    expect(expandBraces("{a,b}{1,2}", 4)).toEqual({ patterns: ["a1", "a2", "b1", "b2"], truncated: false });
    expect(expandBraces("x", 0)).toEqual({ patterns: [], truncated: true });
  });

  it("a product of many groups stays bounded in time", () => {
    const glob = Array.from({ length: 30 }, () => "{a,b,c,d}").join("/");
    const started = Date.now();
    const { patterns, truncated } = expandBraces(glob, 1_000);
    expect(patterns).toHaveLength(1_000);
    expect(truncated).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000); // 4^30 patterns would never end
  });
});
