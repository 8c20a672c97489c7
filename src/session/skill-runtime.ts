import { randomUUID } from "node:crypto";
import pLimit from "p-limit";
import type { AgentEvent } from "../agent/events.js";
import type { AgentTool, ToolGate } from "../agent/loop.js";
import { MAIN_SCOPE, notAvailableText, type SkillScope, skillsInScope } from "../agent-types/skill-scope.js";
import type { RunContext } from "../context.js";
import { backgroundStartedText } from "../fork/background.js";
import { type ForkDeps, prepareFork } from "../fork/fork.js";
import type { ForkOutcome, ForkRequest } from "../fork/fork-request.js";
import type { RunHooks } from "../hooks/runner.js";
import type { PermissionPolicy } from "../permissions/policy.js";
import { answersTo, type Skill } from "../skill/skill.js";
import { mcpServersNeeded } from "../skill/skill-needs.js";
import { type InvocationOutcome, type InvocationRequest, invokeSkill } from "../skill-tool/invoke.js";
import type { InvokedSkill } from "../skill-tool/invoked-skill.js";
import type { LoadedSkills } from "../skill-tool/reinvocation.js";
import { createSkillTool } from "../skill-tool/skill-tool.js";
import type { BackgroundForks } from "./background-forks.js";
import { preloadSkills } from "./preload-skills.js";
import type { SessionDeps } from "./session-types.js";
import { createToolGate } from "./tool-gate.js";

/** Forks one agent runs at once (SPEC §7). */
export const DEFAULT_FORK_CONCURRENCY = 4;
/** Default max output tokens per request. */
export const DEFAULT_MAX_TOKENS = 16_384;

export interface SkillRuntimeDeps {
  session: SessionDeps;
  /** The permission policy of an agent on `caller` (its rules). */
  policy: (caller: RunContext) => PermissionPolicy;
  runHooks: RunHooks;
  /** The tool gate of an agent on `caller`. */
  gate: (caller: RunContext) => ToolGate;
  emit: (event: AgentEvent) => void;
  /** The listing block for an agent (a delta after the first), sized for the model it runs on. */
  listing: (agentId: string, model: string, scope: SkillScope) => Promise<string[]>;
  record: (invocation: InvokedSkill) => Promise<void>;
  /** The expansions each conversation already holds (re-invocations, SPEC §14.3). */
  loaded: LoadedSkills;
  /** Paths any agent's tools touched (conditional activation, nested discovery). */
  touch: (paths: readonly string[]) => Promise<void>;
  /** Told each inline expansion sent to the main agent (expiring skill context). */
  inlineSent?: (skill: Skill, outcome: Extract<InvocationOutcome, { kind: "inline" }>) => void;
  /** Builds the step that compacts a fork's own conversation (SPEC §8). */
  forkCompaction?: ForkDeps["compaction"];
  /** Where a background fork runs on after its caller got the handle, and where its answer waits. */
  backgroundForks: BackgroundForks;
}

/** The Skill tool of each agent and the invocation pipeline, with forks bounded per parent depth. */
export interface SkillRuntime {
  /** The Skill tool of the agent running on `caller` (its depth and agent id); a fork it starts is `caller`'s child. */
  skillTool(caller: RunContext): AgentTool;
  /** Runs the pipeline for the agent running on `caller` (a user's `/name`: the main agent's turn). */
  invoke(caller: RunContext, request: InvocationRequest): Promise<InvocationOutcome>;
}

/**
 * Wires the one invocation pipeline to forks: every agent's Skill tool and a user's `/name` call `invoke`; a
 * forked skill runs as a sub-agent with its own Skill tool one level deeper. Forks started by agents at one depth
 * share a p-limit (default 4), so a parent waiting on children never holds the slots they need.
 */
