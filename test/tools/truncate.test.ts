import { describe, expect, it } from "vitest";
import {
  byteLength,
  cutUtf8Head,
  cutUtf8Tail,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES,
  formatBytes,
  splitLines,
  truncateHead,
  truncateLine,
  truncateTail,
} from "../../src/tools/truncate.js";

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n");

describe("limits", () => {
  it("are 2,000 lines and 50 KB", () => {
    expect(DEFAULT_MAX_LINES).toBe(2000);
    expect(DEFAULT_MAX_BYTES).toBe(51200);
  });
});

describe("splitLines", () => {
  it.each([
    ["", []],
    ["a", ["a"]],
    ["a\n", ["a"]],
    ["a\nb", ["a", "b"]],
    ["a\n\n", ["a", ""]],
  ])("%j", (text, lines) => {
    expect(splitLines(text)).toEqual(lines);
  });
});

describe("truncateHead", () => {
  it.each([
    { name: "fits", text: "a\nb\nc", limits: { maxLines: 3, maxBytes: 100 }, kept: "a\nb\nc", by: undefined },
    { name: "by lines", text: "a\nb\nc", limits: { maxLines: 2, maxBytes: 100 }, kept: "a\nb", by: "lines" },
    {
      name: "by bytes",
      text: "aaa\nbbb\nccc",
      limits: { maxLines: 10, maxBytes: 8 },
      kept: "aaa\nbbb",
      by: "bytes",
    },
    {
      name: "partial first line",
      text: "abcdef\nx",
      limits: { maxLines: 10, maxBytes: 4 },
      kept: "abcd",
      by: "bytes",
    },
  ])("$name", ({ text, limits, kept, by }) => {
    const t = truncateHead(text, limits);
    expect(t.text).toBe(kept);
    expect(t.truncatedBy).toBe(by);
    expect(t.truncated).toBe(by !== undefined);
    expect(t.totalLines).toBe(splitLines(text).length);
    expect(t.keptBytes).toBe(byteLength(kept));
  });

  it("keeps 2,000 lines of a longer text by default", () => {
    const t = truncateHead(numbered(2500));
    expect(t.keptLines).toBe(2000);
    expect(t.totalLines).toBe(2500);
    expect(t.text.endsWith("line 2000")).toBe(true);
  });

  it("keeps at most 50 KB by default", () => {
    const t = truncateHead(`${"x".repeat(99)}\n`.repeat(1000));
    expect(t.truncatedBy).toBe("bytes");
    expect(t.keptBytes).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
    expect(t.keptLines).toBe(512);
  });

  it("marks a partly kept line", () => {
    expect(truncateHead("x".repeat(10), { maxLines: 5, maxBytes: 3 }).partialLine).toBe(true);
  });
});

describe("truncateTail", () => {
  it.each([
    { text: "a\nb\nc", limits: { maxLines: 2, maxBytes: 100 }, kept: "b\nc" },
    { text: "aaa\nbbb\nccc", limits: { maxLines: 10, maxBytes: 8 }, kept: "bbb\nccc" },
    { text: "x\nabcdef", limits: { maxLines: 10, maxBytes: 4 }, kept: "cdef" },
  ])("$text → $kept", ({ text, limits, kept }) => {
    expect(truncateTail(text, limits).text).toBe(kept);
  });

  it("keeps the last 2,000 lines by default", () => {
    const t = truncateTail(numbered(3000));
    expect(t.keptLines).toBe(2000);
    expect(t.text.startsWith("line 1001\n")).toBe(true);
    expect(t.text.endsWith("line 3000")).toBe(true);
  });
});

describe("UTF-8 cuts", () => {
  it.each([
    ["héllo", 2, "h"],
    ["héllo", 3, "hé"],
    ["日本語", 4, "日"],
    ["abc", 10, "abc"],
  ])("head of %j in %i bytes is %j", (text, bytes, kept) => {
    expect(cutUtf8Head(text, bytes)).toBe(kept);
  });

  it.each([
    ["héllo", 4, "llo"],
    ["日本語", 5, "語"],
  ])("tail of %j in %i bytes is %j", (text, bytes, kept) => {
    expect(cutUtf8Tail(text, bytes)).toBe(kept);
  });
});

describe("truncateLine", () => {
  it("keeps short lines", () => {
    expect(truncateLine("abc", 3)).toEqual({ text: "abc", truncated: false });
  });
  it("cuts long lines and says how long they were", () => {
    expect(truncateLine("abcdef", 3)).toEqual({ text: "abc… [line truncated, 6 chars]", truncated: true });
  });
  it("never splits a surrogate pair", () => {
    expect(truncateLine("a😀b", 2).text.startsWith("a…")).toBe(true);
  });
});

describe("formatBytes", () => {
  it.each([
    [812, "812 B"],
    [51200, "50.0 KB"],
    [3 * 1024 * 1024, "3.0 MB"],
  ])("%i → %s", (n, s) => {
    expect(formatBytes(n)).toBe(s);
  });
});
