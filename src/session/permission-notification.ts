import type { HookPayload } from "../hooks/dispatch.js";

/**
 * The Notification payload (Claude Code's fields) for a permission question about to be put to the user:
 * `notification_type: "permission_prompt"`, `message` and `title`. Pure.
 */
export function permissionNotification(tool: string): HookPayload {
  return {
    notification_type: "permission_prompt",
    message: `skillwright needs your permission to use ${tool}`,
    title: "Permission needed",
  };
}
