import { describe, expect, it } from "vitest";
import { findMatches, normalizeForMatch, replaceRanges } from "../../src/tools/edit-match.js";

describe("normalizeForMatch", () => {
  it.each([
    ["a  \nb\t\n", "a\nb\n"],
    ["\u201Chi\u201D \u2018x\u2019", "\"hi\" 'x'"],
    ["a\u2014b\u2013c\u2212d", "a-b-c-d"],
    ["a\u00A0b\u3000c", "a b c"],
    ["\uFB01le", "file"],
    ["e\u0301", "\u00E9"],
    ["x \u00A0", "x"],
  ])("%j → %j", (text, normalized) => {
    expect(normalizeForMatch(text).text).toBe(normalized);
  });

  it("maps each normalised char back to its original span", () => {
    const n = normalizeForMatch("\u201Cab\u201D");
    expect(n.starts).toEqual([0, 1, 2, 3]);
    expect(n.ends).toEqual([1, 2, 3, 4]);
  });
});

describe("findMatches", () => {
  it.each([
    {
      name: "exact unique",
      content: "a b c",
      needle: "b",
      all: false,
      expected: { kind: "found", ranges: [{ start: 2, end: 3 }], fuzzy: false },
    },
    {
      name: "exact ambiguous",
      content: "x x x",
      needle: "x",
      all: false,
      expected: { kind: "ambiguous", count: 3, fuzzy: false },
    },
    {
      name: "replace all",
      content: "x-x",
      needle: "x",
      all: true,
      expected: {
        kind: "found",
        ranges: [
          { start: 0, end: 1 },
          { start: 2, end: 3 },
        ],
        fuzzy: false,
      },
    },
    { name: "not found", content: "abc", needle: "zzz", all: false, expected: { kind: "not-found" } },
    {
      name: "fuzzy smart quotes",
      content: "say \u201Chi\u201D!",
      needle: 'say "hi"',
      all: false,
      expected: { kind: "found", ranges: [{ start: 0, end: 8 }], fuzzy: true },
    },
    {
      name: "fuzzy trailing whitespace",
      content: "a  \nb",
      needle: "a\nb",
      all: false,
      expected: { kind: "found", ranges: [{ start: 0, end: 5 }], fuzzy: true },
    },
    {
      name: "fuzzy ambiguous",
      content: "\u2018a\u2019 \u2018a\u2019",
      needle: "'a'",
      all: false,
      expected: { kind: "ambiguous", count: 2, fuzzy: true },
    },
  ])("$name", ({ content, needle, all, expected }) => {
    expect(findMatches(content, needle, all)).toEqual(expected);
  });

  it("prefers an exact match over fuzzy ones", () => {
    expect(findMatches("'a' \u2018a\u2019", "'a'", false)).toEqual({
      kind: "found",
      ranges: [{ start: 0, end: 3 }],
      fuzzy: false,
    });
  });
});

describe("replaceRanges", () => {
  it("replaces each range", () => {
    expect(
      replaceRanges(
        "a-b-c",
        [
          { start: 0, end: 1 },
          { start: 4, end: 5 },
        ],
        "X",
      ),
    ).toBe("X-b-X");
  });
});
