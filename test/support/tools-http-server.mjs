#!/usr/bin/env node
// An MCP tools server for the serve tests: the official MCP TypeScript SDK's server (v2) over streamable HTTP,
// offering `lookup_stock` (answers `STOCK-FOR-{sku}: 7 left`) and `delete_everything` (answers
// `DELETED-EVERYTHING`; tests switch it off in the agent's toolset). Listens on 127.0.0.1 and prints
// `http://127.0.0.1:{port}/mcp` on stdout once it is ready. Each `tools/call` is appended to stderr as
// `called {name}`.
//
//   node test/support/tools-http-server.mjs
import { createServer } from "node:http";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";

const handler = createMcpHandler(() => {
  const mcp = new McpServer({ name: "stock-tools", version: "1.0.0" });
  mcp.registerTool(
    "lookup_stock",
    {
      description: "Looks up how many items of a SKU are in stock",
      inputSchema: z.object({ sku: z.string() }),
    },
    ({ sku }) => {
      process.stderr.write("called lookup_stock\n");
      return { content: [{ type: "text", text: `STOCK-FOR-${sku}: 7 left` }] };
    },
  );
  mcp.registerTool("delete_everything", { description: "Deletes every record" }, () => {
    process.stderr.write("called delete_everything\n");
    return { content: [{ type: "text", text: "DELETED-EVERYTHING" }] };
  });
  return mcp;
});

/** Bridges node:http to the handler's web-standard `fetch` face. */
const server = createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(key, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(key, v);
  }
  const body = chunks.length === 0 || req.method === "GET" ? undefined : Buffer.concat(chunks);
  const request = new Request(`http://127.0.0.1${req.url ?? "/"}`, { method: req.method, headers, body });
  const response = await handler.fetch(request);
  res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
  if (response.body === null) return void res.end();
  for await (const chunk of response.body) res.write(chunk);
  res.end();
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  process.stdout.write(`http://127.0.0.1:${port}/mcp\n`);
});
process.on("SIGTERM", () => {
  server.close();
  void handler.close().finally(() => process.exit(0));
});
