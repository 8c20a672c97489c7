import { describe, expect, it } from "vitest";
import {
  capabilityText,
  gainedCapabilities,
  gainText,
  type SkillCapability,
  skillCapabilities,
  skillChangedText,
} from "../../src/approvals/capabilities.js";

const plain = { allowedTools: [], hooks: undefined, context: "inline" as const };

describe("skillCapabilities", () => {
  it("lists grants, hooks of every type, inline shell, the fork and scripts; model and effort are none", () => {
    const skill = {
      allowedTools: ["Bash(git:*)", "Read"],
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", command: "./check.sh" }] },
          { hooks: [{ type: "http", url: "https://example.test/hook" }] },
          {
            matcher: "Write",
            hooks: [
              { type: "agent", prompt: "Is it safe?" },
              { type: "mcp_tool", server: "guard", tool: "scan", input: { path: "x" } },
            ],
          },
        ],
        Stop: "not a list",
      },
      context: "fork" as const,
      agent: "Explore",
      model: "opus",
      effort: "high",
    };
    const body = "Run !`curl x | sh` then\n```!\ngit status\ngit diff\n```\nand text.";
    expect(skillCapabilities(skill, body, [{ path: "scripts/run.sh", hash: "h1" }])).toEqual([
      { kind: "allowed-tools", rule: "Bash(git:*)" },
      { kind: "allowed-tools", rule: "Read" },
      { kind: "hook", event: "PreToolUse", matcher: "Bash", type: "command", target: "./check.sh" },
      { kind: "hook", event: "PreToolUse", matcher: "*", type: "http", target: "https://example.test/hook" },
      { kind: "hook", event: "PreToolUse", matcher: "Write", type: "agent", target: "Is it safe?" },
      {
        kind: "hook",
        event: "PreToolUse",
        matcher: "Write",
        type: "mcp_tool",
        target: 'mcp:guard/scan {"path":"x"}',
      },
      { kind: "inline-shell", command: "curl x | sh" },
      { kind: "inline-shell", command: "git status\ngit diff" },
      { kind: "fork", agent: "Explore" },
      { kind: "script", path: "scripts/run.sh", hash: "h1" },
    ]);
  });

  it("a fork without agent runs as general-purpose; repeats count once", () => {
    expect(skillCapabilities({ ...plain, context: "fork" }, "!`ls` and !`ls`", [])).toEqual([
      { kind: "inline-shell", command: "ls" },
      { kind: "fork", agent: "general-purpose" },
    ]);
  });

  it("an MCP skill's inline shell never runs, so it is no capability", () => {
    expect(skillCapabilities({ ...plain, mcpServer: "srv" }, "!`curl x | sh`", [])).toEqual([]);
  });
});

describe("gainedCapabilities and the skill-changed text", () => {
  const approved: SkillCapability[] = [
    { kind: "allowed-tools", rule: "Read" },
    { kind: "script", path: "scripts/a.sh", hash: "old" },
  ];

  it("names each new power; a removed grant or an unchanged one is no gain", () => {
    const now: SkillCapability[] = [
      { kind: "allowed-tools", rule: "Bash" },
      { kind: "inline-shell", command: "curl x | sh" },
      { kind: "hook", event: "PreToolUse", matcher: "*", type: "command", target: "./h.sh" },
      { kind: "script", path: "scripts/a.sh", hash: "old" },
    ];
    const gains = gainedCapabilities(approved, now);
    expect(gains.map(gainText)).toEqual([
      "+allowed-tools Bash",
      '+inline shell "curl x | sh"',
      '+hook PreToolUse * command "./h.sh"',
    ]);
    expect(skillChangedText("deploy", gains)).toBe(
      'Skill deploy changed since it was approved and gained: +allowed-tools Bash, +inline shell "curl x | sh", ' +
        '+hook PreToolUse * command "./h.sh". It runs again once approved: `skillwright approve deploy`.',
    );
    expect(gainedCapabilities(approved, [{ kind: "allowed-tools", rule: "Read" }])).toEqual([]);
  });

  it("a script with new content is a gain marked changed", () => {
    const gains = gainedCapabilities(approved, [{ kind: "script", path: "scripts/a.sh", hash: "new" }]);
    expect(gains.map(gainText)).toEqual(["+script scripts/a.sh (changed)"]);
  });

  it("long or multi-line commands are cut to one line in the text", () => {
    const text = capabilityText({ kind: "inline-shell", command: `echo ${"a".repeat(300)}\nrm x` });
    expect(text.length).toBeLessThan(140);
    expect(text).toMatch(/^inline shell "echo a+…"$/);
    expect(capabilityText({ kind: "inline-shell", command: "a\nb" })).toBe('inline shell "a; b"');
  });
});
