import type { ModelEffort } from "./models.js";

/**
 * What a tool call may change for the rest of the current user turn (an inline skill's `model`, `effort`,
 * `allowed-tools` and `disallowed-tools`). Reverted at the next user message.
 */
export interface TurnPatch {
  model?: string;
  effort?: ModelEffort;
  /** Permission rules granted without asking. */
  grants?: string[];
  /** Tool names (or rules naming a tool) taken out of the tool list. */
  removeTools?: string[];
}

/** The per-turn request settings, derived from the session defaults and the patches applied so far. */
export interface TurnState {
  model: string;
  effort?: ModelEffort;
  grants: string[];
  removedTools: string[];
}

/** Applies a patch. Pure; `inherit` keeps the current model. */
export function applyPatch(state: TurnState, patch: TurnPatch): TurnState {
  const next: TurnState = {
    ...state,
    grants: [...state.grants, ...(patch.grants ?? [])],
    removedTools: [...state.removedTools, ...(patch.removeTools ?? [])],
  };
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
