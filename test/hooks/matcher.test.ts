import { describe, expect, it } from "vitest";
import { type MatchTarget, matchesHook } from "../../src/hooks/matcher.js";

const bash: MatchTarget = { toolName: "Bash" };
const skill = (name: string): MatchTarget => ({ toolName: "Skill", skillName: name });

describe("matchesHook", () => {
  it("matches with RE2: a catastrophic pattern answers at once; lookaround matches nothing", () => {
    expect(matchesHook("(a+)+", { toolName: `${"a".repeat(60)}!` })).toBe(false);
    expect(matchesHook("(a+)+", { toolName: "aaaa" })).toBe(true);
    expect(matchesHook("(?!Bash).*", { toolName: "Edit" })).toBe(false);
  });

  it.each<[string | undefined, MatchTarget, boolean]>([
    [undefined, bash, true],
    ["", bash, true],
    ["  ", bash, true],
    ["*", bash, true],
    ["*", skill("deploy"), true],
    ["Bash", bash, true],
    ["Bash", { toolName: "BashOutput" }, false],
    ["bash", bash, false],
    ["Edit|Write", { toolName: "Write" }, true],
    ["Edit|Write", { toolName: "Edit" }, true],
    ["Edit|Write", { toolName: "Read" }, false],
    ["Edit|Write", { toolName: "MultiEdit" }, false],
    ["Notebook.*", { toolName: "NotebookEdit" }, true],
    ["Notebook.*", { toolName: "MyNotebookEdit" }, false],
    ["mcp__memory__.*", { toolName: "mcp__memory__create" }, true],
    ["mcp__memory__.*", { toolName: "mcp__github__create" }, false],
    ["Ba", bash, false],
    ["(Read|Write)", { toolName: "Write" }, true],
    ["[invalid", bash, false],
    ["(unclosed", bash, false],
    ["Skill", skill("deploy"), true],
    ["Skill(deploy)", skill("deploy"), true],
    ["Skill(deploy)", skill("/deploy"), true],
    ["Skill(deploy)", skill("deploy-prod"), false],
    ["Skill(ship)", { toolName: "Skill", skillName: "deploy", skillAlias: "ship" }, true],
    ["Skill(deploy)", { toolName: "Skill", skillName: "deploy", skillAlias: "ship" }, true],
    ["Skill(sh:*)", { toolName: "Skill", skillName: "deploy", skillAlias: "sh:ip" }, true],
    ["Skill(ship)", { toolName: "Skill", skillName: "deploy" }, false],
    ["Skill(ship)", { toolName: "Bash", skillAlias: "ship" }, false],
    ["Skill(deploy)", skill("Deploy"), false],
    ["Skill(deploy)", bash, false],
    ["Skill(deploy)", { toolName: "Skill" }, false],
    ["Skill(deploy)", { toolName: "Other", skillName: "deploy" }, false],
    ["Skill(ops:*)", skill("ops:deploy"), true],
    ["Skill(ops:*)", skill("ops"), true],
    ["Skill(ops:*)", skill("dev:deploy"), false],
    ["Skill(*)", skill("anything"), true],
    ["Skill(*)", bash, false],
    ["Skill(deploy)|Bash", bash, true],
    ["Skill(deploy)|Bash", skill("deploy"), true],
    ["Skill(deploy)|Bash", skill("other"), false],
    ["Skill(a)|Skill(b)", skill("b"), true],
    ["Skill(a)|[bad", skill("a"), true],
    ["Skill(a)|[bad", bash, false],
    ["Skill( deploy )", skill("deploy"), true],
    ["SessionStart", { toolName: "startup" }, false],
    ["startup|resume", { toolName: "resume" }, true],
  ])("matcher %j on %j → %s", (matcher, target, expected) => {
    expect(matchesHook(matcher, target)).toBe(expected);
  });
});
