import { describe, expect, it } from "vitest";
import type { AgentResult } from "../../src/agent/events.js";
import type { AgentTool } from "../../src/agent/loop.js";
import { type AgentType, BUILTIN_AGENTS, loadAgentTypes } from "../../src/agent-types/agent-types.js";
import { parseAgentFile } from "../../src/agent-types/parse-agent-file.js";
import { forkResultText, toolsForAgent } from "../../src/fork/fork.js";
import { createNodeFs } from "../../src/io/fs.js";
import { tmpTree } from "../support/tmp-tree.js";

const usage = {
  input_tokens: 0,
  output_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
};
const result = (over: Partial<AgentResult>): AgentResult => ({
  text: "answer",
  cause: "end_turn",
  turns: 1,
  usage,
  toolsUsed: [],
  ...over,
});

describe("forkResultText", () => {
  const cases: { name: string; input: AgentResult; ok: boolean; text: string }[] = [
    {
      name: "no tools",
      input: result({}),
      ok: true,
      text: 'Skill "s" completed (forked execution).\n\nResult:\nanswer',
    },
    {
      name: "tools in first-use order (SPEC §14.11)",
      input: result({ toolsUsed: ["Read", "Bash"] }),
      ok: true,
      text:
        "<tools-used-before-summary>Read,Bash</tools-used-before-summary>\n" +
        'Skill "s" completed (forked execution).\n\nResult:\nanswer',
    },
    {
      name: "aborted",
      input: result({ cause: "aborted" }),
      ok: false,
      text: 'Skill "s" was aborted (forked execution).',
    },
    {
      name: "model error",
      input: result({ cause: "error", error: { kind: "overloaded", message: "Model API overloaded" } }),
      ok: false,
      text: 'Skill "s" failed (forked execution): Model API overloaded',
    },
    {
      name: "turn limit",
      input: result({ cause: "max_turns" }),
      ok: false,
      text: 'Skill "s" stopped (forked execution): it reached the turn limit without finishing.',
    },
    {
      name: "blank final text",
      input: result({ text: "  \n" }),
      ok: false,
      text: 'Skill "s" ended (forked execution) without a final answer.',
    },
  ];
  it.each(cases)("$name", ({ input, ok, text }) => {
    const outcome = forkResultText("s", input);
    expect(outcome.ok).toBe(ok);
    expect(outcome.text).toBe(text);
    if (outcome.ok) expect(outcome.answer).toBe(input.text);
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
const ALL = [tool("Read", true), tool("Write", false), tool("Bash", false), tool("Grep", true)];
const agent = (over: Partial<AgentType>): AgentType => ({
  name: "x",
  description: "x",
  readOnly: false,
  systemPrompt: "",
  source: "project",
  ...over,
});

describe("toolsForAgent", () => {
  const cases: { name: string; agent: AgentType; expected: string[] }[] = [
    { name: "all tools by default", agent: agent({}), expected: ["Read", "Write", "Bash", "Grep"] },
    { name: "read-only types", agent: agent({ readOnly: true }), expected: ["Read", "Grep"] },
    {
      name: "a tools list filters",
      agent: agent({ tools: ["Bash(git:*)", "Read"] }),
      expected: ["Read", "Bash"],
    },
    {
      name: "* keeps everything",
      agent: agent({ tools: ["*"] }),
      expected: ["Read", "Write", "Bash", "Grep"],
    },
    {
      name: "read-only and a list",
      agent: agent({ readOnly: true, tools: ["Write", "Grep"] }),
      expected: ["Grep"],
    },
  ];
  it.each(cases)("$name", ({ agent: a, expected }) => {
    expect(toolsForAgent(a, ALL).map((t) => t.name)).toEqual(expected);
  });

  it("the built-in Explore and Plan types are read-only; general-purpose is not", () => {
    expect(BUILTIN_AGENTS.map((a) => [a.name, a.readOnly])).toEqual([
      ["general-purpose", false],
      ["Explore", true],
      ["Plan", true],
    ]);
  });
});

describe("parseAgentFile", () => {
  it("reads name, description, tools, model, effort and the body as the system prompt", () => {
    const text =
      "---\nname: reviewer\ndescription: Reviews\ntools: Read, Grep\nmodel: opus\neffort: HIGH\n---\n\nBe strict.\n";
    const { agent: a, diagnostics } = parseAgentFile(text, "/a/reviewer.md", "project");
    expect(diagnostics).toEqual([]);
    expect(a).toEqual({
      name: "reviewer",
      description: "Reviews",
      tools: ["Read", "Grep"],
      model: "opus",
      effort: "high",
      readOnly: false,
      systemPrompt: "Be strict.",
      source: "project",
      path: "/a/reviewer.md",
    });
  });

  it("falls back to the file name and reports a missing description and a bad effort", () => {
    const { agent: a, diagnostics } = parseAgentFile("---\neffort: huge\n---\nBody", "/a/helper.md", "user");
    expect(a?.name).toBe("helper");
    expect(a?.effort).toBeUndefined();
    expect(diagnostics.map((d) => d.code)).toEqual(["agent-invalid", "agent-invalid"]);
  });
});

describe("loadAgentTypes", () => {
  it("loads *.md from each dir in order; built-ins and earlier names win", async () => {
    const tree = await tmpTree({
      "user/a.md": "---\nname: shared\ndescription: from user\n---\nU",
      "user/notes.txt": "ignored",
      "proj/b.md": "---\nname: shared\ndescription: from project\n---\nP",
      "proj/c.md": "---\nname: Explore\ndescription: impostor\n---\nX",
      "proj/d.md": "---\ndescription: own\n---\nD",
    });
    try {
      const { agents, diagnostics } = await loadAgentTypes(createNodeFs(), [
        { dir: tree.path("user"), source: "user" },
        { dir: tree.path("missing"), source: "project" },
        { dir: tree.path("proj"), source: "project" },
      ]);
      expect(diagnostics).toEqual([]);
      expect(agents.map((a) => [a.name, a.source])).toEqual([
        ["general-purpose", "builtin"],
        ["Explore", "builtin"],
        ["Plan", "builtin"],
        ["shared", "user"],
        ["d", "project"],
      ]);
    } finally {
      await tree.cleanup();
    }
  });
});
