/** The slim SDK module's shape (type only: the SDK is loaded lazily by the client). */
export type Sdk = typeof import("./sdk.js");

/** Every way a model call can fail; `ModelError.kind` is one of these. */
export const MODEL_ERROR_KINDS = [
  "auth",
  "rate_limit",
  "overloaded",
  "server",
  "bad_request",
  "prompt_too_long",
  "connection",
  "timeout",
  "aborted",
  "stream_cut",
  "protocol",
  "unknown",
] as const;
export type ModelErrorKind = (typeof MODEL_ERROR_KINDS)[number];

/** The one error class for every failed model call. `status` is the HTTP status when there was one. */
export class ModelError extends Error {
  override readonly name = "ModelError";
  readonly kind: ModelErrorKind;
  readonly status: number | undefined;
  readonly requestId: string | undefined;

  constructor(
    kind: ModelErrorKind,
    message: string,
    extra: { status?: number; requestId?: string; cause?: unknown } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.kind = kind;
    this.status = extra.status;
    this.requestId = extra.requestId;
  }

  /** True for failures worth trying again later (rate limits, overload, server and transport errors). */
  get retryable(): boolean {
    return ["rate_limit", "overloaded", "server", "connection", "timeout", "stream_cut"].includes(this.kind);
  }
}

const KIND_BY_ERROR_TYPE: Readonly<Record<string, ModelErrorKind>> = {
  authentication_error: "auth",
  permission_error: "auth",
  billing_error: "auth",
  rate_limit_error: "rate_limit",
  overloaded_error: "overloaded",
  api_error: "server",
  timeout_error: "timeout",
  invalid_request_error: "bad_request",
  not_found_error: "bad_request",
  request_too_large: "bad_request",
};

const LABELS: Readonly<Record<ModelErrorKind, string>> = {
  auth: "Model API authentication failed",
  rate_limit: "Model API rate limit reached",
  overloaded: "Model API overloaded",
  server: "Model API server error",
  bad_request: "Model API rejected the request",
  prompt_too_long: "The prompt is too long for the model's context window",
  connection: "Could not reach the model API",
  timeout: "The model request timed out",
  aborted: "The model request was aborted",
  stream_cut: "The model stream was cut off before the message was complete",
  protocol: "The model API sent a malformed response",
  unknown: "The model request failed",
};

/** How deep `rootCause` follows `cause` chains. */
const MAX_CAUSE_DEPTH = 8;

const PROMPT_TOO_LONG = /prompt is too long|context window|too many tokens/i;

function kindForStatus(status: number | undefined): ModelErrorKind {
  if (status === undefined) return "unknown";
  if (status === 401 || status === 402 || status === 403) return "auth";
  if (status === 408) return "timeout";
  if (status === 429) return "rate_limit";
  if (status === 529) return "overloaded";
  if (status >= 500) return "server";
  if (status >= 400) return "bad_request";
  return "unknown";
}

/** The message of the innermost `cause` (e.g. `connect ECONNREFUSED …` under `fetch failed`). */
function rootCause(error: unknown): string {
  let current = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH; depth += 1) {
    if (!(current instanceof Error) || current.cause === undefined) break;
    current = current.cause;
  }
  return current instanceof Error ? current.message : String(current);
}

/**
 * Maps anything a model call threw to a {@link ModelError} with a message a user can act on: the HTTP status,
 * the API's own message and how many attempts were made. `streaming` says whether the response had started.
 */
export function toModelError(
  error: unknown,
  sdk: Sdk["SDK_ERRORS"],
  context: { signal: AbortSignal; attempts: number; streaming: boolean; baseURL: string; events?: number },
): ModelError {
  if (error instanceof ModelError) return error;
  if (context.signal.aborted || error instanceof sdk.APIUserAbortError) {
    return new ModelError("aborted", `${LABELS.aborted}.`, { cause: error });
  }
  const tries = context.attempts > 1 ? ` (gave up after ${context.attempts} attempts)` : "";
  if (error instanceof sdk.APIConnectionTimeoutError) {
    return new ModelError("timeout", `${LABELS.timeout} (${context.baseURL})${tries}.`, { cause: error });
  }
  if (error instanceof sdk.APIConnectionError) {
    const cause = rootCause(error);
    return new ModelError("connection", `${LABELS.connection} at ${context.baseURL}: ${cause}${tries}.`, {
      cause: error,
    });
  }
  if (error instanceof sdk.APIError) {
    const detail = error.apiMessage ?? error.message;
    let kind =
      (error.type === null ? undefined : KIND_BY_ERROR_TYPE[error.type]) ?? kindForStatus(error.status);
    if (kind === "bad_request" && PROMPT_TOO_LONG.test(detail)) kind = "prompt_too_long";
    const where = error.status === undefined ? " during streaming" : ` (HTTP ${error.status})`;
    return new ModelError(kind, `${LABELS[kind]}${where}: ${detail}${tries}`, {
      ...(error.status === undefined ? {} : { status: error.status }),
      ...(error.requestID == null ? {} : { requestId: error.requestID }),
      cause: error,
    });
  }
  if (context.streaming) {
    const after = context.events === undefined ? "" : ` (connection lost after ${context.events} events)`;
    return new ModelError("stream_cut", `${LABELS.stream_cut}${after}: ${rootCause(error)}`, {
      cause: error,
    });
  }
  return new ModelError("unknown", `${LABELS.unknown}: ${rootCause(error)}`, { cause: error });
}
