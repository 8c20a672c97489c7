import { describe, expect, it } from "vitest";
import {
  commandMetadataText,
  parseSlashCommand,
  renderSkillToolResult,
  renderSlashCommand,
  renderUnknownCommand,
  type SlashCommand,
  skillExpansionText,
  unknownCommandReminder,
  userInvocableRefusal,
} from "../../src/inline/render.js";

describe("skillExpansionText", () => {
  it.each<[string, Parameters<typeof skillExpansionText>, string]>([
    [
      "skill",
      ["skill", "/p/.claude/skills/x", "Body"],
      "Base directory for this skill: /p/.claude/skills/x\n\nBody",
    ],
    ["legacy command", ["command", "/p/.claude/commands", "Body"], "Body"],
    ["no base dir", ["skill", "", "Body"], "Body"],
  ])("%s", (_name, args, expected) => {
    expect(skillExpansionText(...args)).toBe(expected);
  });
});

describe("renderSkillToolResult", () => {
  it("gives the tool_result then the expansion block, byte-exact", () => {
    expect(
      renderSkillToolResult({
        toolUseId: "toolu_1",
        name: "deploy",
        kind: "skill",
        baseDir: "/s/deploy",
        body: "Go.",
      }),
    ).toEqual([
      { type: "tool_result", tool_use_id: "toolu_1", content: "Launching skill: deploy" },
      { type: "text", text: "Base directory for this skill: /s/deploy\n\nGo." },
    ]);
  });

  it("has no base directory line for a legacy command", () => {
    const [, text] = renderSkillToolResult({
      toolUseId: "t",
      name: "ns:sub",
      kind: "command",
      baseDir: "/c",
      body: "Body",
    });
    expect(text).toEqual({ type: "text", text: "Body" });
  });
});

describe("commandMetadataText / renderSlashCommand", () => {
  it.each<[string, string, string]>([
    [
      "deploy",
      "prod now",
      "<command-message>deploy</command-message>\n<command-name>/deploy</command-name>\n<command-args>prod now</command-args>\n",
    ],
    ["deploy", "", "<command-message>deploy</command-message>\n<command-name>/deploy</command-name>"],
    ["deploy", "  ", "<command-message>deploy</command-message>\n<command-name>/deploy</command-name>"],
  ])("%s %j", (name, args, expected) => {
    expect(commandMetadataText(name, args)).toBe(expected);
  });

  it("gives the metadata block then the expansion block", () => {
    expect(
      renderSlashCommand({ name: "fix", args: "#12", kind: "skill", baseDir: "/s/fix", body: "B" }),
    ).toEqual([
      {
        type: "text",
        text: "<command-message>fix</command-message>\n<command-name>/fix</command-name>\n<command-args>#12</command-args>\n",
      },
      { type: "text", text: "Base directory for this skill: /s/fix\n\nB" },
    ]);
  });
});

describe("refusal and unknown command texts", () => {
  it("answers a typed non-user-invocable skill (SPEC §14.14)", () => {
    expect(userInvocableRefusal("internal")).toBe(
      'This skill can only be invoked by Claude, not directly by users. Ask Claude to use the "internal" skill for you.',
    );
  });

  const fifteen = Array.from({ length: 15 }, (_, i) => `c${i + 1}`);
  it.each<[string, string[], string]>([
    [
      "names every available command, in the order given, when there are at most 13",
      ["deploy", "deploy-prod", "develop"],
      '<system-reminder>\nThe user typed /deplyo, but no skill or command named "deplyo" exists. Available commands: /deploy, /deploy-prod, /develop. Treat the message as ordinary text.\n</system-reminder>',
    ],
    [
      "names 13, then `and N more` (SPEC §14.14)",
      fifteen,
      '<system-reminder>\nThe user typed /deplyo, but no skill or command named "deplyo" exists. Available commands: /c1, /c2, /c3, /c4, /c5, /c6, /c7, /c8, /c9, /c10, /c11, /c12, /c13 and 2 more. Treat the message as ordinary text.\n</system-reminder>',
    ],
    [
      "leaves the hint out when there is none",
      [],
      '<system-reminder>\nThe user typed /deplyo, but no skill or command named "deplyo" exists. Treat the message as ordinary text.\n</system-reminder>',
    ],
  ])("%s", (_name, similar, expected) => {
    expect(unknownCommandReminder("deplyo", similar)).toBe(expected);
  });

  it("sends the typed text after the reminder", () => {
    const [reminder, typed] = renderUnknownCommand("/deplyo now", "deplyo", ["deploy"]);
    expect(reminder).toEqual({ type: "text", text: unknownCommandReminder("deplyo", ["deploy"]) });
    expect(typed).toEqual({ type: "text", text: "/deplyo now" });
  });
});

describe("parseSlashCommand", () => {
  it.each<[string, SlashCommand | undefined]>([
    ["/deploy", { name: "deploy", args: "", typedName: "deploy" }],
    ["/deploy prod  now ", { name: "deploy", args: "prod  now", typedName: "deploy" }],
    ["/deploy\n", { name: "deploy", args: "", typedName: "deploy" }],
    ["/deploy a\nb", { name: "deploy", args: "a\nb", typedName: "deploy" }],
    ["/ns:sub x", { name: "ns:sub", args: "x", typedName: "ns:sub" }],
    ["/plugin:skill", { name: "plugin:skill", args: "", typedName: "plugin:skill" }],
    ["/skill:deploy prod", { name: "deploy", args: "prod", typedName: "skill:deploy" }],
    ["/skill:ns:sub", { name: "ns:sub", args: "", typedName: "skill:ns:sub" }],
    ["/Mixed_Case.1", { name: "Mixed_Case.1", args: "", typedName: "Mixed_Case.1" }],
    ["/skill:", undefined],
    ["/", undefined],
    ["/ deploy", undefined],
    ["//deploy", undefined],
    ["/usr/bin/env", undefined],
    [" /deploy", undefined],
    ["deploy", undefined],
    ["", undefined],
  ])("%j", (line, expected) => {
    expect(parseSlashCommand(line)).toEqual(expected);
  });
});
