import { type AgentEvent, type AgentResult, emptyUsage } from "../agent/events.js";
import { type AgentTool, executeAgent, type ToolGate } from "../agent/loop.js";
import type { ModelClient } from "../agent/model-client.js";
import type { ModelMessage, ModelUsage } from "../agent/model-types.js";
import { runWithStopChecks } from "../agent/stop-continuation.js";
import { ruleToolName } from "../agent/turn-patch.js";
import { type AgentType, DEFAULT_AGENT_TYPE } from "../agent-types/agent-types.js";
import { MAIN_SCOPE, type SkillScope, scopeOfAgent } from "../agent-types/skill-scope.js";
import { childContext, type RunContext } from "../context.js";
import type { RunHooks } from "../hooks/runner.js";
import { type ModelEffort, resolveModel } from "../models.js";
import { backgroundTools, backgroundToolsNote } from "./background.js";
import type { ForkOutcome, ForkRequest } from "./fork-request.js";

/** What a fork needs beside its caller's {@link RunContext}: the session's tools, gates, listing and hooks runner. */
export interface ForkDeps {
  /**
   * The real caller's context (the main agent's turn, or the fork whose Skill tool asked): the fork runs on
   * `childContext` of it, so its depth, signal and transcript derive from the agent that called it.
   */
  context: RunContext;
  /** The session's built-in and MCP tools, which the agent type narrows (never a caller's narrowed set). */
  tools: readonly AgentTool[];
  /** The session's `SkillSearch` tool for an agent's skill scope, offered beside the Skill tool when there is one. */
  skillSearch?: (scope: SkillScope) => AgentTool;
  /** The Skill tool of an agent running on `context` (its depth, agent id and signal are the context's). */
  skillTool: (context: RunContext) => AgentTool;
  gate: ToolGate;
  /** The gate for a `permissionMode: dontAsk` agent: nobody is asked, what no rule allows is denied. */
  noAskGate?: ToolGate;
  runHooks: RunHooks;
  /**
   * Expands the skills a custom agent preloads (`skills:`), for its first message; names it cannot expand
   * (unknown, disabled, failing) come back as warnings.
   */
  preload?: (
    names: readonly string[],
    signal: AbortSignal,
  ) => Promise<{ texts: string[]; warnings: string[] }>;
  emit: (event: AgentEvent) => void;
  /**
   * The listing blocks for a new agent (it gets the same skills), sized for the model it runs on: the full
   * listing, then possibly a delta of skills that appeared since; none when there is nothing to list.
   */
  listing: (agentId: string, model: string, scope: SkillScope) => Promise<string[]>;
  maxTokens: number;
  newAgentId: () => string;
  /** Paths the sub-agent's tools touched: they activate conditional and nested skills for the session. */
  onTouchedPaths?: (paths: string[]) => Promise<void>;
  /**
   * Builds the step that compacts a fork's own conversation near its model's window (SPEC §8), as the main
   * agent's; without it a fork that outgrows the window fails on the request past it.
   */
  compaction?: (
    fork: ForkConversation,
  ) => (usage: ModelUsage, model: string, signal: AbortSignal) => Promise<ModelMessage[] | undefined>;
}

/** A running fork's conversation, as its compaction sees it. */
export interface ForkConversation {
  agentId: string;
  /** The skills the fork's agent type may see (its listing after a compaction too). */
  scope: SkillScope;
  client: ModelClient;
  /** The fork's first message's blocks other than the listing (hook context, preloaded skills, the task). */
  kept: readonly string[];
  /** The fork's conversation as it is now (its tool results included). */
  messages: () => readonly ModelMessage[];
  /** Replaces the fork's conversation with the compacted one and records it in the fork's transcript. */
  replace: (messages: ModelMessage[]) => Promise<void>;
}

/** True for an agent limited to read-only tools: a read-only type, or `permissionMode: plan`. */
function readOnlyAgent(agent: AgentType): boolean {
  return agent.readOnly || agent.permissionMode === "plan";
}

/** The bare tool names an agent's `disallowedTools` removes (scoped rules are deny rules instead). */
function removedByAgent(agent: AgentType): Set<string> {
  return new Set((agent.disallowedTools ?? []).filter((r) => !r.includes("(")).map(ruleToolName));
}

/**
 * The tools an agent type gets from its parent's: read-only types (and `permissionMode: plan`) only read-only
 * tools; a `tools` list filters; `disallowedTools` bare names are removed.
 */
