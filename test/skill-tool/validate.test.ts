import { describe, expect, it } from "vitest";
import { SkillToolInput, toolUseError, validateSkillCall } from "../../src/skill-tool/validate.js";
import { makeSkill } from "../support/make-skill.js";

const skills = [
  makeSkill({ name: "deploy-prod" }),
  makeSkill({ name: "pdf-tools", alias: "pdf" }),
  makeSkill({ name: "manual-only", disableModelInvocation: true }),
  makeSkill({ name: "acme:lint", source: "plugin" }),
  makeSkill({ name: "acme:format", source: "plugin" }),
  makeSkill({ name: "other:format", source: "plugin" }),
  makeSkill({ name: "Review" }),
];

function check(skill: string, pluginSkillNames?: string[]) {
  return validateSkillCall({ skill }, { skills, pluginSkillNames });
}

describe("validateSkillCall (SPEC §4, in order)", () => {
  it.each([
    { case: "1. empty name", input: "", message: "Skill name is empty" },
    { case: "1. blank name", input: "   ", message: "Skill name is empty" },
    { case: "2. only a slash", input: "/", message: "Skill name is empty" },
    { case: "3. unknown, no close name", input: "zzz", message: "Unknown skill: zzz" },
    {
      case: "3. unknown with did-you-mean",
      input: "deploy-prd",
      message: "Unknown skill: deploy-prd. Did you mean deploy-prod?",
    },
    {
      case: "3. did-you-mean after slash strip",
      input: "/deploy-prd",
      message: "Unknown skill: deploy-prd. Did you mean deploy-prod?",
    },
    { case: "3. case-sensitive", input: "review", message: "Unknown skill: review. Did you mean Review?" },
    {
      case: "3. did-you-mean considers aliases",
      input: "pdg",
      message: "Unknown skill: pdg. Did you mean pdf?",
    },
    {
      case: "3. bare plugin skill name",
      input: "lint",
      message: "Unknown skill: lint. Did you mean acme:lint? Invoke it by that full name.",
    },
    {
      case: "3. two plugins share the bare name: no hint",
      input: "format",
      message: "Unknown skill: format",
    },
    { case: "3. never suggests a disabled skill", input: "manual-onl", message: "Unknown skill: manual-onl" },
    {
      case: "4. disable-model-invocation",
      input: "manual-only",
      message:
        "Skill manual-only cannot be used with Skill tool due to disable-model-invocation. Ask the user to run " +
        "/manual-only themselves — it cannot be invoked via the Skill tool. Do not replicate this skill's " +
        "workflow by other means — it is reserved for explicit user invocation.",
    },
  ])("$case", ({ input, message }) => {
    expect(check(input)).toEqual({ ok: false, message });
  });

  it.each([
    { input: "deploy-prod", name: "deploy-prod", skill: "deploy-prod" },
    { input: "/deploy-prod", name: "deploy-prod", skill: "deploy-prod" },
    { input: "pdf", name: "pdf", skill: "pdf-tools" },
    { input: "acme:lint", name: "acme:lint", skill: "acme:lint" },
  ])("accepts $input", ({ input, name, skill }) => {
    const got = check(input);
    expect(got.ok && got.name).toBe(name);
    expect(got.ok && got.skill.name).toBe(skill);
  });

  it.each([
    { case: "§14.5 loose → loop (2 edits)", names: ["loop", "lint"], input: "loose", want: "loop" },
    { case: "§14.5 case counts as edits", names: ["Upper-Case"], input: "upper-case", want: "Upper-Case" },
    { case: "§14.5 GREET is 5 edits from greet", names: ["greet"], input: "GREET", want: undefined },
    { case: "§14.5 three edits are too many", names: ["deploy-prod"], input: "deploy-xyz", want: undefined },
  ])("$case", ({ names, input, want }) => {
    const got = validateSkillCall({ skill: input }, { skills: names.map((name) => makeSkill({ name })) });
    const message = `Unknown skill: ${input}${want === undefined ? "" : `. Did you mean ${want}?`}`;
    expect(got).toEqual({ ok: false, message });
  });

  it("§14.6: a UI command that no skill is named after is refused as such, before the unknown check", () => {
    expect(check("/clear")).toEqual({
      ok: false,
      message:
        "clear is a UI command, not a skill. Ask the user to run /clear themselves — it cannot be invoked via the Skill tool.",
    });
  });

  it("a skill found but skipped at discovery: `Unknown skill: {n}.` with a period and no hint", () => {
    const skills = [makeSkill({ name: "deploy" })];
    const skipped = (name: string) => name === "deplo";
    expect(validateSkillCall({ skill: "deplo" }, { skills, skipped })).toEqual({
      ok: false,
      message: "Unknown skill: deplo.",
    });
    expect(validateSkillCall({ skill: "deplo" }, { skills })).toEqual({
      ok: false,
      message: "Unknown skill: deplo. Did you mean deploy?",
    });
  });

  it("an MCP prompt is unknown to the model", () => {
    const prompt = makeSkill({ name: "mcp__s__review", source: "mcp", kind: "command" });
    expect(validateSkillCall({ skill: "mcp__s__review" }, { skills: [prompt] })).toEqual({
      ok: false,
      message: "Unknown skill: mcp__s__review",
    });
  });

  it("uses pluginSkillNames for the bare-name hint", () => {
    expect(check("ship", ["tools:ship"])).toEqual({
      ok: false,
      message: "Unknown skill: ship. Did you mean tools:ship? Invoke it by that full name.",
    });
  });

  it("prefers a name match over an alias match", () => {
    const clash = [makeSkill({ name: "a", alias: "b" }), makeSkill({ name: "b" })];
    const got = validateSkillCall({ skill: "b" }, { skills: clash });
    expect(got.ok && got.skill.name).toBe("b");
  });
});

describe("toolUseError", () => {
  it("wraps the message", () => {
    expect(toolUseError("Skill name is empty")).toBe("<tool_use_error>Skill name is empty</tool_use_error>");
  });
});

describe("SkillToolInput", () => {
  it.each([
    { input: { skill: "x" }, ok: true },
    { input: { skill: "x", args: "a b" }, ok: true },
    { input: { skill: "x", extra: 1 }, ok: false },
    { input: { args: "a" }, ok: false },
    { input: { skill: 3 }, ok: false },
  ])("$input → $ok", ({ input, ok }) => {
    expect(SkillToolInput().safeParse(input).success).toBe(ok);
  });
});
