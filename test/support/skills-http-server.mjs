#!/usr/bin/env node
// A modern-only MCP skills server for the tests: the official MCP TypeScript SDK's server (v2) serving protocol
// 2026-07-28 over streamable HTTP with `legacy: "reject"` (a client that only speaks the 2025 `initialize`
// handshake cannot connect), with the SDK's own Skills extension (SEP-2640) over a folder of real skills.
// Listens on 127.0.0.1 and prints `http://127.0.0.1:{port}/mcp` on stdout once it is ready.
//
//   node test/support/skills-http-server.mjs --root DIR
import { createServer } from "node:http";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { loadSkills } from "@modelcontextprotocol/server/ext/skills/node";

const argv = process.argv.slice(2);
const at = argv.indexOf("--root");
const root = at === -1 ? undefined : argv[at + 1];
if (root === undefined) {
  process.stderr.write("skills-http-server: --root DIR is required\n");
  process.exit(2);
}

const skills = await loadSkills(root);
const handler = createMcpHandler(
  () => {
    const mcp = new McpServer(
      { name: "corpus-skills-http", version: "1.0.0" },
      { instructions: "Skills over the 2026-07-28 protocol." },
    );
    skills.attach(mcp);
    return mcp;
  },
  { legacy: "reject" },
);

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
