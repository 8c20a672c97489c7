import type { AgentTool } from "./agent/loop.js";
import type { ModelClient } from "./agent/model-client.js";
import type { ModelMessage } from "./agent/model-types.js";
import type { AgentType } from "./agent-types/agent-types.js";
import type { SkillScope } from "./agent-types/skill-scope.js";
import type { SkillView } from "./discovery/skill-view.js";
import type { HookRegistry } from "./hooks/registry.js";
import type { FsOps } from "./io/fs.js";
import type { ShellOps } from "./io/shell.js";
import type { ModelEffort } from "./models.js";
import type { AskPermission, BeforeToolRun, PermissionRules } from "./permissions/decision.js";

/**
 * Where an agent's conversation goes: each message it adds, written to the session's transcript. `agentId`
 * names the sub-agent that added it; a child context's sink fills in its own.
 */
export type TranscriptSink = (message: ModelMessage, agentId?: string) => Promise<void>;

/**
 * What every layer of a run needs, built once per session (`openSession`) and handed down instead of a bag of
 * fields copied at each layer: where it runs, its I/O, the model, the catalog (skills and agent types), the
 * tools, permissions, hooks, the abort signal and the transcript. A fork runs on {@link childContext}.
 */
export interface RunContext {
  readonly sessionId: string;
  /** The working directory (tools resolve relative paths against it). */
  readonly cwd: string;
  /** The project root (`CLAUDE_PROJECT_DIR` for hooks and inline shell). */
  readonly projectDir: string;
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly fs: FsOps;
  readonly shell: ShellOps;
  readonly client: ModelClient;
  /** The model this agent runs on (id or alias, as configured). */
  readonly model: string;
  readonly effort?: ModelEffort;
  /**
   * A fork's: the main agent's model for the turn when the first fork of its chain was called (what a fork that
   * names no model runs on). Undefined for the main agent, whose turn's current model is the session's.
   */
  readonly sessionModel?: string;
  /** The session's skills as they stand now. */
  readonly skills: SkillView;
  /** Which of them this agent may see and call (its agent type's); absent: the main agent's (`MAIN_SCOPE`). */
  readonly skillScope?: SkillScope;
  /** The agent types a forked skill can run as (built-in, user, project, plugin). */
  readonly agents: readonly AgentType[];
  /** Built-in and MCP tools (without the Skill tool, which each agent gets for its own depth). */
  readonly tools: readonly AgentTool[];
  /** The `SkillSearch` tool, when the listing can cut anything (`catalogCanCut`). */
  readonly skillSearch?: AgentTool;
  readonly rules: PermissionRules;
  /** Asked when a permission decision is `ask`; absent (headless), `ask` means no. */
  readonly askPermission?: AskPermission;
  /** Awaited before each allowed tool call runs, the forks' too (see `BeforeToolRun`); absent: calls run at once. */
  readonly beforeToolRun?: BeforeToolRun;
  readonly hooks: HookRegistry;
  /** Aborted when the run this context belongs to stops (for a child: when its parent's does, too). */
  readonly signal: AbortSignal;
  readonly transcript: TranscriptSink;
  /** 0 for the main agent, parent's + 1 for a fork. */
  readonly depth: number;
  /** The sub-agent's id; undefined for the main agent. */
  readonly agentId?: string;
  readonly now: () => number;
}

/** What a child context changes: its agent id (required), and optionally its own signal, model and tools. */
export interface ChildOverrides {
  agentId: string;
  /** Aborts the child alone; the parent's signal aborts it too. */
  signal?: AbortSignal;
  model?: string;
  /** The session's model the fork started under (see {@link RunContext.sessionModel}); default the parent's. */
  sessionModel?: string;
  effort?: ModelEffort;
  tools?: readonly AgentTool[];
  /** The skills the child's agent type may see; default the parent's. */
  skillScope?: SkillScope;
  /** Nobody answers the child's permission questions (a background fork): it has no `askPermission`. */
  noAsk?: true;
}

/**
 * The context of a fork: the parent's, narrowed. Depth + 1, its own agent id (its transcript entries carry
 * it), a signal aborted by the parent's or its own (`AbortSignal.any`), and the model, effort and tools it was
 * given; everything else (cwd, I/O, client, catalog, permissions, hooks) is the parent's, except that a `noAsk`
 * child asks nobody. Pure.
 */
export function childContext(parent: RunContext, overrides: ChildOverrides): RunContext {
  const { agentId } = overrides;
  const effort = overrides.effort ?? parent.effort;
  const sessionModel = overrides.sessionModel ?? parent.sessionModel;
  const { effort: _parentEffort, askPermission, ...inherited } = parent;
  return {
    ...(askPermission === undefined || overrides.noAsk === true ? {} : { askPermission }),
    ...inherited,
    ...(effort === undefined ? {} : { effort }),
    model: overrides.model ?? parent.model,
    ...(sessionModel === undefined ? {} : { sessionModel }),
    tools: overrides.tools ?? parent.tools,
    ...(overrides.skillScope === undefined ? {} : { skillScope: overrides.skillScope }),
    depth: parent.depth + 1,
    agentId,
    signal:
      overrides.signal === undefined ? parent.signal : AbortSignal.any([parent.signal, overrides.signal]),
    transcript: (message, id) => parent.transcript(message, id ?? agentId),
  };
}