export function toolsForAgent(agent: AgentType, tools: readonly AgentTool[]): AgentTool[] {
  let chosen = readOnlyAgent(agent) ? tools.filter((t) => t.readOnly) : [...tools];
  if (agent.tools !== undefined) {
    const names = new Set(agent.tools.map(ruleToolName));
    if (!names.has("*")) chosen = chosen.filter((t) => names.has(t.name));
  }
  const removed = removedByAgent(agent);
  return chosen.filter((t) => !removed.has(t.name));
}

/** True when the agent type may call the Skill tool. */
function mayUseSkills(agent: AgentType): boolean {
  if (readOnlyAgent(agent) || removedByAgent(agent).has("Skill")) return false;
  return agent.tools === undefined || agent.tools.map(ruleToolName).some((n) => n === "Skill" || n === "*");
}

/** The tools that edit files, allowed without asking by `permissionMode: acceptEdits`. */
export const EDIT_TOOLS = ["Write", "Edit"] as const;

/**
 * What an agent's `permissionMode` grants for its turn (deny rules still win): `acceptEdits` the edit tools,
 * `bypassPermissions` every tool it has; other modes nothing. Pure.
 */
export function permissionModeGrants(agent: AgentType, tools: readonly AgentTool[]): string[] {
  if (agent.permissionMode === "acceptEdits") return [...EDIT_TOOLS];
  if (agent.permissionMode === "bypassPermissions") return tools.map((t) => t.name);
  return [];
}

/**
 * The line that opens a fork's result when it used tools (SPEC §14.11): the distinct tool names in first-use
 * order, joined by `,`. Pure.
 */
export function toolsUsedLine(toolsUsed: readonly string[]): string {
  return `<tools-used-before-summary>${toolsUsed.join(",")}</tools-used-before-summary>`;
}

/**
 * The parent's tool_result text for a fork (SPEC §7, §14.11): `Skill "{name}" completed (forked execution).⏎⏎
 * Result:⏎{text}`, after `toolsUsedLine` and a line break when the fork used tools; a failure, an abort, the turn
 * limit or an empty final text is `ok: false` with a text that says so. `name` is the name as called. Pure.
 */
export function forkResultText(name: string, result: AgentResult): ForkOutcome {
  if (result.cause === "aborted")
    return { ok: false, text: `Skill "${name}" was aborted (forked execution).` };
  if (result.cause === "error") {
    return {
      ok: false,
      text: `Skill "${name}" failed (forked execution): ${result.error?.message ?? "unknown error"}`,
    };
  }
  if (result.cause === "max_turns") {
    return {
      ok: false,
      text: `Skill "${name}" stopped (forked execution): it reached the turn limit without finishing.`,
    };
  }
  if (result.text.trim() === "") {
    return { ok: false, text: `Skill "${name}" ended (forked execution) without a final answer.` };
  }
  const tools = result.toolsUsed.length > 0 ? `${toolsUsedLine(result.toolsUsed)}\n` : "";
  return {
    ok: true,
    text: `${tools}Skill "${name}" completed (forked execution).\n\nResult:\n${result.text}`,
    answer: result.text,
  };
}

/**
 * A fork ready to run: its agent id (a background fork's handle), whether it runs in the background (its caller
 * gets the handle at once and the answer later) and, then, the tools it was not given.
 */
export interface PreparedFork {
  agentId: string;
  background: boolean;
  /** Tools the agent type has that a background fork goes without (see `backgroundTools`); [] in the foreground. */
  withheld: string[];
  /** Runs the fork to its end; never rejects (see {@link runFork}). */
  run(): Promise<ForkOutcome>;
}

/**
 * Resolves a fork's agent type and tools without running anything: a failed outcome when the type does not
 * exist. It runs in the background when the skill or its agent type says `background: true` and the main agent
 * (depth 0) called it: a fork's own conversation ends with its answer, so a fork's forks run in the foreground.
 */
