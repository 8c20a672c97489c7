import { describe, expect, it } from "vitest";
import { stopFailureError } from "../../src/session/stop-failure.js";

describe("stopFailureError", () => {
  it.each([
    ["rate_limit", "rate_limit"],
    ["auth", "authentication_failed"],
    ["overloaded", "server_error"],
    ["server", "server_error"],
    ["bad_request", "invalid_request"],
    ["prompt_too_long", "invalid_request"],
    ["connection", "unknown"],
  ])("%s is %s", (kind, error) => {
    expect(stopFailureError(kind)).toBe(error);
  });
});
