import type { MiddlewareHandler } from "hono";
import { newId } from "../store/ids.js";
import type { ServeEnv } from "./env.js";

/** The response header that carries a request's id; the SDK shows it in its errors (`error.requestID`). */
export const REQUEST_ID_HEADER = "request-id";

/** What the access log needs: where lines go and a clock (injected so tests need no real one). */
export interface AccessLogDeps {
  /** Writes one line (no newline); `serve` sends them to stderr. */
  write: (line: string) => void;
  /** Milliseconds since the epoch. */
  now: () => number;
}

/**
 * One access log line: when the request came, its id, method, path (no query: it may carry a cursor or a
 * name), status and how long the answer took to start (a stream's headers, not its end). Pure.
 */
export function accessLogLine(entry: {
  startedAt: number;
  requestId: string;
  method: string;
  path: string;
  status: number;
  ms: number;
}): string {
  const when = new Date(entry.startedAt).toISOString();
  return `${when} ${entry.requestId} ${entry.method} ${entry.path} ${entry.status} ${Math.round(entry.ms)}ms`;
}

/**
 * A middleware that gives every request an id (`req_…`, the context's `requestId`), returns it as the
 * `request-id` header, and writes
 * one {@link accessLogLine} per request once its response is ready (an error's too).
 */
export function accessLog(deps: AccessLogDeps): MiddlewareHandler<ServeEnv> {
  return async (c, next) => {
    const startedAt = deps.now();
    const requestId = newId("req");
    c.set("requestId", requestId);
    c.header(REQUEST_ID_HEADER, requestId);
    try {
      await next();
    } finally {
      // A response a route built itself (not through `c`) has no prepared headers: add the id to it too.
      if (c.res.headers.get(REQUEST_ID_HEADER) !== requestId) c.header(REQUEST_ID_HEADER, requestId);
      deps.write(
        accessLogLine({
          startedAt,
          requestId,
          method: c.req.method,
          path: c.req.path,
          status: c.res.status,
          ms: deps.now() - startedAt,
        }),
      );
    }
  };
}
