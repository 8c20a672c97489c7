// The hook event names, without zod: plugin loading checks and expands them before any hook config is parsed.

/** The hook events skillwright fires (SPEC §10), in lifecycle order. */
export const HOOK_EVENTS = [
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
  "PostToolBatch",
  "UserPromptSubmit",
  "UserPromptExpansion",
  "MessageDisplay",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "SessionStart",
  "SessionEnd",
  "Notification",
  "PostCompact",
  "PermissionDenied",
  "StopFailure",
  "InstructionsLoaded",
  "ConfigChange",
] as const;

/**
 * The hook types skillwright runs (SPEC §10): a command, an HTTP POST, a prompt the model judges in one request,
 * a prompt a sub-agent with read-only tools judges, or a tool of one of the session's MCP servers.
 */
export const HOOK_TYPES = ["command", "http", "prompt", "agent", "mcp_tool"] as const;
