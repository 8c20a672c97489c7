import { describe, expect, it } from "vitest";
import type { ApprovalRecord } from "../../src/approvals/approval-store.js";
import { type ApprovalState, approvalState } from "../../src/approvals/skill-approvals.js";
import type { PermissionRules } from "../../src/permissions/decision.js";
import { decideSkill, isSafeSkill, unsafeSkillProperties } from "../../src/skill-tool/permissions.js";
import { makeSkill } from "../support/make-skill.js";

const NO_RULES: PermissionRules = { allow: [], deny: [], ask: [] };

describe("unsafeSkillProperties / isSafeSkill", () => {
  it.each([
    { case: "plain skill", skill: makeSkill({ name: "a" }), shell: false, want: [] },
    {
      case: "allowed-tools",
      skill: makeSkill({ name: "a", allowedTools: ["Bash(git:*)"] }),
      shell: false,
      want: ["allowed-tools"],
    },
    { case: "hooks", skill: makeSkill({ name: "a", hooks: { Stop: [] } }), shell: false, want: ["hooks"] },
    { case: "fork", skill: makeSkill({ name: "a", context: "fork" }), shell: false, want: ["fork"] },
    { case: "inline shell", skill: makeSkill({ name: "a" }), shell: true, want: ["inline-shell"] },
    {
      case: "MCP skills never run inline shell",
      skill: makeSkill({ name: "mcp__s__a", mcpServer: "s" }),
      shell: true,
      want: [],
    },
    {
      case: "model, effort and disallowed-tools are safe",
      skill: makeSkill({ name: "a", model: "opus", effort: "high", disallowedTools: ["Bash"] }),
      shell: false,
      want: [],
    },
    {
      case: "everything",
      skill: makeSkill({ name: "a", allowedTools: ["Read"], hooks: {}, context: "fork" }),
      shell: true,
      want: ["allowed-tools", "hooks", "fork", "inline-shell"],
    },
  ])("$case", ({ skill, shell, want }) => {
    expect(unsafeSkillProperties(skill, { bodyHasInlineShell: shell })).toEqual(want);
    expect(isSafeSkill(skill, { bodyHasInlineShell: shell })).toBe(want.length === 0);
  });
});

describe("decideSkill (SPEC §4 permissions)", () => {
  const safe = makeSkill({ name: "notes" });
  const forked = makeSkill({
    name: "acme:deploy",
    source: "plugin",
    context: "fork",
    allowedTools: ["Bash"],
  });
  const aliased = makeSkill({ name: "pdf-tools", alias: "pdf" });
  const plainPlugin = makeSkill({ name: "acme:notes", source: "plugin" });

  it.each([
    { case: "safe skill is auto-allowed", rules: NO_RULES, skill: safe, want: "allow" },
    {
      case: "deny exact beats safe",
      rules: { ...NO_RULES, deny: ["Skill(notes)"] },
      skill: safe,
      want: "deny",
    },
    { case: "deny by alias", rules: { ...NO_RULES, deny: ["Skill(pdf)"] }, skill: aliased, want: "deny" },
    { case: "deny prefix", rules: { ...NO_RULES, deny: ["Skill(acme:*)"] }, skill: forked, want: "deny" },
    {
      case: "deny beats allow",
      rules: { ...NO_RULES, deny: ["Skill(acme:*)"], allow: ["Skill"] },
      skill: forked,
      want: "deny",
    },
    {
      case: "allow rule for an unsafe skill",
      rules: { ...NO_RULES, allow: ["Skill(acme:deploy)"] },
      skill: forked,
      want: "allow",
    },
    {
      case: "allow --allowedTools Skill",
      rules: { ...NO_RULES, allow: ["Skill"] },
      skill: forked,
      want: "allow",
    },
    { case: "unsafe skill asks", rules: NO_RULES, skill: forked, want: "ask" },
    {
      case: "other skill's rule does not apply",
      rules: { ...NO_RULES, allow: ["Skill(other)"] },
      skill: forked,
      want: "ask",
    },
  ])("$case", ({ rules, skill, want }) => {
    expect(decideSkill({ rules, skill, cwd: "/repo", bodyHasInlineShell: false }).behavior).toBe(want);
  });

  it("says why it asks", () => {
    expect(decideSkill({ rules: NO_RULES, skill: forked, cwd: "/repo", bodyHasInlineShell: true })).toEqual({
      behavior: "ask",
      prompt:
        "Allow Skill(acme:deploy)? The skill grants tools without asking, runs as a forked sub-agent, runs shell commands while loading.",
    });
  });

  it("inline shell alone makes a skill ask", () => {
    expect(
      decideSkill({ rules: NO_RULES, skill: plainPlugin, cwd: "/repo", bodyHasInlineShell: true }).behavior,
    ).toBe("ask");
  });

  it("takes turn grants", () => {
    const got = decideSkill({
      rules: NO_RULES,
      skill: forked,
      cwd: "/repo",
      bodyHasInlineShell: false,
      grants: ["Skill(acme:*)"],
    });
    expect(got.behavior).toBe("allow");
  });
});

