import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpManager, type McpManager } from "../../src/mcp/manager.js";
import {
  decodeTextBlob,
  isTextMimeType,
  READ_MCP_RESOURCE_TOOL,
  resourceBlocks,
} from "../../src/mcp/resource-tool.js";
import type { Tool, ToolContext } from "../../src/tools/define-tool.js";
import { testServer } from "./support.js";

const ctx = (): ToolContext => ({ cwd: "/", signal: new AbortController().signal, toolUseId: "t1" });
const text = (result: Awaited<ReturnType<Tool["run"]>>) =>
  result.content
    .map((c) =>
      c.type === "text" ? c.text : c.type === "image" ? `<${c.source.media_type}>` : `<${c.tool_name}>`,
    )
    .join("|");

describe("ReadMcpResourceTool's pieces", () => {
  it.each([
    ["text/x-python", true],
    ["text/markdown; charset=utf-8", true],
    ["application/json", true],
    ["application/vnd.api+json", true],
    ["application/x-sh", true],
    ["application/octet-stream; charset=utf-8", true],
    ["application/zip", false],
    ["image/png", false],
  ])("isTextMimeType(%s) is %s", (mime, expected) => {
    expect(isTextMimeType(mime)).toBe(expected);
  });

  it("decodeTextBlob keeps UTF-8 text and refuses invalid UTF-8 and control bytes", () => {
    expect(decodeTextBlob(Buffer.from("héllo\tworld\r\n").toString("base64"))).toBe("héllo\tworld\r\n");
    expect(decodeTextBlob(Buffer.from([0xc3, 0x28]).toString("base64"))).toBeUndefined();
    expect(decodeTextBlob(Buffer.from([0x61, 0x00, 0x62]).toString("base64"))).toBeUndefined();
  });

  it("maps resource contents: text as text, images as images, other blobs as a note", () => {
    expect(
      resourceBlocks({
        contents: [
          { uri: "a://t", text: "hello" },
          { uri: "a://i", mimeType: "image/png", blob: "iVBORw0KGgo=" },
          { uri: "a://b", mimeType: "application/zip", blob: "UEsDBA==" },
          { uri: "a://p", mimeType: "text/x-python", blob: Buffer.from("x = 1\n").toString("base64") },
        ],
      }),
    ).toEqual([
      { type: "text", text: "hello" },
      { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
      { type: "resource", resource: { uri: "a://b", mimeType: "application/zip", blob: "" } },
      { type: "text", text: "x = 1\n" },
    ]);
  });
});

describe("ReadMcpResourceTool against a real server", () => {
  let dir: string;
  let manager: McpManager;
  let tool: Tool;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "skillwright-mcp-res-"));
    manager = createMcpManager({
      servers: { tst: testServer() },
      env: process.env,
      cwd: dir,
      clientInfo: { name: "t", version: "0" },
    });
    const found = (await manager.tools()).find((t) => t.name === READ_MCP_RESOURCE_TOOL);
    if (found === undefined) throw new Error("no ReadMcpResourceTool");
    tool = found;
  });
  afterAll(async () => {
    await manager.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("is read-only, names the servers, and reads a skill's file by URI", async () => {
    expect(tool.readOnly).toBe(true);
    expect(tool.description).toContain("servers: tst");
    expect(tool.subject({ server: "tst", uri: "skill://greet/SKILL.md" })).toBe("tst skill://greet/SKILL.md");
    const result = await tool.run({ server: "tst", uri: "skill://greet/SKILL.md" }, ctx());
    expect(result.isError).toBe(false);
    expect(text(result)).toContain("Say hello to $ARGUMENTS.");
  });

  it.each([
    ["skill://greet/scripts/hello.py", 'print("hello")\n'],
    ["skill://greet/references/notes.md", "# Notes\nBe kind.\n"],
    ["skill://greet/assets/logo.bin", "[resource skill://greet/assets/logo.bin (application/octet-stream)]"],
  ])("a blob %s reaches the model as text when it is text", async (uri, expected) => {
    const result = await tool.run({ server: "tst", uri }, ctx());
    expect(result.isError).toBe(false);
    expect(text(result)).toBe(expected);
  });

  it.each([
    [{ server: "tst", uri: "skill://nope/SKILL.md" }, /Unknown resource: skill:\/\/nope\/SKILL\.md/],
    [{ server: "other", uri: "skill://greet/SKILL.md" }, /no MCP server "other" \(servers: tst\)/],
    [{ server: "tst" }, /Invalid input for ReadMcpResourceTool: uri/],
  ])("%j is an is_error result saying why", async (input, message) => {
    const result = await tool.run(input, ctx());
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(message);
  });
});

describe("ReadMcpResourceTool on a server with skill manifests (skills/list, SEP-2640)", () => {
  let dir: string;
  let manager: McpManager;
  let tool: Tool;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "skillwright-mcp-manifest-"));
    manager = createMcpManager({
      servers: { ext: testServer("--skills-list"), bad: testServer("--skills-list", "--bad-digest") },
      env: process.env,
      cwd: dir,
      clientInfo: { name: "t", version: "0" },
    });
    await manager.skills();
    const found = (await manager.tools()).find((t) => t.name === READ_MCP_RESOURCE_TOOL);
    if (found === undefined) throw new Error("no ReadMcpResourceTool");
    tool = found;
  });
  afterAll(async () => {
    await manager.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("reads a listed file verified against its size and digest", async () => {
    const result = await tool.run({ server: "ext", uri: "skill://greet/SKILL.md" }, ctx());
    expect(result.isError).toBe(false);
    expect(text(result)).toContain("Say hello to $ARGUMENTS.");
  });

  it("refuses a file of the skill that its manifest does not list", async () => {
    const result = await tool.run({ server: "ext", uri: "skill://greet/scripts/hello.py" }, ctx());
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(
      "skill://greet/scripts/hello.py was refused: it is not listed in the skill's manifest (skills/list entry skill://greet/SKILL.md)",
    );
  });

  it("refuses a listed file whose digest does not match", async () => {
    const result = await tool.run({ server: "bad", uri: "skill://greet/SKILL.md" }, ctx());
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(
      "skill://greet/SKILL.md was refused: it does not match the skill's manifest (digest)",
    );
  });

  it("reads resources outside every listed skill as before", async () => {
    const result = await tool.run({ server: "ext", uri: "file:///readme.txt" }, ctx());
    expect(text(result)).toContain("Unknown resource: file:///readme.txt");
  });
});
