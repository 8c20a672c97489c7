import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { checkMcpUrl, pinnedLookup, type ResolvedAddress, type ResolveHost } from "../io/url-guard.js";
import { networkDecision, type SandboxNetwork } from "./sandbox-network.js";

/** A running proxy: where it listens, and how to stop it. */
export interface SessionProxy {
  /** The Unix socket it listens on (a host path). */
  readonly socketPath: string;
  close(): Promise<void>;
}

/** What {@link startSessionProxy} decides with. */
export interface SessionProxyOptions {
  resolve: ResolveHost;
  /** How a refusal of a private address says to allow it. */
  allowHint?: (host: string) => string;
  /** The most connections the session's commands may hold open at once (default {@link PROXY_MAX_CONNECTIONS}). */
  maxConnections?: number;
}

/**
 * How many connections one session's commands may hold open through its proxy at once: enough for a package
 * manager's parallel downloads, not enough for one session to take the server's sockets from the others.
 */
export const PROXY_MAX_CONNECTIONS = 64;

/** Where a request may go: the address checked (absent for a host the operator allowed by name), or why not. */
type Verdict = { ok: true; pin?: ResolvedAddress } | { ok: false; reason: string };

/** The headers that concern one hop (the proxy's own), never forwarded. */
const HOP_HEADERS = new Set([
  "connection",
  "keep-alive",
  "proxy-authorization",
  "proxy-authenticate",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** `url`'s verdict: the network's rule, then the private-address rule of src/io/url-guard.ts. */
async function verdictFor(
  network: SandboxNetwork,
  url: string,
  options: SessionProxyOptions,
): Promise<Verdict> {
  const decision = networkDecision(network, url);
  if (!decision.allowed) return { ok: false, reason: decision.reason };
  return checkMcpUrl(url, {
    allowHosts: network.mode === "none" ? [] : (network.allowPrivateHosts ?? []),
    resolve: options.resolve,
    allowHint:
      options.allowHint ?? ((host) => `the operator must allow ${host} by name for sandboxes to reach it`),
  });
}

/** The body of a refusal: what a command's HTTP client shows. Pure. */
const refusalBody = (reason: string) => `skillwright sandbox refused this request: ${reason}\n`;

/** A refused tunnel's answer: the status (403 unless said) and the reason, as text and in a header. Pure. */
function refusalHead(reason: string, status = "403 Forbidden"): string {
  const body = refusalBody(reason);
  return (
    `HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n` +
    `X-Skillwright-Refused: ${encodeURIComponent(reason)}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

function refuse(response: ServerResponse, status: number, reason: string): void {
  const body = refusalBody(reason);
  response.writeHead(status, {
    "Content-Type": "text/plain; charset=utf-8",
    "X-Skillwright-Refused": encodeURIComponent(reason),
    Connection: "close",
  });
  response.end(body);
}

/** `host:port` of a CONNECT request as a URL the rules read (`https://host:port/`), or undefined. Pure. */
export function connectTarget(authority: string): { url: string; host: string; port: number } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(`https://${authority}/`);
  } catch {
    return undefined;
  }
  const port = Number(parsed.port || "443");
  if (parsed.username !== "" || parsed.password !== "" || !Number.isInteger(port) || port <= 0)
    return undefined;
  const host = parsed.hostname.startsWith("[") ? parsed.hostname.slice(1, -1) : parsed.hostname;
  return { url: parsed.href, host, port };
}

/**
 * An HTTP proxy on a Unix socket for one session's OS-tier commands, which have no network of their own: a
 * command reaches it through `HTTP_PROXY`/`HTTPS_PROXY` (a bridge inside the sandbox forwards a loopback port to
 * the socket). Each request, plain (`GET http://…`) or tunnelled (`CONNECT host:port`), is checked as the simulated
 * tier's `curl` is: the environment's network (none, limited to its hosts, unrestricted), then the private-address
 * rule (a loopback, private, link-local or metadata address only for a host the operator allowed by name), and the
 * connection goes to the address checked, so a second DNS answer cannot move it. A refusal is a 403 that says why.
 * Redirects are the command's own: each new request is checked again. A connection past the session's cap
 * (`maxConnections`) is answered 503 and closed.
 */
export async function startSessionProxy(
  network: SandboxNetwork,
  socketPath: string,
  options: SessionProxyOptions,
): Promise<SessionProxy> {
  const open = new Set<Socket | Duplex>();
  const track = (socket: Socket | Duplex) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  };
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const target = request.url ?? "";
    if (!/^http:\/\//i.test(target)) {
      refuse(response, 400, "the proxy takes absolute http:// requests and CONNECT tunnels only");
      return;
    }
    const verdict = await verdictFor(network, target, options);
    if (!verdict.ok) {
      refuse(response, 403, verdict.reason);
      return;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [key, value] of Object.entries(request.headers))
      if (value !== undefined && !HOP_HEADERS.has(key.toLowerCase())) headers[key] = value;
    const pin = verdict.pin;
    const upstream = httpRequest(target, {
      method: request.method ?? "GET",
      headers,
      ...(pin === undefined ? {} : { lookup: pinnedLookup(pin) }),
    });
    upstream.on("response", (answer) => {
      const forwarded: Record<string, string | string[]> = {};
      for (const [key, value] of Object.entries(answer.headers))
        if (value !== undefined && !HOP_HEADERS.has(key.toLowerCase())) forwarded[key] = value;
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwarded);
      answer.pipe(response);
    });
    upstream.on("error", (error) => {
      if (response.headersSent) response.destroy();
      else refuse(response, 502, `could not reach ${target}: ${error.message}`);
    });
    request.pipe(upstream);
  });
  const max = options.maxConnections ?? PROXY_MAX_CONNECTIONS;
  let clients = 0;
  server.on("connection", (socket: Socket) => {
    if (clients >= max) {
      socket.end(
        refusalHead(
          `this session already holds ${max} connections open through its proxy; close some and try again`,
          "503 Service Unavailable",
        ),
      );
      return;
    }
    clients++;
    socket.once("close", () => clients--);
    track(socket);
  });
  server.on("connect", async (request: IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    client.on("error", () => client.destroy());
    const target = connectTarget(request.url ?? "");
    if (target === undefined) {
      client.end(refusalHead(`${JSON.stringify(request.url ?? "")} is not a host:port`));
      return;
    }
    const verdict = await verdictFor(network, target.url, options);
    if (!verdict.ok) {
      client.end(refusalHead(verdict.reason));
      return;
    }
    const upstream = connect({ host: verdict.pin?.address ?? target.host, port: target.port });
    track(upstream);
    let connected = false;
    upstream.once("connect", () => {
      connected = true;
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", (error) => {
      if (!connected) client.end(refusalHead(`could not reach ${target.host}: ${error.message}`));
      else client.destroy();
    });
    client.on("close", () => upstream.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    socketPath,
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
