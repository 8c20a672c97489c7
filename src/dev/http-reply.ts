import type { IncomingMessage, ServerResponse } from "node:http";
import type { ScriptFault } from "./model-script.js";
import { errorTypeForStatus, newId } from "./wire-message.js";

/** Request bodies above this size get a 413. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Sends `body` as JSON with `status`, a fresh `request-id` header and any extra `headers`. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "request-id": newId("req_"),
    ...headers,
  });
  res.end(text);
}

/** Sends an Anthropic-style error body (`{type: "error", error: {type, message}}`) for `status`. */
export function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  headers?: Record<string, string>,
): void {
  sendJson(res, status, { type: "error", error: { type: errorTypeForStatus(status), message } }, headers);
}

/** Sends a scripted HTTP fault: its status, body (or a default error body) and retry headers. */
export function sendHttpFault(res: ServerResponse, fault: Extract<ScriptFault, { kind: "http" }>): void {
  const headers: Record<string, string> = {};
  if (fault.retryAfterSeconds !== undefined) headers["retry-after"] = String(fault.retryAfterSeconds);
  if (fault.retryAfterMs !== undefined) headers["retry-after-ms"] = String(fault.retryAfterMs);
  if (fault.shouldRetry !== undefined) headers["x-should-retry"] = String(fault.shouldRetry);
  const type = fault.errorType ?? errorTypeForStatus(fault.status);
  const body = fault.body ?? { type: "error", error: { type, message: fault.message ?? `Scripted ${type}` } };
  sendJson(res, fault.status, body, headers);
}

/** Writes and waits until the chunk reached the socket, or until the request is gone. */
export function writeFlushed(res: ServerResponse, text: string, signal: AbortSignal): Promise<void> {
  if (signal.aborted || res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      signal.removeEventListener("abort", done);
      resolve();
    };
    signal.addEventListener("abort", done, { once: true });
    res.write(text, done);
  });
}

/** The request body as UTF-8 text, or undefined when it exceeds {@link MAX_BODY_BYTES}. */
export async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The request headers with lower-cased names; repeated headers joined with `, `. */
export function headerRecord(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}
