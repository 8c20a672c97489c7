import { realpath } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeFs } from "../../src/io/fs.js";
import { createGrepTool, GREP_DESCRIPTION, GREP_MAX_LINE_CHARS } from "../../src/tools/grep.js";
import { ctxFor, makeTmp, removeTmp, textOf, writeTree } from "./helpers.js";

let dir: string;
beforeEach(async () => {
  dir = await realpath(await makeTmp());
});
afterEach(() => removeTmp(dir));

const grep = (input: unknown, cwd = dir) => createGrepTool({ fs: createNodeFs() }).run(input, ctxFor(cwd));

describe("Grep", () => {
  it("prints path:line: text relative to the cwd and reports files with matches", async () => {
    await writeTree(dir, { "a.ts": "foo\nbar\nfoo bar\n", "src/b.ts": "nothing\nfood\n", "c.md": "no\n" });
    const result = await grep({ pattern: "fo+" });
    expect(textOf(result)).toBe("a.ts:1: foo\na.ts:3: foo bar\nsrc/b.ts:2: food");
    expect(result.touchedPaths).toEqual([path.join(dir, "a.ts"), path.join(dir, "src/b.ts")]);
  });

  it("honours .gitignore (root and nested) and skips .git, node_modules and binary files", async () => {
    await writeTree(dir, {
      ".gitignore": "dist/\n",
      "dist/x.js": "needle",
      "pkg/.gitignore": "gen.ts\n",
      "pkg/gen.ts": "needle",
      "pkg/src.ts": "needle",
      ".git/HEAD": "needle",
      "node_modules/m/i.js": "needle",
      "bin.dat": Buffer.from("needle\0"),
    });
    expect(textOf(await grep({ pattern: "needle" }))).toBe("pkg/src.ts:1: needle");
  });

  it.each([
    [{ pattern: "HELLO", ignore_case: true }, "a.txt:1: Hello (world)"],
    [{ pattern: "(world)", literal: true }, "a.txt:1: Hello (world)"],
    [{ pattern: "x", glob: "*.md" }, "sub/b.md:1: x"],
    [{ pattern: "x", glob: "sub/*.txt" }, "sub/c.txt:1: x"],
    [{ pattern: "x", path: "sub/c.txt" }, "sub/c.txt:1: x"],
    [{ pattern: "zzz" }, "No matches found."],
  ])("%j", async (input, expected) => {
    await writeTree(dir, { "a.txt": "Hello (world)\n", "sub/b.md": "x\n", "sub/c.txt": "x\n" });
    expect(textOf(await grep(input))).toBe(expected);
  });

  it("shows context lines and separates groups", async () => {
    await writeTree(dir, { "f.txt": "1\n2\nhit\n4\n5\n6\n7\nhit\n9\n" });
    expect(textOf(await grep({ pattern: "hit", context: 1 }))).toBe(
      ["f.txt-2- 2", "f.txt:3: hit", "f.txt-4- 4", "--", "f.txt-7- 7", "f.txt:8: hit", "f.txt-9- 9"].join(
        "\n",
      ),
    );
  });

  it("merges overlapping context", async () => {
    await writeTree(dir, { "f.txt": "hit\nhit\n3\n" });
    expect(textOf(await grep({ pattern: "hit", context: 2 }))).toBe("f.txt:1: hit\nf.txt:2: hit\nf.txt-3- 3");
  });

  it("stops at the match limit with a note", async () => {
    await writeTree(dir, { "a.txt": "m\nm\nm\n", "b.txt": "m\n" });
    const text = textOf(await grep({ pattern: "m", limit: 2 }));
    expect(text).toBe(
      "a.txt:1: m\na.txt:2: m\n\n[Stopped at 2 matches (limit). Narrow pattern, path or glob, or raise limit.]",
    );
    expect(textOf(await grep({ pattern: "m", limit: 4 }))).not.toContain("Stopped");
  });

  it("defaults to 100 matches", async () => {
    await writeTree(dir, { "a.txt": "m\n".repeat(150) });
    const text = textOf(await grep({ pattern: "m" }));
    expect(text.split("\n").filter((l) => l.startsWith("a.txt:"))).toHaveLength(100);
    expect(text).toContain("[Stopped at 100 matches");
  });

  it("cuts long lines", async () => {
    await writeTree(dir, { "a.txt": `m${"x".repeat(GREP_MAX_LINE_CHARS + 5)}\n` });
    expect(textOf(await grep({ pattern: "m" }))).toContain(
      `… [line truncated, ${GREP_MAX_LINE_CHARS + 6} chars]`,
    );
  });

  it("prints paths outside the cwd absolute", async () => {
    await writeTree(dir, { "in/x.txt": "m\n", "out/y.txt": "m\n" });
    expect(textOf(await grep({ pattern: "m", path: "../out" }, path.join(dir, "in")))).toBe(
      `${path.join(dir, "out/y.txt")}:1: m`,
    );
  });

  it.each([
    [{ pattern: "(" }, /^Invalid regular expression: .*\. Set literal to true to search text\.$/],
    [{ pattern: "x", path: "nope" }, /^Path not found: nope$/],
    [{ pattern: "x", context: 99 }, /^Invalid input for Grep: context: Too big/],
  ])("fails clearly for %j", async (input, message) => {
    const result = await grep(input);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
  });

  it("is read-only and quotes its limits", () => {
    const tool = createGrepTool({ fs: createNodeFs() });
    expect(tool.readOnly).toBe(true);
    expect(tool.name).toBe("Grep");
    expect(tool.subject({ pattern: "x" })).toBe(".");
    expect(GREP_DESCRIPTION).toContain("default 100");
  });
});
