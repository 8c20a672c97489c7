import type { AgentEvent } from "../agent/events.js";
import type { AgentTool, TransformContext } from "../agent/loop.js";
import type { ModelMessage } from "../agent/model-types.js";
import type { SkillScope } from "../agent-types/skill-scope.js";
import type { SkillApprovals } from "../approvals/skill-approvals.js";
import type { RunContext } from "../context.js";
import type { HookFetch } from "../hooks/run-http-hook.js";
import type { ListingSettings } from "../listing/budget.js";
import type { InvokedSkill } from "../skill-tool/invoked-skill.js";
import type { UsageStore } from "../usage.js";
import type { ResumedConversation } from "./resume.js";
import type { SessionSnapshot } from "./session-snapshot.js";
import type { SkillContextUsage } from "./skill-context/context-usage.js";
import type { SkillContextOptions } from "./skill-context/expiry.js";
import type { TranscriptStore } from "./transcript-store.js";

/**
 * What a session fixes when it opens: a {@link RunContext} without what each turn brings (its abort signal) and
 * an agent's place (depth, agent id), and what the snapshot in force configures (rules, agent types). A turn
 * runs on `turnContext(session, snapshot, signal)`, a fork on a child of its caller's context.
 */
export type SessionContext = Omit<RunContext, "signal" | "depth" | "agentId" | "rules" | "agents">;

/**
 * Everything a session is built from; `openSession` assembles it. What every layer needs is in `context`
 * (built once); the rest is the session's own: its prompt, stores, limits and what a resumed session restores.
 */
export interface SessionDeps {
  context: SessionContext;
  system: string;
  /** Skills whose name and description the system prompt already holds (catalog in system mode). */
  systemListingNames?: readonly string[];
  /** The expansion of a user prompt that names a prompt template (`/name args`), else undefined. */
  expandTemplate?: (prompt: string) => string | undefined;
  /** Where skill usage is recorded (`openSession`'s default: `~/.skillwright` over the host's file system). */
  usage: UsageStore;
  /**
   * Content-pinned approvals of project, plugin and MCP skills (`openSession`'s default: `~/.skillwright` over
   * the host's file system). Absent: such skills are asked about as never approved, and nothing is recorded.
   */
  approvals?: SkillApprovals;
  /**
   * Where transcripts go. `openSession`'s default: files under `~/.skillwright/sessions` when the engine's file
   * system is the host's (`fs.host`), else memory: nothing reaches the host's disk that the caller did not hand in.
   */
  store: TranscriptStore;
  /** The listing settings (`skillListingBudget`, `skillListingBudgetFraction`, `skillListingMaxDescChars`). */
  listingSettings?: ListingSettings;
  /**
   * Whether a model-invoked inline skill's `model:` switches the rest of the turn's requests to it (a typed
   * `/name` always does). Default false: the request model stays and the skill's model is named in a note.
   */
  skillModelSwitch?: boolean;
  /** The `SkillSearch` tool for a sub-agent's skill scope (the main agent's is `context.skillSearch`). */
  skillSearchFor?: (scope: SkillScope) => AgentTool;
  /** When the main agent's inline skill expansions expire (a skill's `ttl-turns` wins over the default). */
  skillContext?: SkillContextOptions;
  /** The host's transform of each main-agent request's messages, after expired expansions are stubbed. */
  transformContext?: TransformContext;
  /** The main agent's model requests per user turn at most. */
  maxTurns?: number;
  maxTokens?: number;
  forkConcurrency?: number;
  /** The snapshot in force (rules, hooks, agent types, templates): each turn takes it when it starts. */
  snapshot: () => SessionSnapshot;
  /** What a resumed session starts from. */
  resumed?: ResumedConversation;
  /** Called once when the session closes (e.g. to stop following engine reloads). */
  onClose?: () => void;
  /**
   * Resolves once a rediscovery in flight (an MCP server's `list_changed`, `engine.reload()`) has reached the
   * skill view: a listing built after it shows what changed before the request. Absent: nothing to wait for.
   */
  settled?: () => Promise<unknown>;
  /** Starts an MCP server only skills need, before a skill that needs it runs (`HostSetup.startSkillServer`). */
  startSkillServer?: (server: string) => Promise<void>;
  /** How `type: http` hooks reach their URL (see `OpenSessionOptions.hookFetch`); absent: they do not run. */
  hookFetch?: HookFetch;
  /** The instruction files (`CLAUDE.md`, …) the system prompt holds: InstructionsLoaded fires for each. */
  instructionFiles?: ReadonlyArray<{ path: string; memoryType: "User" | "Project" }>;
}

/** A conversation with the agent. `send` runs one user turn and streams its events. */
export interface Session {
  readonly id: string;
  send(prompt: string, options?: { signal?: AbortSignal }): AsyncIterable<AgentEvent>;
  /**
   * For a host with no next user message (headless, serve): waits for the background forks still running,
   * streaming their events, then runs one more turn of the main agent whose user message holds their answers
   * (again while that turn started more). Ends with no turn when none is running or waiting; `signal` (or
   * `close`) stops the wait, and aborts the forks when it is the signal of the turn that started them.
   */
  drainBackground(options?: { signal?: AbortSignal }): AsyncIterable<AgentEvent>;
  /** How many background forks are still running. */
  backgroundRunning(): number;
  messages(): readonly ModelMessage[];
  invoked(): readonly InvokedSkill[];
  /**
   * What each skill costs the context now (listing lines, live expansions, re-attachments, expired stubs, its
   * forks), read from the session's transcript by `skillContextUsage`, as `/context` and `stats --session` do.
   */
  contextUsage(): Promise<SkillContextUsage>;
  /** Compacts now (as `/compact` does). */
  compact(signal?: AbortSignal): Promise<{ ok: true } | { ok: false; message: string }>;
  /**
   * Ends the session: a turn, compaction or background fork still running is stopped (its signal aborts) and
   * waited for, then `SessionEnd` runs,
   * then it waits for `async: true` hooks still running (each ends by its own timeout at the latest).
   */
  close(): Promise<void>;
}
