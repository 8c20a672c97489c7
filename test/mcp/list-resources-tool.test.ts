import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIST_MCP_RESOURCES_TOOL } from "../../src/mcp/list-resources-tool.js";
import { createMcpManager, type McpManager } from "../../src/mcp/manager.js";
import type { Tool, ToolContext } from "../../src/tools/define-tool.js";
import { testServer } from "./support.js";

const ctx = (): ToolContext => ({ cwd: "/", signal: new AbortController().signal, toolUseId: "t1" });
const text = (result: Awaited<ReturnType<Tool["run"]>>) =>
  result.content.map((c) => (c.type === "text" ? c.text : "")).join("|");

describe("ListMcpResourcesTool", () => {
  let dir: string;
  let manager: McpManager;
  let tool: Tool;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "skillwright-mcp-list-"));
    manager = createMcpManager({
      servers: { tst: testServer(), idx: testServer("--no-index") },
      env: process.env,
      cwd: dir,
      clientInfo: { name: "t", version: "0" },
    });
    const found = (await manager.tools()).find((t) => t.name === LIST_MCP_RESOURCES_TOOL);
    if (found === undefined) throw new Error("no ListMcpResourcesTool");
    tool = found;
  });
  afterAll(async () => {
    await manager.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("lists every server's resources, each naming its server; read-only", async () => {
    expect(tool.readOnly).toBe(true);
    const result = await tool.run({}, ctx());
    expect(result.isError).toBe(false);
    const entries = JSON.parse(text(result)) as { server: string; uri: string }[];
    expect(entries.map((e) => `${e.server} ${e.uri}`)).toEqual([
      "tst skill://greet/SKILL.md",
      "tst skill://acme/lint-rules/SKILL.md",
      "tst skill://index.json",
      "tst file:///readme.txt",
      "idx skill://greet/SKILL.md",
      "idx skill://acme/lint-rules/SKILL.md",
      "idx file:///readme.txt",
    ]);
  });

  it("{server} lists that server only; an unknown server is an is_error result", async () => {
    const one = JSON.parse(text(await tool.run({ server: "idx" }, ctx()))) as { server: string }[];
    expect(new Set(one.map((e) => e.server))).toEqual(new Set(["idx"]));
    const unknown = await tool.run({ server: "nope" }, ctx());
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toContain('no MCP server "nope" (servers: tst, idx)');
  });
});
