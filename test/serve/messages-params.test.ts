import { describe, expect, it } from "vitest";
import { skillsSystemSection, systemWithSkills } from "../../src/serve/messages/container-layout.js";
import { checkMessageParams } from "../../src/serve/messages/message-params.js";
import { upstreamHistory } from "../../src/serve/messages/upstream-history.js";

const TOOL = { type: "code_execution_20250825", name: "code_execution" };
const base = { model: "m", max_tokens: 10, messages: [{ role: "user", content: "hi" }] };

describe("checkMessageParams", () => {
  const refused: Array<[string, unknown, string]> = [
    ["no messages", { ...base, messages: [] }, "messages"],
    [
      "an unserved version",
      { ...base, tools: [{ type: "code_execution_20250522", name: "code_execution" }] },
      "does not run the code execution tool version code_execution_20250522",
    ],
    [
      "another tool",
      { ...base, tools: [TOOL, { name: "get_weather", input_schema: {} }] },
      '"get_weather" of type custom is not served',
    ],
    ["two code execution tools", { ...base, tools: [TOOL, TOOL] }, "given twice"],
    [
      "skills without the tool",
      { ...base, container: { skills: [{ type: "custom", skill_id: "s" }] } },
      "need the code execution tool",
    ],
    [
      "nine skills",
      {
        ...base,
        tools: [TOOL],
        container: { skills: Array.from({ length: 9 }, () => ({ type: "custom", skill_id: "s" })) },
      },
      "at most 8 skills",
    ],
  ];
  it.each(refused)("refuses %s", (_name, body, message) => {
    const checked = checkMessageParams(body);
    expect(checked.kind).toBe("refused");
    if (checked.kind === "refused") expect(checked.message).toContain(message);
  });

  it("reads the container as an id string or an object, and the system prompt's text blocks", () => {
    const byString = checkMessageParams({ ...base, tools: [TOOL], container: "container_1" });
    expect(byString.kind === "ok" && byString.request.containerId).toBe("container_1");
    const byObject = checkMessageParams({
      ...base,
      tools: [{ type: "code_execution_20260120", name: "code_execution" }],
      system: [
        { type: "text", text: "a" },
        { type: "text", text: "b" },
      ],
      container: { id: "container_2", skills: [{ type: "custom", skill_id: "s", version: "latest" }] },
    });
    expect(byObject).toMatchObject({
      kind: "ok",
      request: {
        containerId: "container_2",
        codeExecution: "code_execution_20260120",
        system: "a\n\nb",
        skills: [{ type: "custom", skill_id: "s", version: "latest" }],
        stream: false,
      },
    });
  });

  it("takes a request without tools as a plain call", () => {
    expect(checkMessageParams(base)).toMatchObject({ kind: "ok", request: { codeExecution: undefined } });
  });
});

describe("upstreamHistory", () => {
  it("turns server blocks back into the tool round trips the model had, splitting the assistant message", () => {
    const history = upstreamHistory([
      { role: "user", content: "multiply" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Running it." },
          {
            type: "server_tool_use",
            id: "toolu_1",
            name: "bash_code_execution",
            input: { command: "ls" },
            caller: { type: "direct" },
          },
          {
            type: "bash_code_execution_tool_result",
            tool_use_id: "toolu_1",
            content: {
              type: "bash_code_execution_result",
              stdout: "a.txt\n",
              stderr: "",
              return_code: 0,
              content: [],
            },
          },
          { type: "thinking", thinking: "…", signature: "x" },
          { type: "text", text: "Done." },
        ],
      },
      { role: "user", content: [{ type: "text", text: "again" }] },
    ]);
    expect(history).toEqual({
      kind: "ok",
      messages: [
        { role: "user", content: "multiply" },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Running it." },
            { type: "tool_use", id: "toolu_1", name: "bash_code_execution", input: { command: "ls" } },
          ],
        },
        {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "a.txt\n", is_error: false }],
        },
        { role: "assistant", content: [{ type: "text", text: "Done." }] },
        { role: "user", content: [{ type: "text", text: "again" }] },
      ],
    });
  });

  it("merges a paused turn's results with the next user message (roles alternate)", () => {
    const history = upstreamHistory([
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: [
          {
            type: "server_tool_use",
            id: "t",
            name: "text_editor_code_execution",
            input: { command: "view", path: "/x" },
          },
          {
            type: "text_editor_code_execution_tool_result",
            tool_use_id: "t",
            content: {
              type: "text_editor_code_execution_tool_result_error",
              error_code: "file_not_found",
              error_message: "no /x",
            },
          },
        ],
      },
      { role: "user", content: "and then?" },
    ]);
    expect(history.kind === "ok" && history.messages.at(-1)).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "t", content: "Error: file_not_found: no /x", is_error: true },
        { type: "text", text: "and then?" },
      ],
    });
  });

  it.each([
    [
      "an image",
      { role: "user" as const, content: [{ type: "image", source: {} }] },
      "a image block in a user message is not served",
    ],
    [
      "a client tool call",
      { role: "assistant" as const, content: [{ type: "tool_use", id: "x", name: "f", input: {} }] },
      "tool_use block",
    ],
    [
      "another server tool",
      {
        role: "assistant" as const,
        content: [{ type: "server_tool_use", id: "x", name: "web_search", input: {} }],
      },
      "is not one of serve's",
    ],
  ])("refuses %s naming the block", (_name, message, why) => {
    const history = upstreamHistory([message]);
    expect(history.kind).toBe("refused");
    if (history.kind === "refused") expect(history.message).toContain(why);
  });
});

describe("the skills' section of the system prompt", () => {
  it("names each skill, its description and its SKILL.md, and is empty without skills", () => {
    const section = skillsSystemSection([{ name: "calc", description: "Sums numbers." }]);
    expect(section).toContain("- calc: Sums numbers. (instructions: /skills/calc/SKILL.md)");
    expect(section).toContain("/mnt/user-data/outputs/");
    expect(systemWithSkills("Be brief.", [])).toBe("Be brief.");
    expect(systemWithSkills("Be brief.", [{ name: "calc", description: "d" }])).toMatch(
      /^Be brief\.\n\nSkills are loaded/,
    );
  });
});
