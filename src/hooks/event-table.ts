import { HOOK_EVENTS } from "./hook-events.js";

/** Claude Code's events that have a moment in skillwright but are not fired yet, with that moment. */
export const PENDING_HOOK_EVENTS: Readonly<Record<string, string>> = {};

/**
 * Claude Code's hook events that skillwright does not fire, each with why (SPEC §10): the engine has no moment
 * the event stands for. A hook for one is a `hook-unsupported` warning when it is loaded.
 */
export const UNFIRED_HOOK_EVENTS = {
  Setup: "no set-up run: skillwright has no `--init` or maintenance mode",
  TaskCreated: "no task list: skillwright has no task tools",
  TaskCompleted: "no task list: skillwright has no task tools",
  TeammateIdle: "no agent teams",
  DirectoryAdded:
    "directories are added only at start (`--add-dir`), which the event does not cover: there is no mid-session `/add-dir`",
  CwdChanged: "a session's working directory never changes",
  FileChanged: "no watched-file list: the watcher follows skill folders only, which reload the catalog",
  WorktreeCreate: "skillwright creates no git worktrees",
  WorktreeRemove: "skillwright creates no git worktrees",
  Elicitation: "the MCP client does not offer elicitation",
  ElicitationResult: "the MCP client does not offer elicitation",
} as const satisfies Record<string, string>;

/** When each event skillwright fires does fire (SPEC §10), for the table in docs/behaviour.md. */
export const FIRED_WHEN: Readonly<Record<(typeof HOOK_EVENTS)[number], string>> = {
  PreToolUse:
    "before a tool call runs (after the permission rules); can block, allow, ask or change the input",
  PermissionRequest: "before a permission question is put to the user; can allow or deny",
  PostToolUse: "after a tool call succeeds; a block adds its reason to the result",
  PostToolUseFailure: "after a tool call fails; a block adds its reason to the result",
  PostToolBatch:
    "once every tool call of a batch has resolved, before the next request, with `tool_calls`; can add context, or block to end the turn there",
  UserPromptSubmit: "when a user message is sent, before the model sees it; can block it or add context",
  UserPromptExpansion: "when a typed `/name` expands, before the model sees it; can block it or add context",
  MessageDisplay:
    "once each main-agent message with text is complete (`index` 0, `final` true, `delta` the whole text); its `displayContent` is what the CLI shows instead",
  Stop: "when the main agent is about to end its turn; a block makes it go on with the reason",
  SubagentStart: "when a forked skill's sub-agent starts",
  SubagentStop: "when a sub-agent is about to answer; a block makes it go on with the reason",
  PreCompact: "before a compaction (`manual` or `auto`)",
  SessionStart: "at the first turn of a session (`source`: `startup`, or `resume` for a resumed one)",
  SessionEnd: "when a session closes",
  Notification: "just before a permission question is put to the user (`permission_prompt`)",
  PostCompact: "after a compaction succeeds, with the summary",
  PermissionDenied: "when the permissions refuse a tool call",
  StopFailure: "when the main agent's turn ends on a model error",
  InstructionsLoaded: "at the first turn, once per instruction file the system prompt holds",
  ConfigChange: "at the first turn after a reload swapped in new settings, plugins or agent types",
};

/** Whether skillwright fires an event of Claude Code's reference. */
export type HookEventStatus = "fired" | "not fired yet" | "not applicable";

/** Every event of Claude Code's hooks reference, fired or not, in the order of the code's lists. Pure. */
export function hookEventRows(): { event: string; status: HookEventStatus; text: string }[] {
  return [
    ...HOOK_EVENTS.map((event) => ({ event, status: "fired" as const, text: FIRED_WHEN[event] })),
    ...Object.entries(PENDING_HOOK_EVENTS).map(([event, text]) => ({
      event,
      status: "not fired yet" as const,
      text,
    })),
    ...Object.entries(UNFIRED_HOOK_EVENTS).map(([event, text]) => ({
      event,
      status: "not applicable" as const,
      text,
    })),
  ];
}

/**
 * The markdown table of docs/behaviour.md §10 (test/docs/hook-events-table.test.ts checks that the page holds
 * exactly this): one row per event, `fired` and when, or `not applicable` and why. Pure.
 */
export function hookEventTable(): string {
  const rows = hookEventRows().map(({ event, status, text }) => `| \`${event}\` | ${status} | ${text} |`);
  return ["| Event | Here | When it fires, or why not |", "| --- | --- | --- |", ...rows].join("\n");
}
