import { realpath } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeFs } from "../../src/io/fs.js";
import {
  createGrepTool,
  GREP_DEFAULT_HEAD_LIMIT,
  GREP_DESCRIPTION,
  GREP_MAX_CONTEXT,
  GREP_MAX_LINE_CHARS,
} from "../../src/tools/grep.js";
import { ctxFor, makeTmp, removeTmp, textOf, writeTree } from "./helpers.js";

let dir: string;
beforeEach(async () => {
  dir = await realpath(await makeTmp());
});
afterEach(() => removeTmp(dir));

const grep = (input: unknown, cwd = dir) => createGrepTool({ fs: createNodeFs() }).run(input, ctxFor(cwd));

const content = (input: Record<string, unknown>) => ({ ...input, output_mode: "content" });

describe("Grep", () => {
  it("lists the files with matches by default, as Claude Code does", async () => {
    await writeTree(dir, { "a.ts": "foo\nbar\nfoo bar\n", "src/b.ts": "nothing\nfood\n", "c.md": "no\n" });
    const result = await grep({ pattern: "fo+" });
    expect(textOf(result)).toBe("Found 2 files\na.ts\nsrc/b.ts");
    expect(result.touchedPaths).toEqual([path.join(dir, "a.ts"), path.join(dir, "src/b.ts")]);
    expect(textOf(await grep({ pattern: "zzz" }))).toBe("No files found");
  });

  it("prints path:line:text in content mode, like ripgrep", async () => {
    await writeTree(dir, { "a.ts": "foo\nbar\nfoo bar\n", "src/b.ts": "nothing\nfood\n" });
    expect(textOf(await grep(content({ pattern: "fo+" })))).toBe(
      "a.ts:1:foo\na.ts:3:foo bar\nsrc/b.ts:2:food",
    );
    expect(textOf(await grep(content({ pattern: "fo+", "-n": false })))).toBe(
      "a.ts:foo\na.ts:foo bar\nsrc/b.ts:food",
    );
  });

  it("counts matches per file in count mode", async () => {
    await writeTree(dir, { "a.ts": "foo\nfoo\n", "b.ts": "foo\n" });
    expect(textOf(await grep({ pattern: "foo", output_mode: "count" }))).toBe(
      "a.ts:2\nb.ts:1\n\nFound 3 total occurrences across 2 files.",
    );
    expect(textOf(await grep({ pattern: "zzz", output_mode: "count" }))).toBe("No matches found");
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
    expect(textOf(await grep(content({ pattern: "needle" })))).toBe("pkg/src.ts:1:needle");
  });

  it.each([
    [{ pattern: "HELLO", "-i": true }, "a.txt:1:Hello (world)"],
    [{ pattern: "\\(world\\)" }, "a.txt:1:Hello (world)"],
    [{ pattern: "x", glob: "*.md" }, "sub/b.md:1:x"],
    [{ pattern: "x", glob: "sub/*.txt" }, "sub/c.txt:1:x"],
    [{ pattern: "x", path: "sub/c.txt" }, "sub/c.txt:1:x"],
    [{ pattern: "zzz" }, "No matches found"],
  ])("%j", async (input, expected) => {
    await writeTree(dir, { "a.txt": "Hello (world)\n", "sub/b.md": "x\n", "sub/c.txt": "x\n" });
    expect(textOf(await grep(content(input)))).toBe(expected);
  });

  it("shows context lines (-C) and separates groups", async () => {
    await writeTree(dir, { "f.txt": "1\n2\nhit\n4\n5\n6\n7\nhit\n9\n" });
    expect(textOf(await grep(content({ pattern: "hit", "-C": 1 })))).toBe(
      ["f.txt-2-2", "f.txt:3:hit", "f.txt-4-4", "--", "f.txt-7-7", "f.txt:8:hit", "f.txt-9-9"].join("\n"),
    );
  });

  it("takes -A and -B over -C for their side", async () => {
    await writeTree(dir, { "f.txt": "1\n2\nhit\n4\n5\n" });
    expect(textOf(await grep(content({ pattern: "hit", "-B": 2 })))).toBe(
      "f.txt-1-1\nf.txt-2-2\nf.txt:3:hit",
    );
    expect(textOf(await grep(content({ pattern: "hit", "-A": 1 })))).toBe("f.txt:3:hit\nf.txt-4-4");
    expect(textOf(await grep(content({ pattern: "hit", "-C": 2, "-A": 0 })))).toBe(
      "f.txt-1-1\nf.txt-2-2\nf.txt:3:hit",
    );
  });

  it("lowers context over the maximum instead of failing", async () => {
    await writeTree(dir, { "f.txt": `hit\n${"x\n".repeat(GREP_MAX_CONTEXT + 5)}` });
    const text = textOf(await grep(content({ pattern: "hit", "-A": 99 })));
    expect(text.split("\n")).toHaveLength(GREP_MAX_CONTEXT + 1);
  });

  it("merges overlapping context", async () => {
    await writeTree(dir, { "f.txt": "hit\nhit\n3\n" });
    expect(textOf(await grep(content({ pattern: "hit", "-C": 2 })))).toBe(
      "f.txt:1:hit\nf.txt:2:hit\nf.txt-3-3",
    );
  });

  it("stops at head_limit entries with a note", async () => {
    await writeTree(dir, { "a.txt": "m\nm\nm\n", "b.txt": "m\n" });
    const text = textOf(await grep(content({ pattern: "m", head_limit: 2 })));
    expect(text).toBe(
      "a.txt:1:m\na.txt:2:m\n\n[Showing the first 2 entries (head_limit). Narrow pattern, path or glob, or raise head_limit.]",
    );
    expect(textOf(await grep(content({ pattern: "m", head_limit: 4 })))).not.toContain("head_limit");
    expect(textOf(await grep({ pattern: "m", head_limit: 1 }))).toMatch(
      /^Found 1 file\na\.txt\n\n\[Showing the first 1/,
    );
  });

  it(`defaults to ${GREP_DEFAULT_HEAD_LIMIT} entries`, async () => {
    await writeTree(dir, { "a.txt": "m\n".repeat(GREP_DEFAULT_HEAD_LIMIT + 50) });
    const text = textOf(await grep(content({ pattern: "m" })));
    expect(text.split("\n").filter((l) => l.startsWith("a.txt:"))).toHaveLength(GREP_DEFAULT_HEAD_LIMIT);
    expect(text).toContain(`[Showing the first ${GREP_DEFAULT_HEAD_LIMIT} entries`);
  });

  it("cuts long lines", async () => {
    await writeTree(dir, { "a.txt": `m${"x".repeat(GREP_MAX_LINE_CHARS + 5)}\n` });
    expect(textOf(await grep(content({ pattern: "m" })))).toContain(
      `… [line truncated, ${GREP_MAX_LINE_CHARS + 6} chars]`,
    );
  });

  it("prints paths outside the cwd absolute", async () => {
    await writeTree(dir, { "in/x.txt": "m\n", "out/y.txt": "m\n" });
    expect(textOf(await grep(content({ pattern: "m", path: "../out" }), path.join(dir, "in")))).toBe(
      `${path.join(dir, "out/y.txt")}:1:m`,
    );
  });

  it.each([
    [{ pattern: "(" }, /^Invalid regular expression: .*\. Escape special characters with a backslash/],
    [{ pattern: "x", path: "nope" }, /^Path not found: nope$/],
    [{ pattern: "x", output_mode: "lines" }, /^Invalid input for Grep: output_mode: /],
    [{ pattern: "(?=x)y" }, /^Invalid regular expression: .*`\(\?=`.*RE2's syntax.*no lookaround/],
    [{ pattern: "(a)\\1" }, /^Invalid regular expression: .*no backreferences/],
  ])("fails clearly for %j", async (input, message) => {
    const result = await grep(input);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
  });

  it("answers a catastrophic-backtracking pattern at once (RE2, linear time)", async () => {
    // Each extra `a` doubled JavaScript RegExp's time: 48 of them took hours.
    await writeTree(dir, { "a.txt": `${"a".repeat(48)}!\n`, "b.txt": "aaaa\n" });
    expect(textOf(await grep(content({ pattern: "^(a+)+$" })))).toBe("b.txt:1:aaaa");
  });

  it("stops a search at its deadline and says what to narrow", async () => {
    // RE2 is linear, but with hundreds of states live per character this is minutes of work per file.
    let line = "";
    for (let i = 0, x = 1; i < 60_000; i++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      line += "abc"[(x >> 16) % 3];
    }
    await writeTree(dir, { "a.txt": line, "b.txt": line });
    const tool = createGrepTool({ fs: createNodeFs(), deadlineMs: 200 });
    const result = await tool.run({ pattern: "(.*a.*b.*c){300}$" }, ctxFor(dir));
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "Grep stopped at its deadline of 0.2 seconds, before it finished; nothing it found is shown. Narrow the " +
        "search: a more specific path or glob, or a simpler pattern.",
    );
  });

  it("is read-only and quotes its limits", () => {
    const tool = createGrepTool({ fs: createNodeFs() });
    expect(tool.readOnly).toBe(true);
    expect(tool.name).toBe("Grep");
    expect(tool.subject({ pattern: "x" })).toBe(".");
    expect(GREP_DESCRIPTION).toContain(`(default ${GREP_DEFAULT_HEAD_LIMIT})`);
  });
});
