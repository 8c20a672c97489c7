// A local OTLP/HTTP receiver for telemetry tests: it keeps every POST (path, headers, body) and answers 200.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One OTLP/HTTP export the receiver got. */
export interface Export {
  path: string;
  contentType: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A local OTLP/HTTP receiver on a free port: it keeps every POST and answers 200. */
export async function startReceiver(): Promise<{
  url: string;
  exports: Export[];
  close: () => Promise<void>;
}> {
  const exports: Export[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      exports.push({
        path: req.url ?? "",
        contentType: req.headers["content-type"] ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      res.writeHead(200, { "content-type": req.headers["content-type"] ?? "application/json" });
      res.end(req.headers["content-type"]?.includes("json") ? "{}" : "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exports,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface JsonSpan {
  name: string;
  spanId: string;
  parentSpanId?: string;
  attributes: {
    key: string;
    value: { stringValue?: string; intValue?: string | number; boolValue?: boolean };
  }[];
}

export function spansOf(exports: readonly Export[]): JsonSpan[] {
  return exports
    .filter((e) => e.path === "/v1/traces")
    .flatMap((e) => {
      const body = JSON.parse(e.body.toString("utf8")) as {
        resourceSpans: { scopeSpans: { spans: JsonSpan[] }[] }[];
      };
      return body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    });
}

/** A JSON span's attribute value by key (string, int or bool), or undefined. */
export const attr = (span: JsonSpan | undefined, key: string) => {
  const value = span?.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? value?.intValue ?? value?.boolValue;
};
