import pLimit from "p-limit";
import { assertNever } from "../diagnostics.js";
import type { ShellOps } from "../io/shell.js";
import { SKILL_TOOL_NAME } from "./matcher.js";
import type { HookQuery, HookRegistry, RegisteredHook } from "./registry.js";
import {
  capHookText,
  type HookInput,
  type HookRunResult,
  type RunHookOptions,
  runCommandHook,
} from "./run-hook.js";
import type { HookEvent, HookOutput, HookPermissionDecision } from "./schema.js";

/** How many hooks of one event run at once. */
export const MAX_PARALLEL_HOOKS = 8;

/** Events where a block (exit 2 or `decision: "block"`) has an effect; elsewhere it is reported as a warning. */
export const BLOCKING_EVENTS: ReadonlySet<HookEvent> = new Set<HookEvent>([
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
  "UserPromptSubmit",
  "UserPromptExpansion",
  "Stop",
  "SubagentStop",
]);

/** Events where plain stdout on exit 0 is added to the model's context (as in Claude Code). */
export const STDOUT_CONTEXT_EVENTS: ReadonlySet<HookEvent> = new Set<HookEvent>([
  "UserPromptSubmit",
  "UserPromptExpansion",
  "SessionStart",
]);

/** The input field each event's matchers are tested against; events not listed ignore matchers. */
export const MATCH_FIELDS: Readonly<Partial<Record<HookEvent, string>>> = {
  PreToolUse: "tool_name",
  PermissionRequest: "tool_name",
  PostToolUse: "tool_name",
  PostToolUseFailure: "tool_name",
  UserPromptExpansion: "command_name",
  SessionStart: "source",
  SessionEnd: "reason",
  PreCompact: "trigger",
  SubagentStart: "agent_type",
  SubagentStop: "agent_type",
};

/** How much of a hook's command names it in warnings. */
export const HOOK_LABEL_CHARS = 80;

/** The event's own fields (`tool_name`, `tool_input`, `prompt`, …); the common fields are added by dispatch. */
export type HookPayload = Record<string, unknown>;

/** What dispatch needs from the session. */
export interface DispatchDeps {
  shell: ShellOps;
  sessionId: string;
  cwd: string;
  /** `CLAUDE_PROJECT_DIR`; defaults to `cwd`. */
  projectDir?: string;
  transcriptPath?: string;
  permissionMode?: string;
  /** Extra environment for every hook. */
  env?: Record<string, string>;
  signal?: AbortSignal;
  /** The alias of a skill (by name), so that `Skill(alias)` matchers match its invocations. */
  skillAlias?: (skillName: string) => string | undefined;
}

/**
 * The combined answer of an event's hooks.
 * - `blocked`: some hook blocked (reasons joined by newlines). PreToolUse: do not run the tool, send the reason
 *   to the model. PostToolUse / PostToolUseFailure: add the reason to the tool result for the model.
 *   UserPromptSubmit / UserPromptExpansion: do not send the prompt, show the reason to the user. Stop /
 *   SubagentStop: do not stop; the reason is the next input. PermissionRequest: deny the permission.
 * - `permission` (PreToolUse and PermissionRequest): `deny` beats `ask` beats `allow`; a block implies `deny`.
 *   PermissionRequest hooks answer with `hookSpecificOutput.decision.behavior` (`allow` | `deny`, `message`).
 * - `stop`: a hook printed `continue: false`; end the turn, show `reason` to the user.
 * - `updatedInput` (PreToolUse only): the tool input the first hook that gave one wants used instead.
 */
export interface HookDispatchResult {
  blocked?: { reason: string };
  permission?: { decision: HookPermissionDecision; reason?: string };
  stop?: { reason?: string };
  updatedInput?: Record<string, unknown>;
  additionalContext: string[];
  warnings: string[];
  systemMessages: string[];
  /** Each hook that ran and its result, in registration order. */
  runs: Array<{ hook: RegisteredHook; result: HookRunResult }>;
}