describe("decideSkill: skills the user put there are allowed by default", () => {
  const unsafe = { context: "fork" as const, allowedTools: ["Bash(touch:*)"], hooks: { Stop: [] } };
  it.each(["managed", "user", "bundled"] as const)("%s: allowed with no rule", (source) => {
    const skill = makeSkill({ name: "deploy", source, ...unsafe });
    expect(decideSkill({ rules: NO_RULES, skill, cwd: "/repo", bodyHasInlineShell: true }).behavior).toBe(
      "allow",
    );
  });

  // A cloned repository names project skills: their hooks, grants and inline shell wait for the user's approval.
  it.each(["project", "plugin", "mcp"] as const)("%s: an unsafe skill still asks", (source) => {
    const skill = makeSkill({ name: "acme:deploy", source, ...unsafe });
    expect(decideSkill({ rules: NO_RULES, skill, cwd: "/repo", bodyHasInlineShell: false }).behavior).toBe(
      "ask",
    );
  });

  it("a deny rule still wins, and an ask rule still asks", () => {
    const skill = makeSkill({ name: "deploy", source: "project", ...unsafe });
    const run = (rules: PermissionRules) =>
      decideSkill({ rules, skill, cwd: "/repo", bodyHasInlineShell: true }).behavior;
    expect(run({ ...NO_RULES, deny: ["Skill(deploy)"] })).toBe("deny");
    expect(run({ ...NO_RULES, deny: ["Skill"] })).toBe("deny");
    expect(run({ ...NO_RULES, ask: ["Skill(deploy)"] })).toBe("ask");
  });
});

describe("decideSkill: approvals pinned to content", () => {
  const skill = makeSkill({ name: "deploy", source: "project", allowedTools: ["Bash"] });
  const record: ApprovalRecord = {
    name: "deploy",
    source: "project",
    path: "/repo/.claude/skills/deploy",
    hash: "h",
    capabilities: [{ kind: "allowed-tools", rule: "Read" }],
    approvedAt: "2026-01-01T00:00:00.000Z",
  };
  const held = approvalState(record, [
    { kind: "allowed-tools", rule: "Read" },
    { kind: "allowed-tools", rule: "Bash" },
  ]);
  const run = (approval: ApprovalState, rules = NO_RULES) =>
    decideSkill({ rules, skill, cwd: "/repo", bodyHasInlineShell: false, approval });

  it("an approved skill that gained nothing is allowed with no question", () => {
    expect(run(approvalState(record, [{ kind: "allowed-tools", rule: "Read" }])).behavior).toBe("allow");
    expect(run(approvalState(record, [])).behavior).toBe("allow");
  });

  it("a held skill asks, and the reason the model gets is skill-changed with what it gained", () => {
    expect(run(held)).toEqual({
      behavior: "ask",
      prompt:
        "Allow Skill(deploy)? The skill grants tools without asking. skill-changed: Skill deploy changed since it was approved and gained: +allowed-tools Bash. It runs again once approved: `skillwright approve deploy`.",
      reason:
        "skill-changed: Skill deploy changed since it was approved and gained: +allowed-tools Bash. It runs again once approved: `skillwright approve deploy`.",
    });
  });

  it("a deny rule still decides; an allow rule never lifts the hold (issue #42 item 4)", () => {
    expect(run(held, { ...NO_RULES, deny: ["Skill(deploy)"] }).behavior).toBe("deny");
    expect(run(held, { ...NO_RULES, allow: ["Skill(deploy)"] })).toMatchObject({
      behavior: "ask",
      reason: expect.stringMatching(/^skill-changed: /),
    });
    expect(run(held, { ...NO_RULES, allow: ["Skill"] }).behavior).toBe("ask");
    expect(run({ state: "unapproved" }).behavior).toBe("ask");
  });
});
