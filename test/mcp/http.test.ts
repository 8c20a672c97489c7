// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` references in MCP configs are the subject of these tests.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createNodeFs } from "../../src/io/fs.js";
import { loadMcpConfigs } from "../../src/mcp/config.js";
import { createMcpManager } from "../../src/mcp/manager.js";

let http: Server;
let url: string;
const seen: IncomingHttpHeaders[] = [];

function mcpServer(): McpServer {
  const server = new McpServer({ name: "http-test", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Echoes", inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
    ({ text }) => ({ content: [{ type: "text", text: `echo: ${text}` }] }),
  );
  server.registerPrompt("hello", { description: "Says hello" }, () => ({
    messages: [{ role: "user", content: { type: "text", text: "hello there" } }],
  }));
  return server;
}

beforeAll(async () => {
  http = createServer(async (req, res) => {
    seen.push(req.headers);
    // Stateless: a fresh server and transport per request.
    const server = mcpServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  await new Promise((resolve) => http.close(resolve));
});

describe("streamable HTTP", () => {
  it("connects with headers from the config, lists and calls tools and prompts", async () => {
    const inline = JSON.stringify({
      mcpServers: { web: { type: "http", url: "${MCP_URL}", headers: { Authorization: "Bearer ${TOKEN}" } } },
    });
    const configs = await loadMcpConfigs({
      fs: createNodeFs(),
      files: [inline],
      env: { MCP_URL: url, TOKEN: "s3cret" },
    });
    expect(configs.diagnostics).toEqual([]);
    const manager = createMcpManager({
      servers: configs.servers,
      env: {},
      cwd: "/",
      clientInfo: { name: "t", version: "1" },
    });
    try {
      const tools = await manager.tools();
      expect(tools.map((t) => [t.name, t.readOnly])).toEqual([["mcp__web__echo", true]]);
      const result = await tools[0]?.run(
        { text: "hi" },
        { cwd: "/", signal: new AbortController().signal, toolUseId: "1" },
      );
      expect(result?.content).toEqual([{ type: "text", text: "echo: hi" }]);
      const [hello] = await manager.prompts();
      expect(hello?.name).toBe("mcp__web__hello");
      expect(await hello?.loadBody(undefined, "ignored words")).toBe("hello there");
      expect(await manager.skills()).toEqual([]);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((h) => h.authorization === "Bearer s3cret")).toBe(true);
      expect(manager.status()).toEqual([{ name: "web", state: "connected", pid: undefined }]);
    } finally {
      await manager.close();
    }
  });

  it("an unreachable URL is a diagnostic", async () => {
    const manager = createMcpManager({
      servers: { gone: { type: "http", url: "http://127.0.0.1:1/mcp" } },
      env: {},
      cwd: "/",
      clientInfo: { name: "t", version: "1" },
      timeoutMs: 2_000,
    });
    expect(await manager.tools()).toEqual([]);
    expect(manager.diagnostics()).toEqual([
      expect.objectContaining({
        severity: "error",
        code: "mcp-failed",
        message: expect.stringMatching(/"gone" failed to start/),
      }),
    ]);
    await manager.close();
  });
});
