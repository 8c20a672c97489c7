import { describe, expect, it } from "vitest";
import {
  REPLACEMENT_CHARACTER as R,
  storableJson,
  storableText,
  unstorableIn,
  unstorableText,
} from "../../src/serve/store/storable-text.js";

// Issue #39 item 3: what PostgreSQL cannot hold (NUL, lone surrogates) is replaced before the model's text is
// stored, and named when a client sends it.

describe("storableText", () => {
  it.each([
    ["plain text", "hello", "hello", undefined],
    ["empty", "", "", undefined],
    ["a NUL", "a\u0000b", `a${R}b`, "NUL"],
    ["only NULs", "\u0000\u0000", `${R}${R}`, "NUL"],
    ["a surrogate pair (an emoji) is kept", "x\uD83D\uDE00y", "x\uD83D\uDE00y", undefined],
    ["a lone high surrogate", "a\uD800b", `a${R}b`, "lone surrogate"],
    ["a lone high surrogate at the end", "ab\uD83D", `ab${R}`, "lone surrogate"],
    ["a lone low surrogate", "\uDC00a", `${R}a`, "lone surrogate"],
    ["two high surrogates then a low one", "\uD800\uD83D\uDE00", `${R}\uD83D\uDE00`, "lone surrogate"],
    ["a low then a high surrogate (reversed pair)", "\uDE00\uD83D", `${R}${R}`, "lone surrogate"],
    ["a NUL before a lone surrogate", "\u0000\uD800", `${R}${R}`, "NUL"],
    ["other control characters are kept", "a\u0001\u001f\u007fb\n", "a\u0001\u001f\u007fb\n", undefined],
    ["U+FFFD itself is kept", R, R, undefined],
  ])("%s", (_label, input, output, reason) => {
    expect(storableText(input)).toBe(output);
    expect(unstorableText(input)).toBe(reason);
    expect(unstorableText(storableText(input))).toBeUndefined();
  });
});

describe("storableJson", () => {
  it("replaces in strings and keys at any depth, leaving the input as it was", () => {
    const input = {
      file_path: "/workspace/a\u0000.txt",
      content: "x\uD800",
      deep: [{ "k\u0000": ["ok", "\uDFFF", 3, true, null] }],
    };
    const before = JSON.stringify(input);
    expect(storableJson(input)).toEqual({
      file_path: `/workspace/a${R}.txt`,
      content: `x${R}`,
      deep: [{ [`k${R}`]: ["ok", R, 3, true, null] }],
    });
    expect(JSON.stringify(input)).toBe(before);
  });

  it("returns the value itself when nothing needs replacing", () => {
    const input = { a: ["b", { c: 1 }] };
    expect(storableJson(input)).toBe(input);
    expect(storableJson("plain")).toBe("plain");
    expect(storableJson(7)).toBe(7);
  });

  it("what it returns stringifies to JSON PostgreSQL takes (no \\u0000, no lone \\ud8xx escapes)", () => {
    const out = JSON.stringify(storableJson({ t: "\u0000\uD800\uDC00\uDBFF" }));
    expect(out).not.toMatch(/\\u0000|\\ud[89ab]/i);
  });
});

describe("unstorableIn names the first field a client cannot store", () => {
  it.each([
    ["a clean value", { title: "t", n: [1, "x"] }, undefined],
    ["a NUL in a top field", { title: "a\u0000" }, { path: "title", reason: "NUL" }],
    [
      "a NUL deep in an array",
      { events: [{ type: "user.message", content: [{ type: "text", text: "hi\u0000" }] }] },
      { path: "events.0.content.0.text", reason: "NUL" },
    ],
    ["a lone surrogate", { name: "e\uD800" }, { path: "name", reason: "lone surrogate" }],
    [
      "a NUL in a key is named by its parent",
      { metadata: { "k\u0000": "v" } },
      { path: "metadata", reason: "NUL" },
    ],
    ["a string root", "x\u0000", { path: "", reason: "NUL" }],
  ])("%s", (_label, value, found) => {
    expect(unstorableIn(value)).toEqual(found);
  });
});