export function createSkillRuntime(deps: SkillRuntimeDeps): SkillRuntime {
  const s = deps.session;
  const session = s.context;
  let forkCounter = 0;
  const limits = new Map<number, ReturnType<typeof pLimit>>();
  const limitFor = (depth: number) => {
    let limit = limits.get(depth);
    if (limit === undefined) {
      limit = pLimit(s.forkConcurrency ?? DEFAULT_FORK_CONCURRENCY);
      limits.set(depth, limit);
    }
    return limit;
  };
  const fork = async (caller: RunContext, request: ForkRequest): Promise<ForkOutcome> => {
    // `permissionMode: dontAsk` and background agents: nobody is asked, not even PermissionRequest hooks.
    const { askPermission: _ask, permissionRequest: _hooked, ...quietPolicy } = deps.policy(caller);
    const prepared = prepareFork(request, {
      context: caller,
      tools: session.tools,
      ...(s.skillSearchFor === undefined ? {} : { skillSearch: s.skillSearchFor }),
      skillTool: (forkContext) => skillTool(forkContext),
      gate: deps.gate(caller),
      noAskGate: createToolGate(quietPolicy, deps.runHooks, (agentId, skill) =>
        deps.loaded.has(agentId, skill),
      ),
      runHooks: deps.runHooks,
      preload: (names, signal) =>
        preloadSkills(names, {
          skills: session.skills,
          sessionId: session.sessionId,
          projectDir: session.projectDir,
          shell: session.shell,
          policy: quietPolicy,
          signal,
        }),
      emit: deps.emit,
      listing: deps.listing,
      maxTokens: s.maxTokens ?? DEFAULT_MAX_TOKENS,
      newAgentId: () => {
        const agentId = `fork-${++forkCounter}-${randomUUID().slice(0, 8)}`;
        // The fork's conversation opens with its skill: that skill's own tools are callable there.
        deps.loaded.add(agentId, request.skill.name, request.task, request.skill);
        return agentId;
      },
      onTouchedPaths: deps.touch,
      ...(deps.forkCompaction === undefined ? {} : { compaction: deps.forkCompaction }),
    });
    if (!("run" in prepared)) return prepared;
    if (!prepared.background) return prepared.run();
    // The caller goes on with the handle; the fork takes a slot of its depth's limit as any fork does.
    const run = prepared.run;
    deps.backgroundForks.start(prepared.agentId, request.skill.name, () => limitFor(request.depth)(run));
    const text = backgroundStartedText(request.name, prepared.agentId, prepared.withheld);
    return { ok: true, text, answer: text };
  };
  const invoke = async (caller: RunContext, request: InvocationRequest) => {
    // The MCP servers only skills need start on the first invocation of a skill that needs them (issue #42).
    const start = s.startSkillServer;
    if (start !== undefined)
      await Promise.all(mcpServersNeeded([request.skill]).map((server) => start(server)));
    const outcome = await pipeline(caller, request);
    if (outcome.kind === "inline" && request.agentId === undefined) deps.inlineSent?.(request.skill, outcome);
    return outcome;
  };
  const pipeline = (caller: RunContext, request: InvocationRequest) =>
    invokeSkill(request, {
      context: caller,
      policy: deps.policy(caller),
      runHooks: deps.runHooks,
      usage: s.usage,
      ...(s.approvals === undefined ? {} : { approvals: s.approvals }),
      emit: deps.emit,
      record: deps.record,
      loaded: deps.loaded,
      switchModel: s.skillModelSwitch === true,
      runFork: (forkRequest) => limitFor(forkRequest.depth)(() => fork(caller, forkRequest)),
    });
  const skillTool = (caller: RunContext): AgentTool => {
    const scope = caller.skillScope ?? MAIN_SCOPE;
    return createSkillTool({
      skills: () => skillsInScope(session.skills.visible(), scope),
      // A skill the session has but this agent's scope leaves out is refused by name, not called unknown.
      outOfScope: (name) =>
        session.skills.visible().some((s) => answersTo(s, name)) ? notAvailableText(name, scope) : undefined,
      pluginSkillNames: () => session.skills.pluginSkillNames(),
      disabled: (name) => session.skills.disabled(name),
      skipped: (name) => session.skills.skipped(name),
      invoke: (request) => invoke(caller, request),
      ownedTools: (skill) => revealedTools(session.tools, skill),
      depth: caller.depth,
      ...(caller.agentId === undefined ? {} : { agentId: caller.agentId }),
    });
  };
  return { skillTool, invoke };
}

/**
 * The deferred tools an inline invocation of `skill` reveals (`tool_reference`): its own (`owner`), and those of
 * the MCP servers it needs that only skills need (`skillServer`), in the tools array's order. Pure.
 */
export function revealedTools(tools: readonly AgentTool[], skill: Skill): string[] {
  const servers = new Set(mcpServersNeeded([skill]));
  return tools
    .filter(
      (t) =>
        t.deferLoading === true &&
        (t.owner === skill.name || (t.skillServer !== undefined && servers.has(t.skillServer))),
    )
    .map((t) => t.name);
}
