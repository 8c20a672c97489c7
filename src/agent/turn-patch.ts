import type { ModelEffort } from "../models.js";

/**
 * What a tool call may change for the rest of the current user turn (an inline skill's `model`, `effort`,
 * `allowed-tools` and `disallowed-tools`). Reverted at the next user message.
 */
export interface TurnPatch {
  model?: string;
  effort?: ModelEffort;
  /** Permission rules granted without asking. */
  grants?: string[];
  /** Tool names (or rules naming a tool) whose calls are refused for the rest of the turn. */
  removeTools?: string[];
  /** The skill whose `disallowed-tools` gave `removeTools` (named in the refusal). */
  removedBy?: string;
}

/** The per-turn request settings, derived from the session defaults and the patches applied so far. */
export interface TurnState {
  model: string;
  effort?: ModelEffort;
  grants: string[];
  removedTools: string[];
  /** The skill that removed each rule of `removedTools`, when a skill did. */
  removedBy?: Readonly<Record<string, string>>;
}

/** Applies a patch. Pure; `inherit` keeps the current model. */
export function applyPatch(state: TurnState, patch: TurnPatch): TurnState {
  const next: TurnState = {
    ...state,
    grants: [...state.grants, ...(patch.grants ?? [])],
    removedTools: [...state.removedTools, ...(patch.removeTools ?? [])],
  };
  const by = patch.removedBy;
  if (by !== undefined && (patch.removeTools ?? []).length > 0) {
    next.removedBy = {
      ...state.removedBy,
      ...Object.fromEntries((patch.removeTools ?? []).map((r) => [r, by])),
    };
  }
  if (patch.model !== undefined && patch.model !== "inherit") next.model = patch.model;
  if (patch.effort !== undefined) next.effort = patch.effort;
  return next;
}

/** The tool name a rule like `Bash(git:*)` or `Read` names. */
export function ruleToolName(rule: string): string {
  const paren = rule.indexOf("(");
  return (paren === -1 ? rule : rule.slice(0, paren)).trim();
}

/** True when a tool is removed for this turn: a bare rule names it (`Bash`, `Bash(*)` too). Pure. */
export function isToolRemoved(state: TurnState, toolName: string): boolean {
  return state.removedTools.some((rule) => {
    if (ruleToolName(rule) !== toolName) return false;
    const paren = rule.indexOf("(");
    return paren === -1 || rule.slice(paren).replace(/\s/g, "") === "(*)";
  });
}

/**
 * The error text for a call to a tool removed this turn, or undefined when the tool is not removed. The tools
 * array never changes within a session (a fixed prompt prefix): a removed tool stays offered and its calls are
 * refused here, naming the skill that removed it. Pure.
 */
export function removedToolRefusal(state: TurnState, toolName: string): string | undefined {
  const rule = state.removedTools.find((r) => isToolRemoved({ ...state, removedTools: [r] }, toolName));
  if (rule === undefined) return undefined;
  const skill = state.removedBy?.[rule];
  const by =
    skill === undefined ? "it is disallowed" : `the skill "${skill}" disallows it (disallowed-tools)`;
  return `The ${toolName} tool is not available for the rest of this turn: ${by}. Continue without it.`;
}
