import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request an HTTP hook made: its parsed JSON body and its headers. */
export interface HookRequest {
  path: string;
  body: Record<string, unknown>;
  headers: IncomingHttpHeaders;
}

/** A real local HTTP hook endpoint (node:http on port 0). */
export interface HookServer {
  url: string;
  requests: HookRequest[];
  close(): Promise<void>;
}

/**
 * Starts a hook endpoint whose `answer` decides each response from the request (write a status and body, or
 * leave the response open to play a hook that never answers). Requests are recorded before `answer` runs.
 * It listens on 127.0.0.1, or with `anyLoopback` on every address (so `localhost` reaches it over IPv6 too).
 */
export async function startHookServer(
  answer: (request: HookRequest, res: ServerResponse) => void,
  options: { anyLoopback?: boolean } = {},
): Promise<HookServer> {
  const requests: HookRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = {
        path: req.url ?? "",
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>,
        headers: req.headers,
      };
      requests.push(request);
      answer(request, res);
    });
  });
  await new Promise<void>((resolve) =>
    options.anyLoopback === true ? server.listen(0, resolve) : server.listen(0, "127.0.0.1", resolve),
  );
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers 200 with `body` as JSON. */
export function json(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
