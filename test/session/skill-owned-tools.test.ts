import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { capabilityText, skillCapabilities } from "../../src/approvals/capabilities.js";
import { createEngine } from "../../src/engine/engine.js";
import { createMemoryFs } from "../../src/io/memory-fs.js";
import { createNoShell } from "../../src/io/no-shell.js";
import { SKILL_SEARCH_TOOL_NAME } from "../../src/listing/overflow.js";
import { createMemoryTranscriptStore } from "../../src/session/memory-transcript-store.js";
import { openSession } from "../../src/session/open.js";
import type { Skill } from "../../src/skill/skill.js";
import { defineSkillTool, RESERVED_TOOL_NAMES, readSkillTools } from "../../src/skill/skill-tools.js";
import { notLoadedText, skillOwnedTools } from "../../src/skill-tool/owned-tools.js";
import { SKILL_TOOL_NAME } from "../../src/skill-tool/prompt.js";
import { memorySkill } from "../../src/sources/memory-skill.js";
import { createMemorySource } from "../../src/sources/memory-source.js";
import { LOAD_REFERENCE_TOOL_NAME } from "../../src/sources/reference-section.js";
import { BUILTIN_TOOL_NAMES } from "../../src/tools/builtin.js";
import { resultText, toolResultsOf } from "../support/harness.js";
import { startTestModel, type TestModel, textTurn, toolTurn } from "../support/model-server.js";

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

describe("a memory skill's own code tool (defineSkillTool)", () => {
  it("is offered from the first request, refused before the skill loads, then gets its parsed input", async () => {
    const seen: unknown[] = [];
    const source = createMemorySource({
      skills: [
        {
          name: "pricing",
          description: "Quotes prices",
          body: "Use quote.",
          tools: [
            defineSkillTool({
              name: "quote",
              description: "Quotes a price for a SKU",
              input: z.object({ sku: z.string(), qty: z.number().int() }),
              execute: async (input) => {
                seen.push(input);
                return `${input.qty} x ${input.sku} = ${input.qty * 3} EUR`;
              },
            }),
          ],
        },
      ],
    });
    model = await startTestModel([
      toolTurn("quote", { sku: "A1", qty: 2 }, { id: "early" }),
      toolTurn("Skill", { skill: "pricing" }, { match: { hasToolResultFor: "early" } }),
      toolTurn("quote", { sku: "A1", qty: "two" }, { id: "bad", match: { hasToolResultFor: "Skill" } }),
      toolTurn("quote", { sku: "A1", qty: 2 }, { id: "good", match: { hasToolResultFor: "bad" } }),
      textTurn("done", { hasToolResultFor: "good" }),
    ]);
    const engine = createEngine({ cwd: "/w", home: "/h", fs: createMemoryFs(), sources: [source] });
    const { session, tools } = await openSession(engine, { client: model.client });
    expect(tools).toContain("quote");
    for await (const _ of session.send("price it")) {
      // drain
    }
    await session.close();
    await engine.close();
    const results = model.server.requests.slice(1).map((r) => toolResultsOf(r)[0]);
    expect(resultText(results[0])).toBe(notLoadedText("quote", "pricing"));
    expect(results[2]?.is_error).toBe(true);
    expect(resultText(results[2])).toMatch(/^Invalid input for quote: qty/);
    expect(resultText(results[3])).toBe("2 x A1 = 6 EUR");
    expect(seen).toEqual([{ sku: "A1", qty: 2 }]);
  });
});

describe("a forked skill's own tool after a resume", () => {
  it("is still not loaded in the main conversation, which only ran the skill as a fork", async () => {
    const source = createMemorySource({
      skills: [
        {
          name: "pricing",
          description: "Quotes prices in a fork",
          body: "PRICING-TASK: use quote.",
          frontmatter: { context: "fork" },
          tools: [
            defineSkillTool({
              name: "quote",
              description: "Quotes a price for a SKU",
              input: z.object({ sku: z.string() }),
              execute: async (input) => `${input.sku} = 3 EUR`,
            }),
          ],
        },
      ],
    });
    model = await startTestModel([
      textTurn("forked", { agentId: "*" }),
      toolTurn("Skill", { skill: "pricing" }, { match: { agentId: null, lastUserTextIncludes: "go" } }),
      textTurn("done", { agentId: null, hasToolResultFor: "Skill" }),
      toolTurn("quote", { sku: "A1" }, { id: "after", match: { lastUserTextIncludes: "again" } }),
      textTurn("ok", { hasToolResultFor: "after" }),
    ]);
    const engine = createEngine({ cwd: "/w", home: "/h", fs: createMemoryFs(), sources: [source] });
    const store = createMemoryTranscriptStore();
    const first = await openSession(engine, { client: model.client, store });
    for await (const _ of first.session.send("go")) {
      // drain
    }
    await first.session.close();
    const resumed = await openSession(engine, { client: model.client, store, resume: first.session.id });
    for await (const _ of resumed.session.send("again")) {
      // drain
    }
    await resumed.session.close();
    await engine.close();
    const last = model.server.requests.at(-1);
    expect(resultText(toolResultsOf(last)[0])).toBe(notLoadedText("quote", "pricing"));
  });
});

