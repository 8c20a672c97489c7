#!/usr/bin/env node
// An MCP tools server for the serve tests: the official MCP TypeScript SDK's server (v2) over streamable HTTP,
// offering `lookup_stock` (answers `STOCK-FOR-{sku}: 7 left`) and `delete_everything` (answers
// `DELETED-EVERYTHING`; tests switch it off in the agent's toolset). Listens on 127.0.0.1 and prints
// `http://127.0.0.1:{port}/mcp` on stdout once it is ready. Each `tools/call` is appended to stderr as
// `called {name}`.
//
//   node test/support/tools-http-server.mjs
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { serveMcpHandler } from "./serve-mcp-http.mjs";

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

serveMcpHandler(handler);
