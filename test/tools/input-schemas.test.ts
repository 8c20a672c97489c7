import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createNodeFs } from "../../src/io/fs.js";
import { createNodeShell } from "../../src/io/shell.js";
import { createListMcpResourcesTool, listResourcesInput } from "../../src/mcp/list-resources-tool.js";
import { createReadMcpResourceTool, readResourceInput } from "../../src/mcp/resource-tool.js";
import { createSkillSearchTool, skillSearchInput } from "../../src/skill-search/tool.js";
import { createSkillTool } from "../../src/skill-tool/skill-tool.js";
import { SkillToolInput } from "../../src/skill-tool/validate.js";
import { bashInput } from "../../src/tools/bash.js";
import { BUILTIN_TOOL_NAMES, createBuiltinTools } from "../../src/tools/builtin.js";
import { defineTool, type ToolInputSchema, toToolInputSchema } from "../../src/tools/define-tool.js";
import { editInput } from "../../src/tools/edit.js";
import { findInput } from "../../src/tools/find.js";
import { grepInput } from "../../src/tools/grep.js";
import * as GENERATED from "../../src/tools/input-schemas.js";
import { createLoadReferenceTool, loadReferenceInput } from "../../src/tools/load-reference.js";
import { lsInput } from "../../src/tools/ls.js";
import { readInput } from "../../src/tools/read.js";
import { writeInput } from "../../src/tools/write.js";
import { ctxFor } from "./helpers.js";

/**
 * The bytes each built-in tool's `input_schema` had when it was a hand-written literal: the schema generated from
 * zod must keep them (a change breaks every user's prompt cache across versions; change it only on purpose).
 */
const SENT_BYTES: Record<string, string> = {
  Read: '{"type":"object","properties":{"file_path":{"type":"string","minLength":1,"description":"The path of the file to read"},"offset":{"description":"1-based line number to start reading at","type":"integer","minimum":1},"limit":{"description":"Maximum number of lines to read","type":"integer","minimum":1}},"required":["file_path"]}',
  Write:
    '{"type":"object","properties":{"file_path":{"type":"string","minLength":1,"description":"The path of the file to write"},"content":{"type":"string","description":"The full content to write"}},"required":["file_path","content"]}',
  Edit: '{"type":"object","properties":{"file_path":{"type":"string","minLength":1,"description":"The path of the file to edit"},"old_string":{"type":"string","description":"The exact text to replace"},"new_string":{"type":"string","description":"The text to put in its place"},"replace_all":{"description":"Replace every occurrence (default false)","type":"boolean"}},"required":["file_path","old_string","new_string"]}',
  Bash: '{"type":"object","properties":{"command":{"type":"string","minLength":1,"description":"The command to run"},"description":{"description":"What the command does, in 5-10 words","type":"string"},"timeout":{"description":"Timeout in milliseconds (default 120000, max 600000)","type":"number","exclusiveMinimum":0,"maximum":600000},"run_in_background":{"description":"Not supported: must be absent or false","type":"boolean"}},"required":["command"]}',
  Grep: '{"type":"object","properties":{"pattern":{"type":"string","minLength":1,"description":"The regular expression to search for"},"path":{"description":"File or directory to search (default: working directory)","type":"string","minLength":1},"glob":{"description":"Only search files matching this glob, e.g. \\"*.ts\\"","type":"string","minLength":1},"output_mode":{"description":"\\"content\\", \\"files_with_matches\\" (default) or \\"count\\"","type":"string","enum":["content","files_with_matches","count"]},"-i":{"description":"Case-insensitive search","type":"boolean"},"-n":{"description":"Show line numbers (content mode; default true)","type":"boolean"},"-A":{"description":"Lines to show after each match (content mode)","type":"integer","minimum":0},"-B":{"description":"Lines to show before each match (content mode)","type":"integer","minimum":0},"-C":{"description":"Lines to show around each match (content mode)","type":"integer","minimum":0},"head_limit":{"description":"Only the first N lines or entries (default 250)","type":"integer","minimum":1}},"required":["pattern"]}',
  Glob: '{"type":"object","properties":{"pattern":{"type":"string","minLength":1,"description":"Glob to match, e.g. \\"*.ts\\" or \\"src/**/*.test.ts\\""},"path":{"description":"Directory to search (default: working directory)","type":"string","minLength":1}},"required":["pattern"]}',
  LS: '{"type":"object","properties":{"path":{"description":"Directory to list (default: working directory)","type":"string","minLength":1},"ignore":{"description":"Glob patterns of entry names to leave out","type":"array","items":{"type":"string"}}}}',
};

