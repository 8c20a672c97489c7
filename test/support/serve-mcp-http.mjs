// Serves an MCP handler (the official MCP TypeScript SDK's `createMcpHandler`, a web-standard `fetch` face) over
// node:http on 127.0.0.1, prints `http://127.0.0.1:{port}/mcp` on stdout once it listens, and closes on SIGTERM.
// The test MCP servers over HTTP (tools-http-server.mjs, skills-http-server.mjs) share it.
//
// For the tests that change a server under a connected client, it also answers, outside `/mcp`:
//   GET  /control/stats          `{ "methods": { "<JSON-RPC method>": count }, "listening": n }`: what the
//                                server was asked, and how many `subscriptions/listen` streams are open now
//   POST /control/drop-listen    cuts every open `subscriptions/listen` stream (a proxy or network drop)
//   POST /control/{name}         runs `control[name]()` and answers its result as JSON
import { createServer } from "node:http";

/** The JSON-RPC methods of a request body (one message or a batch); empty when it is not JSON-RPC. */
function methodsOf(body) {
  if (body === undefined) return [];
  try {
    const parsed = JSON.parse(body.toString("utf8"));
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    return messages.map((m) => m?.method).filter((m) => typeof m === "string");
  } catch {
    return [];
  }
}

/**
 * @param {{ fetch(request: Request): Promise<Response>, close(): Promise<unknown> }} handler
 * @param {Record<string, () => Promise<unknown>>} [control]
 */
export function serveMcpHandler(handler, control = {}) {
  const methods = {};
  const listening = new Set();
  const answer = (res, status, value) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(value));
  };
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const url = req.url ?? "/";
    if (url.startsWith("/control/")) {
      const name = url.slice("/control/".length);
      if (name === "stats") return answer(res, 200, { methods, listening: listening.size });
      if (name === "drop-listen") {
        const dropped = listening.size;
        for (const stream of listening) stream.destroy();
        listening.clear();
        return answer(res, 200, { dropped });
      }
      const run = control[name];
      if (req.method !== "POST" || run === undefined)
        return answer(res, 404, { error: `no control ${name}` });
      return answer(res, 200, await run());
    }
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) {
      if (typeof value === "string") headers.set(key, value);
      else if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    }
    const body = chunks.length === 0 || req.method === "GET" ? undefined : Buffer.concat(chunks);
    const asked = methodsOf(body);
    for (const method of asked) methods[method] = (methods[method] ?? 0) + 1;
    const isListen = asked.includes("subscriptions/listen");
    if (isListen) {
      listening.add(res);
      res.on("close", () => listening.delete(res));
    }
    const request = new Request(`http://127.0.0.1${url}`, { method: req.method, headers, body });
    const response = await handler.fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
    if (response.body === null) return void res.end();
    try {
      for await (const chunk of response.body) {
        if (res.destroyed) break;
        res.write(chunk);
      }
    } finally {
      res.end();
    }
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
