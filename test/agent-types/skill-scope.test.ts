import { describe, expect, it } from "vitest";
import { inScope, MAIN_SCOPE, scopeOfAgent } from "../../src/agent-types/skill-scope.js";

const reviewer = scopeOfAgent({
  name: "reviewer",
  allowedSkills: ["review-*"],
  disallowedSkills: ["review-secret"],
});

describe("inScope", () => {
  it.each([
    { case: "no rules: every skill", skill: { name: "x" }, scope: MAIN_SCOPE, want: true },
    {
      case: "available-to leaves main out",
      skill: { name: "x", availableTo: ["reviewer"] },
      scope: MAIN_SCOPE,
      want: false,
    },
    {
      case: "available-to names main",
      skill: { name: "x", availableTo: ["main"] },
      scope: MAIN_SCOPE,
      want: true,
    },
    { case: "allowed glob matches", skill: { name: "review-style" }, scope: reviewer, want: true },
    { case: "allowed glob misses", skill: { name: "deploy" }, scope: reviewer, want: false },
    {
      case: "allowed via the alias",
      skill: { name: "style", alias: "review-style" },
      scope: reviewer,
      want: true,
    },
    { case: "deny beats allow", skill: { name: "review-secret" }, scope: reviewer, want: false },
    {
      case: "available-to and allowed must both agree",
      skill: { name: "review-x", availableTo: ["main"] },
      scope: reviewer,
      want: false,
    },
    {
      case: "an empty allow list allows nothing",
      skill: { name: "x" },
      scope: scopeOfAgent({ name: "bare", allowedSkills: [] }),
      want: false,
    },
  ])("$case", ({ skill, scope, want }) => {
    expect(inScope(skill, scope)).toBe(want);
  });
});
