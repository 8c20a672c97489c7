import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createNodeFs } from "../../src/io/fs.js";
import { createNodeShell } from "../../src/io/shell.js";
import { createSkillTool } from "../../src/skill-tool/skill-tool.js";
import { SKILL_TOOL_INPUT_SCHEMA, SkillToolInput } from "../../src/skill-tool/validate.js";
import { BASH_INPUT_SCHEMA, bashInput } from "../../src/tools/bash.js";
import { BUILTIN_TOOL_NAMES, createBuiltinTools } from "../../src/tools/builtin.js";
import { defineTool, type ToolInputSchema, toToolInputSchema } from "../../src/tools/define-tool.js";
import { EDIT_INPUT_SCHEMA, editInput } from "../../src/tools/edit.js";
import { FIND_INPUT_SCHEMA, findInput } from "../../src/tools/find.js";
import { GREP_INPUT_SCHEMA, grepInput } from "../../src/tools/grep.js";
import { LS_INPUT_SCHEMA, lsInput } from "../../src/tools/ls.js";
import { READ_INPUT_SCHEMA, readInput } from "../../src/tools/read.js";
import { WRITE_INPUT_SCHEMA, writeInput } from "../../src/tools/write.js";
import { ctxFor } from "./helpers.js";

/** Every built-in tool and the Skill tool: the literal the API gets and the zod schema that parses the input. */
const TABLE: { name: string; literal: ToolInputSchema; zod: () => z.ZodType }[] = [
  { name: "Read", literal: READ_INPUT_SCHEMA, zod: readInput },
  { name: "Write", literal: WRITE_INPUT_SCHEMA, zod: writeInput },
  { name: "Edit", literal: EDIT_INPUT_SCHEMA, zod: editInput },
  { name: "Bash", literal: BASH_INPUT_SCHEMA, zod: bashInput },
  { name: "Grep", literal: GREP_INPUT_SCHEMA, zod: grepInput },
  { name: "Glob", literal: FIND_INPUT_SCHEMA, zod: findInput },
  { name: "LS", literal: LS_INPUT_SCHEMA, zod: lsInput },
  { name: "Skill", literal: SKILL_TOOL_INPUT_SCHEMA, zod: SkillToolInput },
];

describe("input schema literals", () => {
  it.each(TABLE)(
    "$name: the literal is what its zod schema generates, key order included",
    ({ name, literal, zod }) => {
      const generated = toToolInputSchema(name, zod());
      expect(literal).toStrictEqual(generated);
      // Same bytes in the request as when the schema was generated (prompt caching across versions).
      expect(JSON.stringify(literal)).toBe(JSON.stringify(generated));
    },
  );

  it("covers every built-in tool, and each tool offers its literal", () => {
    const tools = createBuiltinTools({ fs: createNodeFs(), shell: createNodeShell() });
    expect(TABLE.map((row) => row.name).filter((n) => n !== "Skill")).toEqual([...BUILTIN_TOOL_NAMES]);
    for (const tool of tools) {
      expect(tool.inputSchema).toBe(TABLE.find((row) => row.name === tool.name)?.literal);
    }
  });

  it("the Skill tool offers its literal", () => {
    const tool = createSkillTool({
      skills: () => [],
      pluginSkillNames: () => [],
      invoke: () => Promise.reject(new Error("not called")),
      depth: 0,
    });
    expect(tool.inputSchema).toBe(SKILL_TOOL_INPUT_SCHEMA);
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

describe("Claude Code's input shapes (SPEC §14.12)", () => {
  it.each(Object.entries(CLAUDE_CODE_KEYS))("%s takes exactly Claude Code's keys", (name, keys) => {
    const literal = TABLE.find((row) => row.name === name)?.literal;
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
      inputSchema: LITERAL,
      readOnly: true,
      subject: (input) => input.text,
      execute: async (input) => ({ content: input.text }),
    });
    return { tool, builds: () => builds };
  }

  it("offers the literal and builds the schema on the first subject or run, once", async () => {
    const { tool, builds } = countingTool();
    expect(tool.inputSchema).toBe(LITERAL);
    expect(builds()).toBe(0);
    expect(tool.subject({ text: "hi" })).toBe("hi");
    expect(builds()).toBe(1);
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

  it("throws (a programmer error) for a lazy input without inputSchema", () => {
    expect(() =>
      defineTool({
        name: "NoSchema",
        description: "",
        input: () => z.strictObject({}),
        readOnly: true,
        execute: async () => ({ content: "" }),
      }),
    ).toThrow(/needs an inputSchema/);
  });
});
