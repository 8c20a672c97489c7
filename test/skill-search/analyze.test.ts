import { describe, expect, it } from "vitest";
import { analyze, analyzeName, queryTerms } from "../../src/skill-search/analyze.js";
import { stem } from "../../src/skill-search/stem.js";

describe("stem", () => {
  it.each([
    [["test", "tests", "testing", "tested", "tester"], "test"],
    [["optimize", "optimization", "optimizing", "optimizes"], "optimiz"],
    [["policy", "policies"], "policy"],
    [["run", "running"], "run"],
    [["deploy", "deployment", "deploys"], "deploy"],
    [["analysis", "analyze", "analyzing", "analyse"], "analyz"],
    [["embed", "embedding", "embeddings"], "embed"],
    [["animation", "animate", "animated"], "animat"],
  ])("folds %j onto %s", (words, expected) => {
    for (const word of words) expect(stem(word)).toBe(expected);
  });

  it("keeps short words, words with digits, and what a rule would leave too short", () => {
    expect(["css", "k8s", "ec2", "string", "need", "apply", "bus", "this"].map(stem)).toEqual([
      "css",
      "k8s",
      "ec2",
      "string",
      "need",
      "apply",
      "bus",
      "this",
    ]);
  });
});

describe("analyze", () => {
  it("splits on punctuation and camelCase, lower-cases, drops stop words, stems", () => {
    expect(analyze("Use this skill when writing camelCase HTTPServer tests for my_api:v2")).toEqual([
      "writ",
      "camel",
      "case",
      "http",
      "serv",
      "test",
      "api",
      "v2",
    ]);
  });

  it("gives a name its parts and the parts run together", () => {
    expect(analyzeName("torch-geometric")).toEqual(["torch", "geometric", "torchgeometric"]);
    expect(analyzeName("pydicom")).toEqual(["pydicom"]);
  });

  it("makes query terms distinct and keeps at most 32", () => {
    expect(queryTerms("tests test testing PDF pdf")).toEqual(["test", "pdf"]);
    const long = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
    expect(queryTerms(long)).toHaveLength(32);
  });
});