export function prepareFork(request: ForkRequest, deps: ForkDeps): PreparedFork | ForkOutcome {
  const { skill } = request;
  const agentName = skill.agent ?? DEFAULT_AGENT_TYPE;
  const agent = deps.context.agents.find((a) => a.name === agentName);
  if (agent === undefined) {
    const known = deps.context.agents.map((a) => a.name).join(", ");
    return {
      ok: false,
      text: `Skill "${request.name}" names agent type "${agentName}", which does not exist. Known: ${known}.`,
    };
  }
  const agentId = deps.newAgentId();
  const narrowed = toolsForAgent(agent, deps.tools);
  const background = request.depth === 0 && (skill.background === true || agent.background === true);
  const split = background
    ? backgroundTools(narrowed, [
        ...deps.context.rules.allow,
        ...skill.allowedTools,
        ...permissionModeGrants(agent, narrowed),
      ])
    : undefined;
  const plan: ForkPlan = {
    agentId,
    agent,
    tools: split?.kept ?? narrowed,
    ...(split === undefined ? {} : { withheld: split.withheld }),
  };
  return {
    agentId,
    background,
    withheld: split?.withheld ?? [],
    run: () => runPlanned(request, deps, plan),
  };
}

/**
 * Runs a forked skill (SPEC §7) as a sub-agent: its own transcript and agent id, the agent type's system
 * prompt and tools, the skill's (else the agent's, else the parent's) model and effort, the skill's
 * `allowed-tools` granted and `disallowed-tools` removed (as Claude Code does for forks), the same listing,
 * the skill body as the task. Aborting `request.signal` aborts it and everything it started. Never rejects:
 * anything that throws (e.g. persisting the fork's transcript) becomes a failed outcome that says why.
 */
export async function runFork(request: ForkRequest, deps: ForkDeps): Promise<ForkOutcome> {
  const prepared = prepareFork(request, deps);
  return "run" in prepared ? prepared.run() : prepared;
}

/** What {@link prepareFork} settled: the fork's id, agent type and tools; `withheld` set for a background fork. */
interface ForkPlan {
  agentId: string;
  agent: AgentType;
  tools: AgentTool[];
  withheld?: string[];
}

async function runPlanned(request: ForkRequest, deps: ForkDeps, plan: ForkPlan): Promise<ForkOutcome> {
  try {
    const source = { kind: "agent" as const, name: plan.agentId, agentId: plan.agentId };
    const { hooks } = plan.agent;
    if (hooks !== undefined) deps.context.hooks.register(source, hooks);
    try {
      return await runAgentFork(request, deps, plan);
    } finally {
      if (hooks !== undefined) deps.context.hooks.unregister(source);
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, text: `Skill "${request.name}" failed (forked execution): ${reason}` };
  }
}

