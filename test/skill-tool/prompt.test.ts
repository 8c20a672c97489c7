import { describe, expect, it } from "vitest";
import { SKILL_TOOL_DESCRIPTION, SKILL_TOOL_NAME } from "../../src/skill-tool/prompt.js";

describe("Skill tool description (SPEC §4)", () => {
  it("is named Skill", () => {
    expect(SKILL_TOOL_NAME).toBe("Skill");
  });

  it.each([
    { says: "what a skill is", pattern: /a skill: a packaged set of instructions/i },
    {
      says: "where the listing is",
      pattern: /The following skills are available for use with the Skill tool/,
    },
    { says: "to call it first when a listed skill fits", pattern: /call this tool first/i },
    { says: "that names come from the listing", pattern: /exactly as it appears in the listing/i },
    { says: "never to invent names", pattern: /never guess or invent a name/i },
    { says: "that forked skills return a finished result", pattern: /forked sub-agent[^.]*finished result/i },
  ])("says $says", ({ pattern }) => {
    expect(SKILL_TOOL_DESCRIPTION).toMatch(pattern);
  });
});
