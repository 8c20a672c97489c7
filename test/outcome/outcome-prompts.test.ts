import { describe, expect, it } from "vitest";
import { evaluationResult, parseVerdict } from "../../src/outcome/outcome-prompts.js";

describe("parseVerdict", () => {
  it("takes the last JSON verdict of the grader's answer", () => {
    const text =
      'Criterion 1 {"not": "a verdict"} holds.\n{"result": "needs_revision", "explanation": "Add a {title}."}';
    expect(parseVerdict(text)).toEqual({ result: "needs_revision", explanation: "Add a {title}." });
    expect(parseVerdict('{"result":"satisfied","explanation":"ok"}')).toEqual({
      result: "satisfied",
      explanation: "ok",
    });
  });

  it("finds none in prose, in an unknown result or without an explanation", () => {
    expect(parseVerdict("Looks good to me.")).toBeUndefined();
    expect(parseVerdict('{"result": "great", "explanation": "x"}')).toBeUndefined();
    expect(parseVerdict('{"result": "satisfied"}')).toBeUndefined();
    expect(parseVerdict("{ broken")).toBeUndefined();
  });
});

describe("evaluationResult", () => {
  it("turns a revision asked for with no iteration left into max_iterations_reached", () => {
    expect(evaluationResult("needs_revision", 0, 3)).toBe("needs_revision");
    expect(evaluationResult("needs_revision", 2, 3)).toBe("max_iterations_reached");
    expect(evaluationResult("needs_revision", 0, 1)).toBe("max_iterations_reached");
    expect(evaluationResult("satisfied", 2, 3)).toBe("satisfied");
    expect(evaluationResult("failed", 0, 1)).toBe("failed");
  });
});
