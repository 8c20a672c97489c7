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
import { type HookFetch, runHttpHook } from "./run-http-hook.js";
import { type McpToolCaller, runMcpToolHook } from "./run-mcp-tool-hook.js";
import { type PromptJudge, runPromptHook } from "./run-prompt-hook.js";
import type { HookEvent, HookHandler, HookOutput, HookPermissionDecision } from "./schema.js";

/** How many hooks of one event run at once. */
export const MAX_PARALLEL_HOOKS = 8;

/** Events where a block (exit 2 or `decision: "block"`) has an effect; elsewhere it is reported as a warning. */
export const BLOCKING_EVENTS: ReadonlySet<HookEvent> = new Set<HookEvent>([
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
  "PostToolBatch",
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

/** Events whose command hooks get a shorter timeout than 60 s when they set none (Claude Code's). */
export const EVENT_DEFAULT_TIMEOUTS_MS: Readonly<Partial<Record<HookEvent, number>>> = {
  // Shown text waits for it.
  MessageDisplay: 10_000,
};

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
  PostCompact: "trigger",
  SubagentStart: "agent_type",
  SubagentStop: "agent_type",
  Notification: "notification_type",
  PermissionDenied: "tool_name",
  StopFailure: "error",
  InstructionsLoaded: "load_reason",
  ConfigChange: "source",
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
  /** How HTTP hooks reach their URL; without it they are warnings (`not run`). */
  fetch?: HookFetch;
  /** The variables an HTTP hook's headers may name (through its `allowedEnvVars`). */
  variables?: Readonly<Record<string, string | undefined>>;
  /** The model that judges prompt hooks; without it they are warnings (`not run`). */
  judge?: PromptJudge;
  /** The sub-agent that judges agent hooks (read-only tools); without it they are warnings (`not run`). */
  agentJudge?: PromptJudge;
  /** Calls a tool of the session's MCP servers for mcp_tool hooks; without it they are warnings (`not run`). */
  callMcpTool?: McpToolCaller;
  /**
   * Receives the combined result of the event's `async: true` command hooks, which the event does not wait
   * for (they run without the event's signal, to their own timeout). Without it they still run, unobserved.
   */
  background?: (event: HookEvent, task: Promise<HookDispatchResult>) => void;
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
  /** MessageDisplay only: the text the first hook that gave one wants shown instead. */
  displayContent?: string;
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
 * dispatches never run one twice. `async: true` command hooks start too but are not waited for: their result
 * goes to `deps.background` and never into this one (fire and forget, as in Claude Code). Never rejects:
 * failing hooks become `warnings`.
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
  // Each batch its own limit: async hooks never hold a slot the event's own hooks wait for.
  const runAll = (list: RegisteredHook[], runDeps: DispatchDeps) => {
    const limit = pLimit(MAX_PARALLEL_HOOKS);
    return Promise.all(
      list.map((hook) => limit(async () => ({ hook, result: await runHook(hook, input, runDeps) }))),
    );
  };
  const detached = hooks.filter(isAsync);
  if (detached.length > 0) {
    const { signal: _eventSignal, ...unbound } = deps;
    const task = runAll(detached, unbound).then((runs) => aggregateHookResults(event, runs));
    if (deps.background === undefined) task.catch(() => {});
    else deps.background(event, task);
  }
  const runs = await runAll(
    hooks.filter((hook) => !isAsync(hook)),
    deps,
  );
  return aggregateHookResults(event, runs);
}

function isAsync(entry: RegisteredHook): boolean {
  return entry.hook.type === "command" && entry.hook.async === true;
}

/** Runs one hook by its type. Never rejects. */
function runHook(entry: RegisteredHook, input: HookInput, deps: DispatchDeps): Promise<HookRunResult> {
  const { hook } = entry;
  const signal = deps.signal === undefined ? {} : { signal: deps.signal };
  switch (hook.type) {
    case "command": {
      const fallback = EVENT_DEFAULT_TIMEOUTS_MS[entry.event];
      const options = runOptions(entry, deps);
      return runCommandHook(
        hook,
        input,
        fallback === undefined ? options : { ...options, defaultTimeoutMs: fallback },
      );
    }
    case "http":
      if (deps.fetch === undefined) return notRun("this session makes no HTTP requests for hooks");
      return runHttpHook(hook, input, { fetch: deps.fetch, variables: deps.variables ?? {}, ...signal });
    case "prompt":
      if (deps.judge === undefined) return notRun("this session has no model to judge prompt hooks");
      return runPromptHook(hook, input, { judge: deps.judge, ...signal });
    case "agent":
      if (deps.agentJudge === undefined) return notRun("this session has no sub-agent to judge agent hooks");
      return runPromptHook(hook, input, { judge: deps.agentJudge, ...signal });
    case "mcp_tool":
      if (deps.callMcpTool === undefined) return notRun("this session has no MCP servers for mcp_tool hooks");
      return runMcpToolHook(hook, input, { call: deps.callMcpTool, ...signal });
    default:
      return assertNever(hook);
  }
}

function notRun(why: string): Promise<HookRunResult> {
  return Promise.resolve({ outcome: "warning", message: `not run: ${why}` });
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
    const label = `${event} hook ${hookLabel(hook.hook)}`;
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

/** How warnings name a hook: its command, `http <url>` or `prompt "<first line>"`, cut. Pure. */
export function hookLabel(hook: HookHandler): string {
  switch (hook.type) {
    case "command":
      return `"${shortText(hook.shown ?? hook.command)}"`;
    case "http":
      return `http ${shortText(hook.url)}`;
    case "prompt":
      return `prompt "${shortText(hook.prompt)}"`;
    case "agent":
      return `agent "${shortText(hook.prompt)}"`;
    case "mcp_tool":
      return `mcp_tool ${shortText(`${hook.server}/${hook.tool}`)}`;
    default:
      return assertNever(hook);
  }
}

function shortText(command: string): string {
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
  if (
    event === "MessageDisplay" &&
    specific.displayContent !== undefined &&
    combined.displayContent === undefined
  ) {
    combined.displayContent = specific.displayContent;
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
