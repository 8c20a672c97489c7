import { describe, expect, it } from "vitest";
import {
  closestName,
  editDistance,
  maxSuggestionDistance,
  similarNames,
} from "../../src/skill-tool/did-you-mean.js";

describe("editDistance", () => {
  it.each([
    ["", "", 0],
    ["abc", "abc", 0],
    ["", "abc", 3],
    ["kitten", "sitting", 3],
    ["deploy-prd", "deploy-prod", 1],
    ["reveiw", "review", 1], // adjacent transposition counts once
    ["ca", "abc", 3], // optimal string alignment, not full Damerau
  ])("%s → %s = %i", (a, b, want) => {
    expect(editDistance(a, b)).toBe(want);
    expect(editDistance(b, a)).toBe(want);
  });

  it("stops early above the limit", () => {
    expect(editDistance("abcdef", "uvwxyz", 2)).toBe(3);
    expect(editDistance("a", "abcdefgh", 2)).toBe(3);
    expect(editDistance("kitten", "sitting", 3)).toBe(3);
  });
});

describe("closestName (SPEC §14.5: case-sensitive, at most 2 edits)", () => {
  const names = ["deploy-prod", "deploy-staging", "review", "commit", "pdf", "loop", "Upper-Case", "greet"];

  it.each([
    { query: "deploy-prd", want: "deploy-prod" },
    { query: "reveiw", want: "review" },
    { query: "Commit", want: "commit" },
    { query: "COMMIT", want: undefined }, // 5 case edits
    { query: "GREET", want: undefined },
    { query: "loose", want: "loop" },
    { query: "upper-case", want: "Upper-Case" },
    { query: "pdg", want: "pdf" },
    { query: "xyz", want: undefined }, // 3 edits from pdf
    { query: "deploy", want: undefined }, // 5 edits from the nearest
    { query: "deploy-pr", want: "deploy-prod" }, // 2 edits, however short the name is
    { query: "commit", want: undefined }, // the name itself is never suggested
  ])("$query → $want", ({ query, want }) => {
    expect(closestName(query, names)).toBe(want);
  });

  it("prefers the fewest edits, then the earlier candidate", () => {
    expect(closestName("Abc", ["abd", "abc"])).toBe("abc");
    expect(closestName("abx", ["abc", "abd"])).toBe("abc");
    expect(closestName("abcd", ["abxy", "abcx"])).toBe("abcx");
  });

  it("similarNames allows one edit for short names and a third of the length for long ones", () => {
    expect(maxSuggestionDistance("ab")).toBe(1);
    expect(maxSuggestionDistance("abcdefghi")).toBe(3);
  });
});

describe("similarNames", () => {
  it("returns the close names best first, capped", () => {
    const names = ["reviews", "review", "preview", "zzz"];
    expect(similarNames("reviewz", names)).toEqual(["reviews", "review", "preview"]);
    expect(similarNames("reviewz", names, 2)).toEqual(["reviews", "review"]);
  });
});
