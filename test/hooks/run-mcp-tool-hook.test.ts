import { describe, expect, it } from "vitest";
import type { HookInput } from "../../src/hooks/run-hook.js";
import { fillMcpToolInput, type McpToolCaller, runMcpToolHook } from "../../src/hooks/run-mcp-tool-hook.js";

const EVENT: HookInput = {
  session_id: "s1",
  cwd: "/repo",
  hook_event_name: "PreToolUse",
  tool_name: "Write",
  tool_input: { file_path: "/repo/a.ts", lines: [1, 2] },
};

describe("fillMcpToolInput", () => {
  it.each([
    // biome-ignore-start lint/suspicious/noTemplateCurlyInString: the hook's own `${path}` syntax
    { case: "a dotted path", template: { path: "${tool_input.file_path}" }, want: { path: "/repo/a.ts" } },
    {
      case: "inside a longer text",
      template: { q: "scan ${tool_name} ${cwd}" },
      want: { q: "scan Write /repo" },
    },
    { case: "a non-string value as JSON", template: { l: "${tool_input.lines}" }, want: { l: "[1,2]" } },
    { case: "a missing path is empty", template: { x: "<${tool_input.nope}>" }, want: { x: "<>" } },
    {
      case: "at any depth, other values kept",
      template: { deep: { list: ["${session_id}", 3] }, flag: true },
      want: { deep: { list: ["s1", 3] }, flag: true },
    },
    // biome-ignore-end lint/suspicious/noTemplateCurlyInString: the hook's own `${path}` syntax
  ])("$case", ({ template, want }) => {
    expect(fillMcpToolInput(template, EVENT)).toEqual(want);
  });
});

describe("runMcpToolHook", () => {
  const hook = { type: "mcp_tool" as const, server: "guard", tool: "check" };
  const answering =
    (answer: Awaited<ReturnType<McpToolCaller>>): McpToolCaller =>
    async () =>
      answer;

  it.each([
    {
      case: "decision JSON blocks",
      answer: { text: '{"decision":"block","reason":"no"}', isError: false },
      want: { outcome: "block", reason: "no" },
    },
    {
      case: "empty text continues",
      answer: { text: "", isError: false },
      want: { outcome: "continue", stdout: "" },
    },
    {
      case: "plain text continues",
      answer: { text: "fine", isError: false },
      want: { outcome: "continue", stdout: "fine" },
    },
  ])("$case", async ({ answer, want }) => {
    expect(await runMcpToolHook(hook, EVENT, { call: answering(answer) })).toMatchObject(want);
  });

  it.each([
    {
      case: "a tool error",
      answer: { text: "boom", isError: true },
      message: "guard/check answered an error: boom",
    },
    { case: "no such tool", answer: undefined, message: "this session has no MCP tool guard/check" },
  ])("$case is a warning", async ({ answer, message }) => {
    const result = await runMcpToolHook(hook, EVENT, { call: answering(answer) });
    expect(result.outcome).toBe("warning");
    expect(result).toHaveProperty("message", expect.stringContaining(message));
  });

  it("a call that does not end within its timeout is a warning", async () => {
    const never: McpToolCaller = (_call, signal) =>
      new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
    const result = await runMcpToolHook({ ...hook, timeout: 0.05 }, EVENT, { call: never });
    expect(result).toEqual({ outcome: "warning", message: "timed out after 0.05 s" });
  });
});