async function runAgentFork(request: ForkRequest, deps: ForkDeps, plan: ForkPlan): Promise<ForkOutcome> {
  const { skill } = request;
  const { agent, agentId } = plan;
  const caller = deps.context;
  const narrowed = plan.tools;
  const background = plan.withheld !== undefined;
  const skillModel = skill.model !== undefined && skill.model !== "inherit" ? skill.model : undefined;
  const agentModel = agent.model !== undefined && agent.model !== "inherit" ? agent.model : undefined;
  const model = resolveModel(skillModel ?? agentModel ?? request.sessionModel);
  const effort: ModelEffort | undefined = skill.effort ?? agent.effort;
  const own = childContext(caller, {
    agentId,
    signal: request.signal,
    model,
    sessionModel: request.sessionModel,
    tools: narrowed,
    ...(effort === undefined ? {} : { effort }),
    skillScope: scopeOfAgent(agent),
    // In the background nobody is there to answer: its Skill tool's invocations ask nobody either.
    ...(background ? { noAsk: true as const } : {}),
  });
  // The fork's Skill tool runs on the fork's own context: a fork it starts is a child of this one.
  const search = deps.skillSearch?.(scopeOfAgent(agent));
  const tools = mayUseSkills(agent)
    ? [...narrowed, deps.skillTool(own), ...(search === undefined ? [] : [search])]
    : narrowed;
  const context: RunContext = { ...own, tools };
  deps.emit({
    type: "fork_start",
    agentId,
    ...(caller.agentId === undefined ? {} : { parentAgentId: caller.agentId }),
    skill: skill.name,
    agentType: agent.name,
    model,
    ...(background ? { background: true as const } : {}),
  });
  const note =
    plan.withheld === undefined
      ? undefined
      : backgroundToolsNote(
          tools.map((t) => t.name),
          plan.withheld,
        );
  let result: AgentResult;
  try {
    result = await runForkTurn(request, deps, agent, {
      agentId,
      context,
      tools,
      ...(note === undefined ? {} : { note }),
      gate: background || agent.permissionMode === "dontAsk" ? (deps.noAskGate ?? deps.gate) : deps.gate,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const failed: AgentResult = {
      text: "",
      cause: "error",
      turns: 0,
      usage: emptyUsage(),
      toolsUsed: [],
      error: { kind: "internal", message },
    };
    deps.emit({ type: "fork_end", agentId, skill: skill.name, result: failed });
    throw error;
  }
  deps.emit({ type: "fork_end", agentId, skill: skill.name, result });
  return forkResultText(request.name, result);
}

/** The fork's hooks, first message and agent loop (with its stop checks), on its child `context`. */
async function runForkTurn(
  request: ForkRequest,
  deps: ForkDeps,
  agent: AgentType,
  fork: {
    agentId: string;
    context: RunContext;
    tools: readonly AgentTool[];
    /** A background fork's opening block naming its tools (kept through a compaction). */
    note?: string;
    gate: ToolGate;
  },
): Promise<AgentResult> {
  const { skill } = request;
  const { agentId, context, tools } = fork;
  const start = await deps.runHooks(
    "SubagentStart",
    { agent_type: agent.name, agent_id: agentId },
    context.signal,
  );
  const listing = await deps.listing(agentId, context.model, context.skillScope ?? MAIN_SCOPE);
  const preloaded =
    agent.skills === undefined || deps.preload === undefined
      ? { texts: [], warnings: [] }
      : await deps.preload(agent.skills, context.signal);
  for (const message of preloaded.warnings) deps.emit({ type: "warning", agentId, message });
  // What the fork was asked to do: kept as it is when the fork compacts its conversation.
  const kept = [
    ...(fork.note === undefined ? [] : [fork.note]),
    ...start.additionalContext,
    ...preloaded.texts,
    request.task,
  ];
  const first: ModelMessage = {
    role: "user",
    content: [...listing, ...kept].map((text) => ({ type: "text" as const, text })),
  };
  await context.transcript(first);
  let messages: ModelMessage[] = [first];
  let turnCount = 0;
  let toolCalls = 0;
  const emit = (event: AgentEvent) => {
    deps.emit(event);
    if (event.type === "request_start") turnCount += 1;
    if (event.type === "tool_start") toolCalls += 1;
    if (event.type === "request_start" || event.type === "tool_start") {
      deps.emit({
        type: "fork_progress",
        agentId,
        skill: skill.name,
        turn: turnCount,
        toolCalls,
        ...(event.type === "tool_start" ? { lastTool: event.name } : {}),
      });
    }
    if (event.type === "message" && event.agentId === agentId) messages = [...messages, event.message];
  };
  const compact =
    deps.compaction === undefined
      ? undefined
      : deps.compaction({
          agentId,
          scope: context.skillScope ?? MAIN_SCOPE,
          client: context.client,
          kept,
          messages: () => messages,
          replace: async (compacted) => {
            messages = compacted;
            for (const message of compacted) await context.transcript(message);
          },
        });
  return runWithStopChecks({
    run: () =>
      executeAgent(
        {
          client: context.client,
          system: agent.systemPrompt,
          tools: context.tools,
          messages,
          turn: {
            model: context.model,
            ...(context.effort === undefined ? {} : { effort: context.effort }),
            grants: [...skill.allowedTools, ...permissionModeGrants(agent, tools)],
            removedTools: [...skill.disallowedTools, ...(agent.disallowedTools ?? [])],
            removedBy: Object.fromEntries(skill.disallowedTools.map((r) => [r, skill.name])),
          },
          maxTokens: deps.maxTokens,
          cwd: context.cwd,
          signal: context.signal,
          agentId,
          gate: fork.gate,
          ...(deps.onTouchedPaths === undefined ? {} : { onTouchedPaths: deps.onTouchedPaths }),
          onMessage: (m: ModelMessage) => context.transcript(m),
          ...(compact === undefined ? {} : { compact }),
        },
        emit,
      ),
    stopCheck: async (round) => {
      const stop = await deps.runHooks(
        "SubagentStop",
        { agent_type: agent.name, agent_id: agentId, stop_hook_active: round > 0 },
        context.signal,
      );
      return stop.blocked?.reason;
    },
    continueWith: async (reason) => {
      const next: ModelMessage = { role: "user", content: reason };
      messages = [...messages, next];
      await context.transcript(next);
    },
  });
}
