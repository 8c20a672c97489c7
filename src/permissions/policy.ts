import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { decide } from "./decide.js";
import type { AskPermission, BeforeToolRun, PermissionDecision, PermissionRules } from "./decision.js";
import type { PermissionSubject } from "./rules.js";
import { suggestedRules } from "./suggested-rule.js";

/** Tools whose subject is a file path (permission rules match it as a gitignore-style glob). */
export const PATH_TOOLS: ReadonlySet<string> = new Set(["Read", "Write", "Edit", "Grep", "Glob", "LS"]);
/** Tools whose subject is a shell command. */
export const COMMAND_TOOLS: ReadonlySet<string> = new Set(["Bash"]);

/** What a call acts on, for permission rules: the command for Bash, the absolute path for file tools. Pure. */
export function permissionSubject(
  tool: { name: string; subject(input: unknown): string | undefined },
  input: unknown,
  cwd: string,
  home?: string,
) {
  const raw = tool.subject(input);
  if (raw === undefined) return { kind: "none" } as const satisfies PermissionSubject;
  if (COMMAND_TOOLS.has(tool.name))
    return { kind: "command", command: raw } as const satisfies PermissionSubject;
  if (PATH_TOOLS.has(tool.name)) {
    const expanded = raw === "~" || raw.startsWith("~/") ? join(home ?? homedir(), raw.slice(1)) : raw;
    const path = isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
    return { kind: "path", path } as const satisfies PermissionSubject;
  }
  return { kind: "text", text: raw } as const satisfies PermissionSubject;
}

export interface PermissionPolicy {
  rules: PermissionRules;
  cwd: string;
  home: string;
  /** Asked when a decision is `ask`. Absent (headless): `ask` becomes a denial. */
  askPermission?: AskPermission;
  /**
   * Runs the PermissionRequest hooks when a decision is `ask`, before anyone is asked: a hook's `allow` or
   * `deny` answers it (headless too); undefined lets the question go on to `askPermission`.
   */
  permissionRequest?: (
    tool: string,
    input: unknown,
    signal?: AbortSignal,
  ) => Promise<PermissionDecision | undefined>;
  /**
   * The files a call reads besides its own subject (a file skill's reference read through `load_reference`),
   * as absolute paths: `Read` deny and ask rules covering one apply to the call (see `readRuleDecision`).
   */
  filesRead?: (tool: string, input: unknown) => readonly string[];
  /** Told just before the host's `askPermission` puts a question to the user (the Notification hook event). */
  notifyAsk?: (tool: string, signal?: AbortSignal) => Promise<void>;
  /** Awaited before each allowed call runs (see {@link BeforeToolRun}); absent: calls run at once. */
  beforeRun?: BeforeToolRun;
}

/**
 * Rules with a skill's content-scoped `disallowed-tools` (e.g. `Bash(rm:*)`) added as deny rules for the turn;
 * bare names remove the whole tool instead (see `isToolRemoved`). Pure.
 */
export function withTurnDenials(rules: PermissionRules, removed: readonly string[]): PermissionRules {
  const scoped = removed.filter((rule) => rule.includes("("));
  return scoped.length === 0 ? rules : { ...rules, deny: [...rules.deny, ...scoped] };
}

/**
 * The text the model gets when a call was not allowed: the deny reason; for an unanswered ask, its reason alone
 * (it says what needs approval, in Claude Code's words, SPEC §14.9), else its prompt followed by `Permission was
 * not granted (no one to ask: …).`
 */
export function denialText(decision: PermissionDecision): string {
  if (decision.behavior === "deny") return decision.reason;
  if (decision.behavior === "ask") {
    return (
      decision.reason ??
      `${decision.prompt} Permission was not granted (no one to ask: allow it with --allowedTools or a permissions.allow rule).`
    );
  }
  return "";
}

/**
 * Settles an `ask`: the PermissionRequest hooks first (their `allow` / `deny` answers it), then the host's
 * callback; headless (no callback, or one that answers `undefined`) means no. `input` is the call's input, for
 * the hooks and the callback; `toolUseId` the call's id, for the callback.
 */
export async function settle(
  decision: PermissionDecision,
  tool: string,
  policy: PermissionPolicy,
  signal?: AbortSignal,
  input: unknown = {},
  toolUseId?: string,
): Promise<PermissionDecision> {
  if (decision.behavior !== "ask") return decision;
  const hooked = await policy.permissionRequest?.(tool, input, signal);
  if (hooked !== undefined) return hooked;
  if (policy.askPermission === undefined) return decision;
  await policy.notifyAsk?.(tool, signal);
  // A held skill (`skill-changed`) is offered no rule: only `skillwright approve` lifts the hold.
  const held = decision.reason?.startsWith("skill-changed:") === true;
  const rules = held ? [] : suggestedRules(tool, input);
  const [rule] = rules;
  const answer = await policy.askPermission({
    tool,
    prompt: decision.prompt,
    input,
    ...(rule === undefined ? {} : { rule, rules }),
    ...(signal ? { signal } : {}),
    ...(toolUseId === undefined ? {} : { toolUseId }),
  });
  if (answer === undefined) return decision;
  if (answer === true) return { behavior: "allow", reason: "allowed by the user" };
  return { behavior: "deny", reason: answer === false ? "The user denied permission." : answer.deny };
}

/**
 * The permission check for a skill's inline shell commands: the Bash tool's own decision under `rules` with
 * `grants` (the skill's `allowed-tools`, plus the turn's) granted, settled like any Bash call (SPEC §5, §14.1).
 */
export function inlineShellCheck(
  policy: PermissionPolicy,
  rules: PermissionRules,
  grants: readonly string[],
): (command: string, signal?: AbortSignal) => Promise<PermissionDecision> {
  return (command, signal) =>
    settle(
      decide({
        rules,
        grants: [...grants],
        tool: "Bash",
        subject: { kind: "command", command },
        cwd: policy.cwd,
        home: policy.home,
      }),
      "Bash",
      policy,
      signal,
      { command },
    );
}