/** Every built-in tool and the Skill tool: the zod schema that parses the input (the single source). */
const TABLE: { name: string; zod: () => z.ZodType }[] = [
  { name: "Read", zod: readInput },
  { name: "Write", zod: writeInput },
  { name: "Edit", zod: editInput },
  { name: "Bash", zod: bashInput },
  { name: "Grep", zod: grepInput },
  { name: "Glob", zod: findInput },
  { name: "LS", zod: lsInput },
  { name: "Skill", zod: SkillToolInput },
];

const generated = (name: string): ToolInputSchema => {
  const row = TABLE.find((r) => r.name === name);
  if (row === undefined) throw new Error(`no row for ${name}`);
  return toToolInputSchema(name, row.zod());
};

describe("input schemas generated from zod", () => {
  it.each(Object.entries(SENT_BYTES))(
    "%s: the generated schema keeps the bytes sent before",
    (name, bytes) => {
      expect(JSON.stringify(generated(name))).toBe(bytes);
    },
  );

  it("covers every built-in tool, and each tool sends the schema generated from its zod input", () => {
    const tools = createBuiltinTools({ fs: createNodeFs(), shell: createNodeShell() });
    expect(Object.keys(SENT_BYTES)).toEqual([...BUILTIN_TOOL_NAMES]);
    for (const tool of tools) {
      expect(JSON.stringify(tool.inputSchema)).toBe(SENT_BYTES[tool.name]);
      // Generated once per tool, then the same object every request.
      expect(tool.inputSchema).toBe(tool.inputSchema);
    }
  });

  it("each built-in tool has a one-line snippet for the system prompt", () => {
    const tools = createBuiltinTools({ fs: createNodeFs(), shell: createNodeShell() });
    for (const tool of tools) {
      expect(tool.snippet, tool.name).toMatch(/^[^\n]{5,80}$/);
      for (const line of tool.guidelines ?? []) expect(line).not.toContain("\n");
    }
  });
});

/**
 * The bytes of the engine's other tools' `input_schema`, as the hand-written literals they replaced sent them
 * (main before zod became their single source): generating them from zod must not move a byte.
 */
const OTHER_SENT_BYTES: Record<string, string> = {
  Skill:
    '{"type":"object","properties":{"skill":{"type":"string","description":"The skill name exactly as listed, e.g. \\"commit\\" or \\"my-plugin:review\\""},"args":{"description":"Optional arguments for the skill, as one string","type":"string"}},"required":["skill"],"additionalProperties":false}',
  SkillSearch:
    '{"type":"object","properties":{"query":{"description":"Words describing the task or the skill you need","type":"string","minLength":1}},"required":["query"]}',
  ReadMcpResourceTool:
    '{"type":"object","properties":{"server":{"type":"string","minLength":1,"description":"The MCP server\'s name, as in mcp__{server}__…"},"uri":{"type":"string","minLength":1,"description":"The resource URI, e.g. skill://greet/reference.md"}},"required":["server","uri"],"additionalProperties":false}',
  ListMcpResourcesTool:
    '{"type":"object","properties":{"server":{"description":"Only this MCP server\'s resources (default: every server)","type":"string","minLength":1}},"additionalProperties":false}',
  load_reference:
    '{"type":"object","properties":{"skill":{"type":"string","minLength":1,"description":"The skill\'s name"},"name":{"type":"string","minLength":1,"description":"The reference\'s name, as the skill lists it"}},"required":["skill","name"],"additionalProperties":false}',
};

