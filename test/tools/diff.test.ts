import { describe, expect, it } from "vitest";
import { unifiedDiff } from "../../src/tools/diff.js";

const lines = (n: number) => Array.from({ length: n }, (_, i) => `l${i + 1}`);

describe("unifiedDiff", () => {
  it("is empty for equal texts", () => {
    expect(unifiedDiff("a\nb", "a\nb", "f")).toBe("");
  });

  it("shows one change with three lines of context", () => {
    const before = lines(10).join("\n");
    const after = before.replace("l5", "L5");
    expect(unifiedDiff(before, after, "f.txt")).toBe(
      [
        "--- a/f.txt",
        "+++ b/f.txt",
        "@@ -2,7 +2,7 @@",
        " l2",
        " l3",
        " l4",
        "-l5",
        "+L5",
        " l6",
        " l7",
        " l8",
      ].join("\n"),
    );
  });

  it("splits distant changes into separate hunks", () => {
    const before = lines(30);
    const after = [...before];
    after[1] = "X";
    after[25] = "Y";
    const diff = unifiedDiff(before.join("\n"), after.join("\n"), "f");
    expect(diff.split("\n").filter((l) => l.startsWith("@@"))).toEqual([
      "@@ -1,5 +1,5 @@",
      "@@ -23,7 +23,7 @@",
    ]);
  });

  it("handles insertions, deletions and empty texts", () => {
    expect(unifiedDiff("a\nc", "a\nb\nc", "f")).toBe(
      ["--- a/f", "+++ b/f", "@@ -1,2 +1,3 @@", " a", "+b", " c"].join("\n"),
    );
    expect(unifiedDiff("", "x", "f")).toBe(["--- a/f", "+++ b/f", "@@ -0,0 +1,1 @@", "+x"].join("\n"));
    expect(unifiedDiff("x\ny", "y", "f")).toBe(
      ["--- a/f", "+++ b/f", "@@ -1,2 +1,1 @@", "-x", " y"].join("\n"),
    );
  });
});
