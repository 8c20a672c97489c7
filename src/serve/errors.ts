/** The error types of the Anthropic API, each with the status the SDK maps to its error class. */
export const API_ERRORS = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  conflict_error: 409,
  request_too_large: 413,
  rate_limit_error: 429,
  not_implemented_error: 501,
  api_error: 500,
  overloaded_error: 503,
} as const;

/** One of {@link API_ERRORS}' types. */
export type ApiErrorType = keyof typeof API_ERRORS;

/**
 * The finer error object a 409 of the memory API carries in place of `conflict_error`, as the SDK types it
 * (`BetaManagedAgentsMemoryPathConflictErrorObject`, `…MemoryPreconditionFailedErrorObject`).
 */
export type ConflictDetail =
  | { type: "memory_path_conflict_error"; conflicting_memory_id: string; conflicting_path: string }
  | { type: "memory_precondition_failed_error" };

/** An error a request answers with: `{type:"error",error:{type,message}}` and the type's status. */
export class ApiError extends Error {
  /** The error type in the body. */
  readonly type: ApiErrorType;
  /** The HTTP status. */
  readonly status: (typeof API_ERRORS)[ApiErrorType];
  /** For a 409 of the memory API: the typed error object the body carries instead of `conflict_error`. */
  readonly detail: ConflictDetail | undefined;
  constructor(type: ApiErrorType, message: string, detail?: ConflictDetail) {
    super(message);
    this.type = type;
    this.status = API_ERRORS[type];
    this.detail = detail;
  }
}

/** A 409 whose body names the memory API's finer error (`memory_path_conflict_error`, …). */
export function memoryConflict(message: string, detail: ConflictDetail): ApiError {
  return new ApiError("conflict_error", message, detail);
}

/** A 400 `invalid_request_error`. */
export function invalid(message: string): ApiError {
  return new ApiError("invalid_request_error", message);
}

/**
 * A 501 `not_implemented_error`: `what` (a call, a field, an event type) is part of the API that skillwright
 * serve does not implement; `instead`, when given, says what to do instead. The SDK throws it as `InternalServerError` (status 501) and, told so by
 * {@link retryHeader}, does not retry it.
 */
export function notImplemented(what: string, instead?: string): ApiError {
  const hint = instead === undefined ? "" : `; ${instead}`;
  return new ApiError("not_implemented_error", `${what} is not implemented by skillwright serve${hint}`);
}

/**
 * The `x-should-retry` header an error answer carries: `false` for a 409 conflict and a 501 (asking again
 * gets the same answer, and the SDK retries both by default, waiting between tries); none otherwise. Pure.
 */
export function retryHeader(error: ApiError): Record<string, string> {
  return error.type === "conflict_error" || error.type === "not_implemented_error"
    ? { "x-should-retry": "false" }
    : {};
}

/** A 404 `not_found_error` naming what was not found (another workspace's ids are not found either). */
export function notFound(what: string, id: string): ApiError {
  return new ApiError("not_found_error", `${what} ${JSON.stringify(id)} not found`);
}

/** Node socket error codes that mean the database server cannot be reached. */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
]);

/**
 * Whether `code` (a Node socket code or a PostgreSQL SQLSTATE) says the database connection is gone:
 * SQLSTATE class 08 (connection exception), 57P01–57P03 (the server is shutting down or starting). Pure.
 */
function unreachableCode(code: unknown): boolean {
  if (typeof code !== "string") return false;
  return UNREACHABLE_CODES.has(code) || code.startsWith("08") || /^57P0[123]$/.test(code);
}

/** `pg`'s own messages for a connection that ended under a query or a client that cannot query any more. */
const LOST_CONNECTION = /Connection terminated|connection error and is not queryable|Connection ended/i;

/**
 * A 503 `overloaded_error` when `error` (or one of its causes) is a lost or refused database connection, as
 * while PostgreSQL restarts; otherwise `undefined`. Pure: it only reads the error.
 */
export function databaseUnavailable(error: unknown): ApiError | undefined {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next !== "object" || next === null || seen.has(next)) continue;
    seen.add(next);
    const code = "code" in next ? next.code : undefined;
    const message = next instanceof Error ? next.message : "";
    if (unreachableCode(code) || LOST_CONNECTION.test(message)) {
      return new ApiError("overloaded_error", "the database is unavailable; retry shortly");
    }
    if ("cause" in next) pending.push(next.cause);
    if (next instanceof AggregateError) pending.push(...next.errors);
  }
  return undefined;
}

/**
 * The API error a failure answers with: an {@link ApiError} as it is, a lost database connection as a 503
 * `overloaded_error`, anything else as a 500 `api_error` (whose details stay in the server's log). Pure.
 */
export function apiErrorFor(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return databaseUnavailable(error) ?? new ApiError("api_error", "internal error; see the server's log");
}

/**
 * The body of an error answer (and of an event stream's `error` message): `{type:"error",error:{type,message},
 * request_id}`, with a memory conflict's own type and fields in place of `conflict_error`. `requestId` is the
 * request's own (its `request-id` header), so a log line and what the client shows name the same request.
 */
export function errorBody(
  error: ApiError,
  requestId: string,
): {
  type: "error";
  error: { type: ApiErrorType | ConflictDetail["type"]; message: string };
  request_id: string;
} {
  const detail =
    error.detail !== undefined
      ? { ...error.detail, message: error.message }
      : { type: error.type, message: error.message };
  return { type: "error", error: detail, request_id: requestId };
}