describe("the engine's other tools: input_schema generated from zod, bytes unchanged", () => {
  const notCalled = () => Promise.reject(new Error("not called"));
  const tools = [
    createSkillTool({ skills: () => [], pluginSkillNames: () => [], invoke: notCalled, depth: 0 }),
    createSkillSearchTool({ skills: () => [] }),
    createReadMcpResourceTool(notCalled, ["s"]),
    createListMcpResourcesTool(notCalled, ["s"]),
    createLoadReferenceTool({ skills: () => [] }),
  ];

  it.each(tools.map((t) => [t.name, t] as const))(
    "%s offers its build-time literal (no JSON-schema generation at run time)",
    (name, tool) => {
      expect(tool.inputSchema).toBe(GENERATED_TABLE.find(([row]) => row === name)?.[1]);
    },
  );

  it.each(Object.entries(OTHER_SENT_BYTES))("%s sends the bytes it sent as a literal", (name, bytes) => {
    const tool = tools.find((t) => t.name === name);
    expect(JSON.stringify(tool?.inputSchema)).toBe(bytes);
    // Generated once per tool, then the same object every request.
    expect(tool?.inputSchema).toBe(tool?.inputSchema);
  });
});

/** Claude Code's input keys per built-in tool, required ones first (SPEC §14.12). */
const CLAUDE_CODE_KEYS: Record<string, { required: string[]; optional: string[] }> = {
  Read: { required: ["file_path"], optional: ["offset", "limit"] },
  Write: { required: ["file_path", "content"], optional: [] },
  Edit: { required: ["file_path", "old_string", "new_string"], optional: ["replace_all"] },
  Bash: { required: ["command"], optional: ["description", "timeout", "run_in_background"] },
  Grep: {
    required: ["pattern"],
    optional: ["path", "glob", "output_mode", "-i", "-n", "-A", "-B", "-C", "head_limit"],
  },
  Glob: { required: ["pattern"], optional: ["path"] },
  LS: { required: [], optional: ["path", "ignore"] },
};

/** Each constant of src/tools/input-schemas.ts (written at build time) and the zod input it is generated from. */
const GENERATED_TABLE: [string, ToolInputSchema, () => z.ZodType][] = [
  ["Read", GENERATED.READ_INPUT_SCHEMA, readInput],
  ["Write", GENERATED.WRITE_INPUT_SCHEMA, writeInput],
  ["Edit", GENERATED.EDIT_INPUT_SCHEMA, editInput],
  ["Bash", GENERATED.BASH_INPUT_SCHEMA, bashInput],
  ["Grep", GENERATED.GREP_INPUT_SCHEMA, grepInput],
  ["Glob", GENERATED.GLOB_INPUT_SCHEMA, findInput],
  ["LS", GENERATED.LS_INPUT_SCHEMA, lsInput],
  ["load_reference", GENERATED.LOAD_REFERENCE_INPUT_SCHEMA, loadReferenceInput],
  ["Skill", GENERATED.SKILL_INPUT_SCHEMA, SkillToolInput],
  ["SkillSearch", GENERATED.SKILL_SEARCH_INPUT_SCHEMA, skillSearchInput],
  ["ReadMcpResourceTool", GENERATED.READ_MCP_RESOURCE_INPUT_SCHEMA, readResourceInput],
  ["ListMcpResourcesTool", GENERATED.LIST_MCP_RESOURCES_INPUT_SCHEMA, listResourcesInput],
];

describe("input schemas generated at build time (scripts/tool-schemas.mjs)", () => {
  it.each(GENERATED_TABLE)(
    "%s: the literal is what z.toJSONSchema generates from its zod input",
    (name, literal, zod) => {
      expect(JSON.stringify(literal)).toBe(JSON.stringify(toToolInputSchema(name, zod())));
    },
  );

  it("covers every constant of the generated file", () => {
    expect(new Set(GENERATED_TABLE.map(([, literal]) => literal))).toEqual(new Set(Object.values(GENERATED)));
    expect(GENERATED_TABLE).toHaveLength(Object.keys(GENERATED).length);
  });

  it("each built-in tool offers its generated literal (no JSON-schema generation at run time)", () => {
    const tools = createBuiltinTools({ fs: createNodeFs(), shell: createNodeShell() });
    for (const tool of tools) {
      const row = GENERATED_TABLE.find(([name]) => name === tool.name);
      expect(row, tool.name).toBeDefined();
      if (row !== undefined) expect(tool.inputSchema, tool.name).toBe(row[1]);
    }
  });
});

