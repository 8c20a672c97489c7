/** The outcome of a permission check (STYLE 6: decisions are unions). */
export type PermissionDecision =
  | { behavior: "allow"; reason?: string }
  | { behavior: "deny"; reason: string }
  | { behavior: "ask"; prompt: string };

/** Rules as written in settings files: `Skill(name)`, `Skill(prefix:*)`, `Bash(git add:*)`, `Read(./src/**)`, `Read`. */
export interface PermissionRules {
  allow: string[];
  deny: string[];
  ask: string[];
}

export const EMPTY_RULES: PermissionRules = { allow: [], deny: [], ask: [] };

/** The host's answer to an `ask`: allow once, or deny with an optional reason. */
export type AskPermission = (request: {
  tool: string;
  prompt: string;
  signal?: AbortSignal;
}) => Promise<boolean>;