const PERMISSION_RANK: Record<HookPermissionDecision, number> = { allow: 0, ask: 1, deny: 2 };

function stringField(payload: HookPayload, field: string): string | undefined {
  const value = payload[field];
  return typeof value === "string" ? value : undefined;
}

/**
 * The registry query for an event: the tool name (plus the invoked skill for the Skill tool) or the event's
 * match field (see {@link MATCH_FIELDS}), and the payload's `agent_id` (for agent-scoped hooks); no name for
 * events whose matchers are ignored. Pure.
 */
export function hookQueryFor(event: HookEvent, payload: HookPayload): HookQuery {
  const agentId = stringField(payload, "agent_id");
  const agent = agentId === undefined ? {} : { agentId };
  const field = MATCH_FIELDS[event];
  if (field === undefined) return agent;
  const toolName = stringField(payload, field) ?? "";
  if (field !== "tool_name" || toolName !== SKILL_TOOL_NAME) return { toolName, ...agent };
  const toolInput = payload.tool_input;
  const skill =
    typeof toolInput === "object" && toolInput !== null && "skill" in toolInput ? toolInput.skill : undefined;
  return typeof skill === "string" ? { toolName, skillName: skill, ...agent } : { toolName, ...agent };
}

/** The stdin JSON for a hook: the common fields, then the payload (which cannot override them). */
export function buildHookInput(event: HookEvent, payload: HookPayload, deps: DispatchDeps): HookInput {
  const input: HookInput = {
    session_id: deps.sessionId,
    ...(deps.transcriptPath === undefined ? {} : { transcript_path: deps.transcriptPath }),
    cwd: deps.cwd,
    ...(deps.permissionMode === undefined ? {} : { permission_mode: deps.permissionMode }),
    hook_event_name: event,
  };
  for (const [key, value] of Object.entries(payload)) if (!(key in input)) input[key] = value;
  return input;
}

/**
 * Runs the hooks that match `event` (in parallel, at most {@link MAX_PARALLEL_HOOKS} at once) and combines their
 * results in registration order. `once` hooks are marked fired before any of them starts, so concurrent
 * dispatches never run one twice. Never rejects: failing hooks become `warnings`.
 */
export async function dispatchHooks(
  registry: HookRegistry,
  event: HookEvent,
  payload: HookPayload,
  deps: DispatchDeps,
): Promise<HookDispatchResult> {
  const query = hookQueryFor(event, payload);
  const alias = query.skillName === undefined ? undefined : deps.skillAlias?.(query.skillName);
  const hooks = registry.matching(event, alias === undefined ? query : { ...query, skillAlias: alias });
  registry.markFired(hooks);
  const input = buildHookInput(event, payload, deps);
  const limit = pLimit(MAX_PARALLEL_HOOKS);
  const runs = await Promise.all(
    hooks.map((hook) =>
      limit(async () => ({ hook, result: await runCommandHook(hook.hook, input, runOptions(hook, deps)) })),
    ),
  );
  return aggregateHookResults(event, runs);
}

function runOptions(entry: RegisteredHook, deps: DispatchDeps): RunHookOptions {
  const { skillDir, pluginRoot } = entry.source;
  const root = pluginRoot ?? (entry.source.kind === "skill" ? skillDir : undefined);
  return {
    shell: deps.shell,
    cwd: deps.cwd,
    projectDir: deps.projectDir ?? deps.cwd,
    ...(root === undefined ? {} : { pluginRoot: root }),
    env: { ...deps.env, ...(skillDir === undefined ? {} : { CLAUDE_SKILL_DIR: skillDir }) },
    ...(deps.signal === undefined ? {} : { signal: deps.signal }),
  };
}

/**
 * Combines hook results (already in registration order) into one answer for `event`; see
 * {@link HookDispatchResult}. Pure.
 */
