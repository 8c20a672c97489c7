// Serves an MCP handler (the official MCP TypeScript SDK's `createMcpHandler`, a web-standard `fetch` face) over
// node:http on 127.0.0.1, prints `http://127.0.0.1:{port}/mcp` on stdout once it listens, and closes on SIGTERM.
// The test MCP servers over HTTP (tools-http-server.mjs, skills-http-server.mjs) share it.
import { createServer } from "node:http";

/** @param {{ fetch(request: Request): Promise<Response>, close(): Promise<unknown> }} handler */
export function serveMcpHandler(handler) {
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
}
