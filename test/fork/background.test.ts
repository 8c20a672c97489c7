import { describe, expect, it } from "vitest";
import type { AgentTool } from "../../src/agent/loop.js";
import { agentFromFile } from "../../src/agent-types/agent-types.js";
import {
  backgroundAnswerReminder,
  backgroundStartedText,
  backgroundTools,
  backgroundToolsNote,
} from "../../src/fork/background.js";
import { splitFrontmatter } from "../../src/skill/frontmatter-core.js";
import { firstBodyLine, normalizeMeta } from "../../src/skill/schema.js";

// `background: true` (issue #27 item 7): where the field is read, the tools a background fork keeps, and the
// texts its caller and the fork itself get.

const PATH = "/p/.claude/skills/demo/SKILL.md";
const meta = (data: Record<string, unknown>) =>
  normalizeMeta({ data, kind: "skill", dirName: "demo", firstBodyLine: firstBodyLine("Body"), path: PATH });

describe("background in SKILL.md", () => {
  it("is kept on a forked skill", () => {
    const { meta: m, diagnostics } = meta({ description: "d", context: "fork", background: true });
    expect(m.background).toBe(true);
    expect(diagnostics).toEqual([]);
  });

  it("is a background-inline warning on an inline skill, and ignored", () => {
    const { meta: m, diagnostics } = meta({ description: "d", background: "yes" });
    expect(m.background).toBeUndefined();
    expect(diagnostics.map((d) => [d.severity, d.code, d.path])).toEqual([
      ["warning", "background-inline", PATH],
    ]);
  });

  it("false says nothing; a non-boolean is field-invalid", () => {
    expect(meta({ description: "d", background: false }).diagnostics).toEqual([]);
    const bad = meta({ description: "d", context: "fork", background: "later" });
    expect(bad.meta.background).toBeUndefined();
    expect(bad.diagnostics.map((d) => d.code)).toEqual(["field-invalid"]);
  });
});

describe("background on an agent type", () => {
  const agent = (background: unknown) => {
    const text = "---\nname: w\ndescription: W\n---\nYou.\n";
    return agentFromFile(
      splitFrontmatter(text),
      { name: "w", description: "W", background },
      "/a/w.md",
      "project",
    );
  };
  it("reads true and false; anything else is agent-invalid", () => {
    expect(agent(true).agent?.background).toBe(true);
    expect(agent("no").agent?.background).toBe(false);
    const bad = agent("sometimes");
    expect(bad.agent?.background).toBeUndefined();
    expect(bad.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["agent-invalid", "background: expected true or false"],
    ]);
  });
});

const tool = (name: string, readOnly: boolean): AgentTool => ({
  name,
  description: name,
  inputSchema: { type: "object" },
  readOnly,
  subject: () => undefined,
  run: async () => ({ content: [], isError: false, touchedPaths: [] }),
});
const TOOLS = [
  tool("Read", true),
  tool("Write", false),
  tool("Edit", false),
  tool("Bash", false),
  tool("mcp__db__drop", false),
];

describe("backgroundTools", () => {
  it("keeps read-only tools, Bash and what a rule or grant names; withholds the rest, in order", () => {
    const split = backgroundTools(TOOLS, []);
    expect(split.kept.map((t) => t.name)).toEqual(["Read", "Bash"]);
    expect(split.withheld).toEqual(["Write", "Edit", "mcp__db__drop"]);
  });

  it("an allow rule, a scoped grant or `*` keeps the tool", () => {
    expect(backgroundTools(TOOLS, ["Write", "Edit(src/**)"]).withheld).toEqual(["mcp__db__drop"]);
    expect(backgroundTools(TOOLS, ["*"]).withheld).toEqual([]);
  });
});

describe("background texts", () => {
  it("the handle result names the handle and what was withheld", () => {
    expect(backgroundStartedText("scan", "fork-1-ab", ["Write"])).toBe(
      'Skill "scan" started in the background (forked execution, handle fork-1-ab). It runs without Write: in ' +
        "the background nobody can answer the permission question each call of it would need. Its answer will " +
        "arrive later in a <system-reminder> naming fork-1-ab; go on without waiting for it.",
    );
    expect(backgroundStartedText("scan", "h", [])).not.toContain("runs without");
  });

  it("the fork's note states its tools and the ones it lacks", () => {
    expect(backgroundToolsNote(["Read", "Skill"], ["Write", "Edit"])).toBe(
      "<system-reminder>You run in the background: nobody can answer a permission question, so a tool call " +
        "that would need one is denied. You have these tools: Read, Skill. You do not have Write, Edit: each " +
        "call would need a permission question.</system-reminder>",
    );
  });

  it("the answer reminder names the handle", () => {
    expect(backgroundAnswerReminder("fork-2-x", "Result")).toBe(
      "<system-reminder>The background fork fork-2-x finished.\n\nResult</system-reminder>",
    );
  });
});
