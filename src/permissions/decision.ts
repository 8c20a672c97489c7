/** The outcome of a permission check (STYLE 6: decisions are unions). */
export type PermissionDecision =
  | { behavior: "allow"; reason?: string }
  | { behavior: "deny"; reason: string }
  | {
      behavior: "ask";
      /** The question for the host's `askPermission`. */
      prompt: string;
      /** What needs approval and why, for the model when no one can be asked (SPEC §14.9). */
      reason?: string;
    };

/** Rules as written in settings files: `Skill(name)`, `Skill(prefix:*)`, `Bash(git add:*)`, `Read(./src/**)`, `Read`. */
export interface PermissionRules {
  allow: readonly string[];
  deny: readonly string[];
  ask: readonly string[];
  /**
   * Absolute directories besides the working directory that commands may write to without asking
   * (`--add-dir`, settings `permissions.additionalDirectories`).
   */
  additionalDirectories?: readonly string[];
}

export const EMPTY_RULES: PermissionRules = { allow: [], deny: [], ask: [] };

/**
 * The host's answer to an `ask`: `true` allows once; `false` denies; `{ deny }` denies with that text for the
 * model; `undefined` says no one could be asked (as headless: the ask's own text goes to the model).
 */
export type PermissionAnswer = boolean | { deny: string } | undefined;

/** The host's callback for an `ask`; `toolUseId` and `input` name the tool call when there is one. */
export type AskPermission = (request: {
  tool: string;
  prompt: string;
  signal?: AbortSignal;
  toolUseId?: string;
  input?: unknown;
  /**
   * The allow rule that would cover calls like this one (`Bash(git add:*)`), for a host that offers "allow
   * always" and saves it; absent when none fits (see `suggestedRule`). The first of `rules`.
   */
  rule?: string;
  /** Every rule "allow always" may write, narrowest first (`Skill(plug:review)`, `Skill(plug:*)`); see `suggestedRules`. */
  rules?: readonly string[];
}) => Promise<PermissionAnswer>;

/** A tool call about to run, as a {@link BeforeToolRun} hears of it. */
export interface ToolCallRef {
  /** The model's tool-use id. */
  id: string;
  name: string;
  /** The sub-agent making the call; undefined for the main agent. */
  agentId?: string;
}

/**
 * Awaited after a call is allowed (its decision told) and before it runs: a host that must record the call
 * first (serve's event log, the audit trail) resolves once it is recorded. A rejection stops the call unrun.
 */
export type BeforeToolRun = (call: ToolCallRef, signal: AbortSignal) => Promise<void>;