describe("a command tool without a shell (serve without --host-tools, a library session given none)", () => {
  it("runs nothing and says why", async () => {
    const [tool] = skillOwnedTools({
      skills: [
        {
          ...memorySkill({ name: "lookup", description: "x", body: "b" }, "app", "test").skill,
          baseDir: "/skills/lookup",
          skillTools: readSkillTools(
            [{ name: "lookup_word", description: "x", command: "touch /tmp/x" }],
            "p",
          ).tools,
        } as Skill,
      ],
      taken: new Set(),
      shell: createNoShell("this server gives sessions no shell"),
    }).tools;
    const result = await tool?.run({}, { cwd: "/", signal: new AbortController().signal, toolUseId: "t" });
    expect(result?.isError).toBe(true);
    expect(result?.content).toEqual([
      {
        type: "text",
        text: "lookup_word runs a command, and this session has no shell: this server gives sessions no shell",
      },
    ]);
  });
});

describe("skill-tools: the manifest", () => {
  it("keeps good entries and leaves out each bad one with a warning", () => {
    const { tools, diagnostics } = readSkillTools(
      [
        {
          name: "ok",
          description: "Fine",
          command: "cat",
          input_schema: { properties: { a: { type: "string" } } },
        },
        { name: "bad name", description: "x", command: "cat" },
        { name: "no_cmd", description: "x" },
        { name: "ok", description: "again", command: "cat" },
        { name: "mcp__srv__x", description: "x", command: "cat" },
        { name: "schema", description: "x", command: "cat", input_schema: { type: "array" } },
        "just a string",
      ],
      "/s/SKILL.md",
    );
    expect(tools).toEqual([
      {
        kind: "command",
        name: "ok",
        description: "Fine",
        command: "cat",
        inputSchema: { type: "object", properties: { a: { type: "string" } } },
      },
    ]);
    expect(diagnostics.map((d) => [d.code, d.severity])).toEqual(
      Array(6).fill(["skill-tool-invalid", "warning"]),
    );
    expect(diagnostics.map((d) => d.message)).toEqual([
      'skill-tools: name: expected 1-64 letters, digits, _ or -, got "bad name"; the tool is left out',
      "skill-tools: no_cmd: command is missing; the tool is left out",
      "skill-tools: ok is declared twice; the tool is left out",
      "skill-tools: mcp__srv__x: the name of a built-in or MCP tool, which a skill's tool cannot shadow; the tool is left out",
      "skill-tools: schema: input_schema must be a JSON schema of type object; the tool is left out",
      "skill-tools: expected a mapping, got string; the tool is left out",
    ]);
    expect(readSkillTools({ name: "x" }, "p").diagnostics[0]?.message).toBe(
      "skill-tools: expected a list of tools, got a mapping; the tool is left out",
    );
  });

  it("reserves exactly the built-in tools and the ones the engine adds", () => {
    expect([...RESERVED_TOOL_NAMES].sort()).toEqual(
      [...BUILTIN_TOOL_NAMES, SKILL_TOOL_NAME, SKILL_SEARCH_TOOL_NAME, LOAD_REFERENCE_TOOL_NAME].sort(),
    );
  });

  it("pins a command tool as a capability, so a changed command needs a new approval", () => {
    const skill = {
      allowedTools: [],
      hooks: undefined,
      context: "inline" as const,
      agent: undefined,
      mcpServer: undefined,
      literalBody: undefined,
      skillTools: readSkillTools([{ name: "lookup", description: "x", command: "./lookup.sh" }], "p").tools,
    };
    const capabilities = skillCapabilities(skill, "", []);
    expect(capabilities.map(capabilityText)).toEqual(['skill tool lookup "./lookup.sh"']);
  });
});
