// A `fetch` over node:http / node:https for the SDK. Node's own fetch (undici) pulls in http2, tls, worker
// threads and a WebAssembly HTTP parser on its first request: ~35 ms of a headless run's start-up here. The
// Messages API needs none of that: a POST with a JSON body and a streamed response. Requests this fast path
// does not cover (a `Request` object, a streamed or form body, another protocol) go to the platform fetch.
// Headers and responses are our own (lite-headers.ts, lite-response.ts): Node's `Headers` and `Response` load
// the same undici on first use.
import type { IncomingMessage } from "node:http";
import { pipeline, Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { LiteHeaders } from "./lite-headers.js";
import { LiteResponse } from "./lite-response.js";

/** The `fetch` signature the SDK takes. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Statuses whose response has no body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** The request bodies sent as they are; others take the platform fetch. */
type PlainBody = string | Uint8Array;

/** Sends the request over node:http(s) when it is a plain one, else through `fallback` (the platform fetch). */
export function createHttpFetch(fallback: Fetch = (input, init) => globalThis.fetch(input, init)): Fetch {
  return (input, init = {}) => {
    const url = typeof input === "string" ? new URL(input) : input instanceof URL ? input : undefined;
    const body = plainBody(init.body);
    if (url === undefined || body === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) {
      return fallback(input, init);
    }
    return send(url, init, body);
  };
}

function plainBody(body: RequestInit["body"]): PlainBody | null | undefined {
  if (body === undefined || body === null) return null;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return undefined;
}

async function send(url: URL, init: RequestInit, body: PlainBody | null): Promise<Response> {
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  const { request } = url.protocol === "https:" ? await import("node:https") : await import("node:http");
  const method = (init.method ?? "GET").toUpperCase();
  const headers: Record<string, string> = {};
  new LiteHeaders(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  if (body !== null && headers["content-length"] === undefined) {
    headers["content-length"] = String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength);
  }
  return new Promise<Response>((resolve, reject) => {
    const req = request(url, { method, headers, ...(signal === undefined ? {} : { signal }) }, (res) => {
      try {
        resolve(toResponse(res, url, method, signal));
      } catch (error) {
        res.destroy();
        reject(error);
      }
    });
    // After an abort, undici rejects with the signal's reason (an `AbortError` unless the caller gave another).
    req.on("error", (error) => reject(signal?.aborted === true ? signal.reason : fetchFailed(error)));
    req.end(body ?? undefined);
  });
}

/** Rejections look like undici's (`TypeError: fetch failed` with the socket error as `cause`). */
function fetchFailed(cause: Error): TypeError {
  return new TypeError("fetch failed", { cause });
}

function toResponse(
  res: IncomingMessage,
  url: URL,
  method: string,
  signal: AbortSignal | undefined,
): LiteResponse {
  const status = res.statusCode ?? 0;
  const headers = new LiteHeaders();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    headers.append(res.rawHeaders[i] ?? "", res.rawHeaders[i + 1] ?? "");
  }
  const init = { status, statusText: res.statusMessage ?? "", headers, url: url.href };
  if (NULL_BODY_STATUSES.has(status) || method === "HEAD") {
    res.resume();
    return new LiteResponse(null, init);
  }
  const body = decoded(res, headers.get("content-encoding"));
  if (signal !== undefined) failOnAbort(body, signal);
  return new LiteResponse(Readable.toWeb(body) as ReadableStream<Uint8Array>, init);
}

/**
 * An abort mid-body errors the body with the signal's reason, as the platform fetch does: the SDK ends a
 * stream quietly on an `AbortError`, but Node's own error for the cut response is a plain `Error: aborted`.
 */
function failOnAbort(body: Readable, signal: AbortSignal): void {
  const onAbort = () => body.destroy(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  body.once("close", () => signal.removeEventListener("abort", onAbort));
}

/** The body, decompressed when the server compressed it (only if the caller sent `accept-encoding`). */
function decoded(res: IncomingMessage, encoding: string | null): Readable {
  const decoder = decoderFor(encoding?.trim().toLowerCase());
  if (decoder === undefined) return res;
  // Errors go both ways: a cut response fails the body, and a cancelled body closes the response's socket.
  return pipeline(res, decoder, () => {});
}

function decoderFor(encoding: string | undefined): (NodeJS.ReadWriteStream & Readable) | undefined {
  switch (encoding) {
    case "gzip":
    case "x-gzip":
      return createGunzip();
    case "deflate":
      return createInflate();
    case "br":
      return createBrotliDecompress();
    default:
      return undefined;
  }
}
