/** The error types of the Anthropic API, each with the status the SDK maps to its error class. */
export const API_ERRORS = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  conflict_error: 409,
  request_too_large: 413,
  not_implemented_error: 501,
  api_error: 500,
} as const;

/** One of {@link API_ERRORS}' types. */
export type ApiErrorType = keyof typeof API_ERRORS;

/** An error a request answers with: `{type:"error",error:{type,message}}` and the type's status. */
export class ApiError extends Error {
  /** The error type in the body. */
  readonly type: ApiErrorType;
  /** The HTTP status. */
  readonly status: (typeof API_ERRORS)[ApiErrorType];
  constructor(type: ApiErrorType, message: string) {
    super(message);
    this.type = type;
    this.status = API_ERRORS[type];
  }
}

/** A 400 `invalid_request_error`. */
export function invalid(message: string): ApiError {
  return new ApiError("invalid_request_error", message);
}

/** A 404 `not_found_error` naming what was not found (another workspace's ids are not found either). */
export function notFound(what: string, id: string): ApiError {
  return new ApiError("not_found_error", `${what} ${JSON.stringify(id)} not found`);
}
