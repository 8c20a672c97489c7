import type { AgentEvent, AgentResult } from "../agent/events.js";
import { type AgentTool, executeAgent, type ToolGate } from "../agent/loop.js";
import type { ModelClient, ModelMessage } from "../agent/model-client.js";
import { type ModelEffort, resolveModel } from "../agent/models.js";
import { runWithStopChecks } from "../agent/stop-continuation.js";
import { ruleToolName } from "../agent/turn.js";
import type { RunHooks } from "../session/hooks-runner.js";
import type { ForkOutcome, ForkRequest } from "../skill-tool/invoke.js";
import { type AgentType, DEFAULT_AGENT_TYPE } from "./agent-types.js";

export interface ForkDeps {
  client: ModelClient;
  cwd: string;
  agents: () => readonly AgentType[];
  /** Every tool the parent may hand down (without the Skill tool). */
  tools: readonly AgentTool[];
  /** A Skill tool for an agent at `depth`. */
  skillTool: (depth: number, agentId: string) => AgentTool;
  gate: ToolGate;
  runHooks: RunHooks;
  emit: (event: AgentEvent) => void;
  /**
   * The listing blocks for a new agent (it gets the same skills), sized for the model it runs on: the full
   * listing, then possibly a delta of skills that appeared since; none when there is nothing to list.
   */
  listing: (agentId: string, model: string) => Promise<string[]>;
  maxTokens: number;
  newAgentId: () => string;
  onMessage?: (agentId: string, message: ModelMessage) => Promise<void>;
  /** Paths the sub-agent's tools touched: they activate conditional and nested skills for the session. */
  onTouchedPaths?: (paths: string[]) => Promise<void>;
}

/** The tools an agent type gets from its parent's: read-only types only read-only tools; a `tools` list filters. */
export function toolsForAgent(agent: AgentType, tools: readonly AgentTool[]): AgentTool[] {
  let chosen = agent.readOnly ? tools.filter((t) => t.readOnly) : [...tools];
  if (agent.tools !== undefined) {
    const names = new Set(agent.tools.map(ruleToolName));
    if (!names.has("*")) chosen = chosen.filter((t) => names.has(t.name));
  }
  return chosen;
}

/** True when the agent type may call the Skill tool. */
function mayUseSkills(agent: AgentType): boolean {
  if (agent.readOnly) return false;
  return agent.tools === undefined || agent.tools.map(ruleToolName).some((n) => n === "Skill" || n === "*");
}

/** The parent's tool_result text for a fork (SPEC §7). Pure. */
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
  const tools = result.toolsUsed.length > 0 ? `Tools used: ${result.toolsUsed.join(", ")}\n` : "";
  return {
    ok: true,
    text: `Skill "${name}" completed (forked execution).\n\n${tools}Result:\n${result.text}`,
    answer: result.text,
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
  try {
    return await runForkUnguarded(request, deps);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, text: `Skill "${request.skill.name}" failed (forked execution): ${reason}` };
  }
}

async function runForkUnguarded(request: ForkRequest, deps: ForkDeps): Promise<ForkOutcome> {
  const { skill } = request;
  const agentName = skill.agent ?? DEFAULT_AGENT_TYPE;
  const agent = deps.agents().find((a) => a.name === agentName);
  if (agent === undefined) {
    const known = deps
      .agents()
      .map((a) => a.name)
      .join(", ");
    return {
      ok: false,
      text: `Skill "${skill.name}" names agent type "${agentName}", which does not exist. Known: ${known}.`,
    };
  }
  const agentId = deps.newAgentId();
  const depth = request.depth + 1;
  const tools = toolsForAgent(agent, deps.tools);
  if (mayUseSkills(agent)) tools.push(deps.skillTool(depth, agentId));
  const skillModel = skill.model !== undefined && skill.model !== "inherit" ? skill.model : undefined;
  const agentModel = agent.model !== undefined && agent.model !== "inherit" ? agent.model : undefined;
  const model = resolveModel(skillModel ?? agentModel ?? request.parentModel);
  const effort: ModelEffort | undefined = skill.effort ?? agent.effort;

  const start = await deps.runHooks(
    "SubagentStart",
    { agent_type: agent.name, agent_id: agentId },
    request.signal,
  );
  const listing = await deps.listing(agentId, model);
  const first: ModelMessage = {
    role: "user",
    content: [
      ...listing.map((text) => ({ type: "text" as const, text })),
      ...start.additionalContext.map((text) => ({ type: "text" as const, text })),
      { type: "text" as const, text: request.task },
    ],
  };
  await deps.onMessage?.(agentId, first);
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
  const result = await runWithStopChecks({
    run: () =>
      executeAgent(
        {
          client: deps.client,
          system: agent.systemPrompt,
          tools,
          messages,
          turn: {
            model,
            ...(effort === undefined ? {} : { effort }),
            grants: [...skill.allowedTools],
            removedTools: [...skill.disallowedTools],
          },
          maxTokens: deps.maxTokens,
          cwd: deps.cwd,
          signal: request.signal,
          agentId,
          gate: deps.gate,
          ...(deps.onTouchedPaths === undefined ? {} : { onTouchedPaths: deps.onTouchedPaths }),
          ...(deps.onMessage === undefined
            ? {}
            : { onMessage: (m: ModelMessage) => deps.onMessage?.(agentId, m) ?? Promise.resolve() }),
        },
        emit,
      ),
    stopCheck: async (round) => {
      const stop = await deps.runHooks(
        "SubagentStop",
        { agent_type: agent.name, agent_id: agentId, stop_hook_active: round > 0 },
        request.signal,
      );
      return stop.blocked?.reason;
    },
    continueWith: async (reason) => {
      const next: ModelMessage = { role: "user", content: reason };
      messages = [...messages, next];
      await deps.onMessage?.(agentId, next);
    },
  });
  return forkResultText(skill.name, result);
}
