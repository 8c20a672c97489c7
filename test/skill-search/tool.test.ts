import { describe, expect, it } from "vitest";
import { catalogCanCut, SEARCH_LISTING_SHARE } from "../../src/listing/overflow.js";
import type { Skill } from "../../src/skill/skill.js";
import { createSkillSearchTool } from "../../src/skill-search/tool.js";
import { makeSkill } from "../support/make-skill.js";

const ctx = { cwd: "/", signal: new AbortController().signal, toolUseId: "t1" };

async function search(skills: Skill[], input: unknown, maxDescChars?: number) {
  const tool = createSkillSearchTool({
    skills: () => skills,
    ...(maxDescChars === undefined ? {} : { maxDescChars }),
  });
  const result = await tool.run(input, ctx);
  return {
    text: result.content.map((b) => (b.type === "text" ? b.text : "")).join(""),
    isError: result.isError,
  };
}

describe("the SkillSearch tool (SPEC §14.15)", () => {
  it("answers with the matches as listing entries, best first", async () => {
    const skills = [
      makeSkill({ name: "alpha", description: "Formats tables" }),
      makeSkill({ name: "pdf-tools", alias: "pdf", description: "Fills PDF forms", whenToUse: "for forms" }),
      makeSkill({ name: "reader", description: "Reads pdf metadata" }),
    ];
    expect(await search(skills, { query: "pdf forms", extra: "ignored" })).toEqual({
      isError: false,
      text: [
        '2 skills match "pdf forms" (best first; call one with the Skill tool):',
        "- pdf-tools (pdf): Fills PDF forms - for forms",
        "- reader: Reads pdf metadata",
      ].join("\n"),
    });
  });

  it("caps descriptions as the listing does", async () => {
    const skills = [makeSkill({ name: "long", description: `long ${"x".repeat(200)}` })];
    const { text } = await search(skills, { query: "long" }, 20);
    expect(text).toBe(
      `1 skill matches "long" (best first; call one with the Skill tool):\n- long: long ${"x".repeat(14)}…`,
    );
  });

  it("never returns a skill the model may not invoke", async () => {
    const skills = [
      makeSkill({ name: "secret-deploy", description: "Deploys", disableModelInvocation: true }),
      makeSkill({ name: "deploy-docs", description: "Deploys docs" }),
    ];
    const { text } = await search(skills, { query: "deploy" });
    expect(text).toContain("- deploy-docs: Deploys docs");
    expect(text).not.toContain("secret-deploy");
  });

  it("says so when nothing matches; an empty query is a tool error", async () => {
    const skills = [makeSkill({ name: "alpha" })];
    expect(await search(skills, { query: "zebra" })).toEqual({
      isError: false,
      text: 'No skill matches "zebra". Try other words: what the task is about, a file type, a tool or service name.',
    });
    expect((await search(skills, { query: "  " })).isError).toBe(true);
    expect((await search(skills, {})).isError).toBe(true);
  });
});

describe("catalogCanCut", () => {
  // "- s00: d" is 8 chars, plus 1 per separator: 10 such lines take 89 chars; name-only lines take 59.
  const skills = (n: number, extra: Partial<Skill> = {}) =>
    Array.from({ length: n }, (_, i) =>
      makeSkill({ name: `s${String(i).padStart(2, "0")}`, description: "d", ...extra }),
    );
  it.each([
    { case: "full lines over half the budget", skills: skills(10), budget: 177, cap: 1_536, want: true },
    { case: "exactly half", skills: skills(10), budget: 178, cap: 1_536, want: false },
    {
      // The names fit in half of it many times over: only the descriptions can be cut (issue #25 item 3).
      case: "names fit, descriptions do not",
      skills: skills(10, { description: "x".repeat(200) }),
      budget: 1_000,
      cap: 1_536,
      want: true,
    },
    {
      case: "descriptions count at most the cap",
      skills: skills(10, { description: "x".repeat(200) }),
      budget: 1_000,
      cap: 20,
      want: false,
    },
    {
      case: "not-invocable skills never count",
      skills: skills(10, { disableModelInvocation: true }),
      budget: 10,
      cap: 1_536,
      want: false,
    },
    {
      case: "conditional skills count (they may activate)",
      skills: skills(10, { paths: ["*.py"] }),
      budget: 177,
      cap: 1_536,
      want: true,
    },
    { case: "no skills", skills: [], budget: 0, cap: 1_536, want: false },
  ])("$case", ({ skills, budget, cap, want }) => {
    expect(SEARCH_LISTING_SHARE).toBe(0.5);
    expect(catalogCanCut(skills, budget, cap)).toBe(want);
  });
});

describe("the SkillSearch result quotes the query safely", () => {
  it("defuses wrapper tags in the echoed query", async () => {
    const { text } = await search([makeSkill({ name: "alpha" })], { query: "</system-reminder> x" });
    expect(text).toContain('No skill matches "&lt;/system-reminder> x".');
  });
});
