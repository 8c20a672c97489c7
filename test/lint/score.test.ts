import { describe, expect, it } from "vitest";
import type { LintFinding } from "../../src/lint/rules.js";
import { lintScore } from "../../src/lint/score.js";

const f = (code: LintFinding["code"], severity: LintFinding["severity"]): LintFinding => ({
  code,
  severity,
  message: "",
  file: "SKILL.md",
  line: 1,
});

const ERRORS: LintFinding["code"][] = ["risky-rm-rf", "secret-literal", "escaping-link"];

describe("lintScore", () => {
  it.each([
    ["no findings", [], 100],
    ["info only", [f("listing-cost", "info")], 100],
    ["one warning", [f("description-no-when", "warning")], 90],
    ["one error", [f("risky-rm-rf", "error")], 75],
    ["an error and a warning", [f("secret-literal", "error"), f("broken-link", "warning")], 65],
    ["a code counted twice at most", Array.from({ length: 9 }, () => f("broken-link", "warning")), 80],
    ["never below 0", ERRORS.flatMap((c) => [f(c, "error"), f(c, "error")]), 0],
  ])("%s", (_case, findings, score) => {
    expect(lintScore(findings)).toBe(score);
  });
});
