import { describe, expect, it } from "vitest";
import {
  matchQuality,
  queryTerms,
  SKILL_SEARCH_LIMIT,
  scoreSkill,
  searchSkills,
} from "../../src/skill-search/search.js";
import { makeSkill } from "../support/make-skill.js";

describe("queryTerms", () => {
  it.each([
    { query: "Deploy  Kubernetes", want: ["deploy", "kubernetes"] },
    { query: "pdf-tools/forms", want: ["pdf", "tools", "forms"] },
    { query: "a a A", want: ["a"] },
    { query: "  --- ", want: [] },
    { query: "Größe ändern", want: ["größe", "ändern"] },
    {
      query: Array.from({ length: 20 }, (_, i) => `w${i}`).join(" "),
      want: Array.from({ length: 16 }, (_, i) => `w${i}`),
    },
  ])("$query", ({ query, want }) => {
    expect(queryTerms(query)).toEqual(want);
  });
});

describe("matchQuality", () => {
  it.each([
    { text: "deploy the app", term: "deploy", want: 3 },
    { text: "deployment tools", term: "deploy", want: 2 },
    { text: "redeploy it", term: "deploy", want: 1 },
    { text: "redeploy, then deploy", term: "deploy", want: 3 },
    { text: "ab", term: "b", want: 0 },
    { text: "a b", term: "b", want: 3 },
    { text: "pdf-tools", term: "tools", want: 3 },
    { text: "nothing here", term: "deploy", want: 0 },
  ])("$term in '$text' → $want", ({ text, term, want }) => {
    expect(matchQuality(text, term)).toBe(want);
  });
});

describe("scoreSkill", () => {
  const skill = makeSkill({
    name: "k8s-deploy",
    alias: "ship",
    description: "Deploys services to Kubernetes clusters",
    whenToUse: "when a release is ready",
  });
  it.each([
    // "deploy": name whole word 4×3; description "deploys" word start 2×2; +10 coverage; inside the name +20.
    { query: "deploy", want: 12 + 4 + 10 + 20 },
    // "kubernetes": description 2×3 + 10; "release": when_to_use 2×3 + 10.
    { query: "kubernetes release", want: 16 + 16 },
    // The alias as the whole query: 4×3 + 10 + 100.
    { query: "ship", want: 122 },
    // Inside the name: "k8s-deploy" holds the query → +20; k8s 4×3+10, deploy 12+4+10.
    { query: "k8s-deploy", want: 22 + 26 + 100 },
    { query: "s8k", want: 0 },
    { query: "", want: 0 },
  ])("$query → $want", ({ query, want }) => {
    expect(scoreSkill(skill, queryTerms(query), query.trim().toLowerCase())).toBe(want);
  });
});

describe("searchSkills", () => {
  const skills = [
    makeSkill({ name: "alpha", description: "Formats markdown tables" }),
    makeSkill({ name: "pdf-forms", description: "Fills PDF forms", whenToUse: "when a form must be filled" }),
    makeSkill({ name: "pdf-merge", description: "Merges PDF files" }),
    makeSkill({ name: "beta", description: "Reads pdf metadata" }),
    makeSkill({ name: "gamma", description: "Unrelated" }),
  ];

  it("ranks by score: name matches first, then the ones covering more words", () => {
    expect(searchSkills(skills, "pdf forms").map((m) => m.skill.name)).toEqual([
      "pdf-forms",
      "pdf-merge",
      "beta",
    ]);
  });

  it("breaks ties in listing order and never returns a skill that matches nothing", () => {
    const same = ["one", "two", "three"].map((name) => makeSkill({ name, description: "Lints code" }));
    expect(
      searchSkills([...same, makeSkill({ name: "x", description: "y" })], "lint").map((m) => m.skill.name),
    ).toEqual(["one", "two", "three"]);
    expect(searchSkills(skills, "zebra")).toEqual([]);
    expect(searchSkills(skills, "   ")).toEqual([]);
  });

  it("returns at most 10, the best ones, from a large catalog", () => {
    const many = Array.from({ length: 5_000 }, (_, i) =>
      makeSkill({ name: `skill-${i}`, description: i % 500 === 7 ? "Rotates api keys" : "Does other work" }),
    );
    const exact = makeSkill({ name: "rotate-keys", description: "Rotates api keys in the vault" });
    const got = searchSkills([...many, exact], "rotate keys");
    expect(got).toHaveLength(SKILL_SEARCH_LIMIT);
    expect(got[0]?.skill.name).toBe("rotate-keys");
    expect(got.slice(1).map((m) => m.skill.name)).toEqual(
      Array.from({ length: 9 }, (_, k) => `skill-${k * 500 + 7}`),
    );
  });
});
