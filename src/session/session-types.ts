import type { InvokedSkill } from "../agent/compaction/reattach.js";
import type { AgentEvent } from "../agent/events.js";
import type { AgentTool } from "../agent/loop.js";
import type { ModelClient, ModelMessage } from "../agent/model-client.js";
import type { ModelEffort } from "../agent/models.js";
import type { SessionStore } from "../agent/session-store.js";
import type { AgentType } from "../fork/agent-types.js";
import type { HookRegistry } from "../hooks/registry.js";
import type { FsOps } from "../io/fs.js";
import type { ShellOps } from "../io/shell.js";
import type { ListingSettings } from "../listing.js";
import type { AskPermission, PermissionRules } from "../permissions/decision.js";
import type { UsageStore } from "../usage.js";
import type { SkillView } from "./skill-view.js";

/** Everything a session is built from; the engine assembles it. */
export interface SessionDeps {
  id: string;
  cwd: string;
  projectDir: string;
  home: string;
  env: Record<string, string | undefined>;
  fs: FsOps;
  shell: ShellOps;
  client: ModelClient;
  model: string;
  effort?: ModelEffort;
  system: string;
  /** Skills whose name and description the system prompt already holds (catalog in system mode). */
  catalogNames?: readonly string[];
  /** The expansion of a user prompt that names a prompt template (`/name args`), else undefined. */
  expandTemplate?: (prompt: string) => string | undefined;
  /** Built-in and MCP tools (the Skill tool is added here). */
  tools: readonly AgentTool[];
  skills: SkillView;
  agents: () => readonly AgentType[];
  rules: PermissionRules;
  askPermission?: AskPermission;
  hooks: HookRegistry;
  usage: UsageStore;
  store: SessionStore;
  /** The listing settings (`skillListingBudget`, `skillListingBudgetFraction`, `skillListingMaxDescChars`). */
  listingSettings?: ListingSettings;
  /**
   * The `SkillSearch` tool, when the catalog can overflow the listing (decided at session open): offered to the
   * main agent and to forks that may use skills, and named in the listing's omitted-skills line.
   */
  skillSearch?: AgentTool;
  maxTurns?: number;
  maxTokens?: number;
  forkConcurrency?: number;
  now?: () => number;
  /** Messages to start from (a resumed session). */
  history?: ModelMessage[];
  /** Called once when the session closes (e.g. to stop following engine reloads). */
  onClose?: () => void;
  /** The invoked-skill log of a resumed session (for compaction's re-attachment). */
  priorInvocations?: InvokedSkill[];
  /** The main agent's invocations a resumed conversation still holds (those since its last compaction). */
  priorLoaded?: InvokedSkill[];
  /**
   * Resolves once a rediscovery in flight (an MCP server's `list_changed`, `engine.reload()`) has reached the
   * skill view: a listing built after it shows what changed before the request. Absent: nothing to wait for.
   */
  settled?: () => Promise<unknown>;
  /** A resumed session's `once` hooks that had fired (transcript `hook_fired` keys). */
  priorFiredOnce?: string[];
}

/** A conversation with the agent. `send` runs one user turn and streams its events. */
export interface Session {
  readonly id: string;
  send(prompt: string, options?: { signal?: AbortSignal }): AsyncIterable<AgentEvent>;
  messages(): readonly ModelMessage[];
  invoked(): readonly InvokedSkill[];
  /** Compacts now (as `/compact` does). */
  compact(signal?: AbortSignal): Promise<{ ok: true } | { ok: false; message: string }>;
  close(): Promise<void>;
}
