import type { RunHooks } from "../hooks/runner.js";
import type { PermissionDecision } from "../permissions/decision.js";

/**
 * Fires PermissionRequest (Claude Code's payload: `tool_name`, `tool_input`) for a call that would be asked
 * about, and turns the hooks' answer into a decision: `hookSpecificOutput.decision.behavior` `allow` allows,
 * `deny` (or exit 2) denies with the hook's `message` (or stderr); no answer gives undefined (ask as usual).
 */
export async function permissionRequestVerdict(
  runHooks: RunHooks,
  tool: string,
  input: unknown,
  signal?: AbortSignal,
): Promise<PermissionDecision | undefined> {
  const result = await runHooks("PermissionRequest", { tool_name: tool, tool_input: input }, signal);
  const verdict = result.permission;
  if (verdict === undefined || verdict.decision === "ask") return undefined;
  if (verdict.decision === "allow")
    return { behavior: "allow", reason: "allowed by a PermissionRequest hook" };
  return {
    behavior: "deny",
    reason: `PermissionRequest hook denied ${tool}: ${verdict.reason ?? "no reason given"}`,
  };
}
