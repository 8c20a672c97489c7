import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import {
  MAX_TOOL_DESCRIPTION_CHARS,
  mcpToolToTool,
  NO_CONTENT_TEXT,
  toToolResult,
} from "../../src/mcp/tools.js";

describe("toToolResult", () => {
  it.each<[string, CallToolResult, ReturnType<typeof toToolResult>]>([
    [
      "text",
      { content: [{ type: "text", text: "hi" }] },
      { content: [{ type: "text", text: "hi" }], isError: false, touchedPaths: [] },
    ],
    [
      "error flag kept",
      { content: [{ type: "text", text: "bad" }], isError: true },
      { content: [{ type: "text", text: "bad" }], isError: true, touchedPaths: [] },
    ],
    [
      "png image",
      { content: [{ type: "image", data: "AA==", mimeType: "image/png" }] },
      {
        content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "AA==" } }],
        isError: false,
        touchedPaths: [],
      },
    ],
    [
      "unsupported image type becomes text",
      { content: [{ type: "image", data: "AA==", mimeType: "image/tiff" }] },
      { content: [{ type: "text", text: "[image (image/tiff)]" }], isError: false, touchedPaths: [] },
    ],
    [
      "resource link",
      { content: [{ type: "resource_link", uri: "file:///a", name: "a" }] },
      { content: [{ type: "text", text: "[resource file:///a]" }], isError: false, touchedPaths: [] },
    ],
    [
      "structured content only",
      { content: [], structuredContent: { sum: 3 } },
      { content: [{ type: "text", text: '{\n  "sum": 3\n}' }], isError: false, touchedPaths: [] },
    ],
    [
      "nothing",
      { content: [] },
      { content: [{ type: "text", text: NO_CONTENT_TEXT }], isError: false, touchedPaths: [] },
    ],
  ])("%s", (_name, input, expected) => {
    expect(toToolResult(input)).toEqual(expected);
  });

  it("caps very long text", () => {
    const long = "line\n".repeat(10_000);
    const [block] = toToolResult({ content: [{ type: "text", text: long }] }).content;
    expect(block?.type === "text" && block.text.length < long.length).toBe(true);
    expect(block?.type === "text" && block.text).toMatch(/\[Output truncated: kept the first/);
  });
});

describe("mcpToolToTool", () => {
  const signal = new AbortController().signal;
  const ctx = { cwd: "/", signal, toolUseId: "1" };

  it("cuts long descriptions, drops $schema and turns rejections into error results", async () => {
    const tool = mcpToolToTool({
      name: "mcp__s__t",
      server: "s",
      tool: {
        name: "t",
        description: "d".repeat(5_000),
        inputSchema: { type: "object", $schema: "http://json-schema.org/draft-07/schema#", properties: {} },
      },
      call: async () => {
        throw new Error("socket hang up");
      },
    });
    expect(tool.description).toHaveLength(MAX_TOOL_DESCRIPTION_CHARS);
    expect(tool.inputSchema).toEqual({ type: "object", properties: {} });
    expect(await tool.run({}, ctx)).toEqual({
      content: [{ type: "text", text: "mcp__s__t failed: socket hang up" }],
      isError: true,
      touchedPaths: [],
    });
  });

  it("does not call the server when already aborted", async () => {
    let called = false;
    const tool = mcpToolToTool({
      name: "mcp__s__t",
      server: "s",
      tool: { name: "t", inputSchema: { type: "object" } },
      call: async () => {
        called = true;
        return { content: [] };
      },
    });
    const aborted = AbortSignal.abort();
    expect(await tool.run({}, { ...ctx, signal: aborted })).toMatchObject({ isError: true });
    expect(called).toBe(false);
  });
});