describe("Claude Code's input shapes (SPEC §14.12)", () => {
  it.each(Object.entries(CLAUDE_CODE_KEYS))("%s takes exactly Claude Code's keys", (name, keys) => {
    const literal = generated(name);
    expect(Object.keys(literal?.properties ?? {}).sort()).toEqual(
      [...keys.required, ...keys.optional].sort(),
    );
    expect(literal?.required ?? []).toEqual(keys.required);
  });

  it.each([
    ["Read", { file_path: "a", extra: 1 }],
    ["Write", { file_path: "a", content: "", extra: 1 }],
    ["Edit", { file_path: "a", old_string: "x", new_string: "y", extra: 1 }],
    ["Bash", { command: "echo hi", description: "say hi", extra: 1 }],
    ["Grep", { pattern: "x", type: "js", multiline: false }],
    ["Glob", { pattern: "*", extra: 1 }],
    ["LS", { path: ".", extra: 1 }],
  ])("%s ignores unknown keys instead of rejecting them", (name, input) => {
    const row = TABLE.find((r) => r.name === name);
    const parsed = row?.zod().safeParse(input);
    expect(parsed?.success).toBe(true);
    expect(parsed?.data).not.toHaveProperty("extra");
  });
});

describe("defineTool with a lazy input", () => {
  const LITERAL: ToolInputSchema = {
    type: "object",
    properties: { text: { type: "string" } },
    required: ["text"],
    additionalProperties: false,
  };

  function countingTool() {
    let builds = 0;
    const tool = defineTool({
      name: "Echo",
      description: "Echoes",
      input: () => {
        builds += 1;
        return z.strictObject({ text: z.string() });
      },
      readOnly: true,
      subject: (input) => input.text,
      execute: async (input) => ({ content: input.text }),
    });
    return { tool, builds: () => builds };
  }

  it("builds the schema on the first subject or run, once, and reuses it for inputSchema", async () => {
    const { tool, builds } = countingTool();
    expect(builds()).toBe(0);
    expect(tool.subject({ text: "hi" })).toBe("hi");
    expect(builds()).toBe(1);
    expect(tool.inputSchema).toStrictEqual(LITERAL);
    const ok = await tool.run({ text: "yo" }, ctxFor("/"));
    expect(ok.content).toEqual([{ type: "text", text: "yo" }]);
    const bad = await tool.run({ text: 1 }, ctxFor("/"));
    expect(bad).toMatchObject({ isError: true });
    expect(builds()).toBe(1);
  });

  it("builds on a first run too", async () => {
    const { tool, builds } = countingTool();
    await tool.run({ text: "yo" }, ctxFor("/"));
    expect(builds()).toBe(1);
  });

  it("without inputSchema, generates the JSON schema from the lazy input on first read, once", async () => {
    let builds = 0;
    const tool = defineTool({
      name: "Gen",
      description: "",
      input: () => {
        builds += 1;
        return z.strictObject({ text: z.string() });
      },
      readOnly: true,
      execute: async (input) => ({ content: input.text }),
    });
    expect(builds).toBe(0);
    expect(tool.inputSchema).toStrictEqual(LITERAL);
    expect(tool.inputSchema).toBe(tool.inputSchema);
    await tool.run({ text: "yo" }, ctxFor("/"));
    expect(builds).toBe(1);
  });

  it("throws (a programmer error) when a lazy input is not an object schema, on first read", () => {
    const tool = defineTool({
      name: "NotObject",
      description: "",
      input: () => z.string(),
      readOnly: true,
      execute: async () => ({ content: "" }),
    });
    expect(() => tool.inputSchema).toThrow(/must be an object schema/);
  });
});
