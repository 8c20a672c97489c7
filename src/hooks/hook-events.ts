// The hook event names, without zod: plugin loading checks and expands them before any hook config is parsed.

/** The hook events skillwright fires (SPEC §10), in lifecycle order. */
export const HOOK_EVENTS = [
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
  "UserPromptSubmit",
  "UserPromptExpansion",
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

/** The hook types skillwright runs (SPEC §10): a command, an HTTP POST, or a prompt the model judges. */
export const HOOK_TYPES = ["command", "http", "prompt"] as const;
