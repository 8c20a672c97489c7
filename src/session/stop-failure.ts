import type { AgentResult } from "../agent/events.js";
import type { HookPayload } from "../hooks/dispatch.js";

/** Claude Code's `error` values for StopFailure, which its matchers match. */
export const STOP_FAILURE_ERRORS = [
  "rate_limit",
  "authentication_failed",
  "billing_error",
  "invalid_request",
  "server_error",
  "max_output_tokens",
  "unknown",
] as const;

/** The StopFailure `error` for a model error kind (`ModelError.kind`). Pure. */
export function stopFailureError(kind: string): (typeof STOP_FAILURE_ERRORS)[number] {
  switch (kind) {
    case "rate_limit":
      return "rate_limit";
    case "auth":
      return "authentication_failed";
    case "overloaded":
    case "server":
      return "server_error";
    case "bad_request":
    case "prompt_too_long":
      return "invalid_request";
    default:
      return "unknown";
  }
}

/**
 * The StopFailure payload (Claude Code's fields) for a turn that ended on a model error: `error` (see
 * {@link stopFailureError}), `error_details` (our message) and `last_assistant_message`. Pure.
 */
export function stopFailurePayload(result: AgentResult): HookPayload {
  return {
    error: stopFailureError(result.error?.kind ?? "unknown"),
    error_details: result.error?.message ?? "",
    last_assistant_message: result.text,
  };
}