export function aggregateHookResults(
  event: HookEvent,
  runs: Array<{ hook: RegisteredHook; result: HookRunResult }>,
): HookDispatchResult {
  const combined: HookDispatchResult = { additionalContext: [], warnings: [], systemMessages: [], runs };
  const blockReasons: string[] = [];
  for (const { hook, result } of runs) {
    const label = `${event} hook "${shortCommand(hook.hook.command)}"`;
    switch (result.outcome) {
      case "warning":
        combined.warnings.push(`${label} failed: ${result.message}`);
        break;
      case "block":
        if (BLOCKING_EVENTS.has(event)) blockReasons.push(result.reason);
        else
          combined.warnings.push(
            `${label} tried to block, which ${event} does not support: ${result.reason}`,
          );
        if (result.output) applyOutput(event, label, result.output, combined, blockReasons);
        break;
      case "continue":
        if (result.outputError !== undefined) combined.warnings.push(`${label}: ${result.outputError}`);
        if (result.output) applyOutput(event, label, result.output, combined, blockReasons);
        else if (result.outputError === undefined && STDOUT_CONTEXT_EVENTS.has(event)) {
          const text = result.stdout.trim();
          if (text !== "") combined.additionalContext.push(capHookText(text));
        }
        break;
      default:
        assertNever(result);
    }
  }
  if (blockReasons.length > 0) {
    combined.blocked = { reason: blockReasons.join("\n") };
    if (event === "PreToolUse" || event === "PermissionRequest")
      combined.permission = { decision: "deny", reason: combined.blocked.reason };
  }
  return combined;
}

function shortCommand(command: string): string {
  const line = command.trim().split("\n")[0] ?? "";
  return line.length > HOOK_LABEL_CHARS || line.length < command.trim().length
    ? `${line.slice(0, HOOK_LABEL_CHARS)}…`
    : line;
}

function applyOutput(
  event: HookEvent,
  label: string,
  output: HookOutput,
  combined: HookDispatchResult,
  blockReasons: string[],
): void {
  if (output.systemMessage !== undefined && output.systemMessage !== "") {
    combined.systemMessages.push(capHookText(output.systemMessage));
  }
  if (output.continue === false && combined.stop === undefined) {
    combined.stop = output.stopReason === undefined ? {} : { reason: capHookText(output.stopReason) };
  }
  if (event === "PreToolUse" && output.decision === "approve") {
    setPermission(combined, "allow", output.reason);
  }
  const specific = output.hookSpecificOutput;
  if (specific === undefined) return;
  if (specific.hookEventName !== undefined && specific.hookEventName !== event) {
    combined.warnings.push(
      `${label}: hookSpecificOutput is for ${specific.hookEventName}, not ${event}; ignored`,
    );
    return;
  }
  if (specific.additionalContext !== undefined && specific.additionalContext.trim() !== "") {
    combined.additionalContext.push(capHookText(specific.additionalContext));
  }
  if (event === "PermissionRequest" && specific.decision !== undefined) {
    const { behavior, message } = specific.decision;
    if (behavior === "deny")
      blockReasons.push(capHookText(message?.trim() || `${label} denied the permission`));
    setPermission(combined, behavior, message);
  }
  if (event !== "PreToolUse") return;
  if (specific.permissionDecision !== undefined) {
    const reason = specific.permissionDecisionReason;
    if (specific.permissionDecision === "deny") {
      blockReasons.push(capHookText(reason?.trim() || `${label} denied the tool call`));
    }
    setPermission(combined, specific.permissionDecision, reason);
  }
  if (specific.updatedInput !== undefined && combined.updatedInput === undefined) {
    combined.updatedInput = specific.updatedInput;
  }
}

function setPermission(
  combined: HookDispatchResult,
  decision: HookPermissionDecision,
  reason?: string,
): void {
  const current = combined.permission;
  if (current !== undefined && PERMISSION_RANK[current.decision] >= PERMISSION_RANK[decision]) return;
  combined.permission = reason === undefined ? { decision } : { decision, reason };
}
