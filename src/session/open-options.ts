import type { AgentTool, TransformContext } from "../agent/loop.js";
import type { ModelClient } from "../agent/model-client.js";
import type { Diagnostic } from "../diagnostics.js";
import type { HookFetch } from "../hooks/run-http-hook.js";
import type { FsOps } from "../io/fs.js";
import type { ShellOps } from "../io/shell.js";
import type { ModelEffort } from "../models.js";
import type { AskPermission, BeforeToolRun } from "../permissions/decision.js";
import type { SkillListingPlacement } from "../prompt/session-prompt.js";
import type { Sandbox } from "../sandbox/sandbox.js";
import type { SkillRetriever } from "../skill-search/retriever.js";
import type { HostRules } from "./session-snapshot.js";
import type { Session, SessionDeps } from "./session-types.js";
import type { SkillContextOptions } from "./skill-context/expiry.js";
import type { TranscriptStore } from "./transcript-store.js";

/** What a host chooses for a session; everything else comes from the engine's config and settings. */
export interface OpenSessionOptions
  extends HostRules,
    Partial<Pick<SessionDeps, "store" | "usage" | "approvals" | "maxTurns">> {
  client: ModelClient;
  /** Model id or alias; default: settings `model`, else {@link DEFAULT_MODEL}. */
  model?: string;
  effort?: ModelEffort;
  /**
   * Whether a model-invoked inline skill's `model:` switches the rest of the turn to that model, as a typed
   * `/name` does. Default: settings `skillModelSwitch`, else false (Claude Code's behaviour: the request keeps
   * its model, and a note names the skill's).
   */
  skillModelSwitch?: boolean;
  /**
   * When inline skill expansions leave what the model is sent: after `expireAfterUserTurns` further user turns
   * (a skill's `ttl-turns` wins), or, oldest first, when together they pass `maxTokens`; each becomes a one-line
   * stub, checked at the start of each user turn (so the prompt cache breaks once per expiry at most). The
   * transcript keeps the expansions. Default: settings `skillContext`, else nothing expires but skills with
   * `ttl-turns`.
   */
  skillContext?: SkillContextOptions;
  /**
   * Applied to the messages of each main-agent request just before it is sent, after expired expansions were
   * stubbed: a pure function (see {@link TransformContext}); the conversation and the transcript keep the original.
   */
  transformContext?: TransformContext;
  /** Asked when a permission decision is `ask`. Absent: headless, and `ask` means no. */
  askPermission?: AskPermission;
  /**
   * Awaited after each tool call (every agent's, the Skill tool's too) is allowed and before it runs: `serve`
   * records the call in its event log here, so no call runs unrecorded. A rejection stops the call unrun.
   */
  beforeToolRun?: BeforeToolRun;
  /** A session id to continue (`--resume`). */
  resume?: string;
  /**
   * The shell for Bash, inline shell (`` !`cmd` ``) and command hooks. Absent: the session has none: no Bash
   * tool, and inline shell and hooks are refused with a message saying so (`createNodeShell()` gives the host's).
   */
  shell?: ShellOps;
  /**
   * Where the session's code runs, as one capability (`createSimulatedSandbox({ fs })` for a simulated bash over
   * `fs` alone): its `shell` runs Bash, inline shell and command hooks, and its `fs` is what the built-in file
   * tools work on. Wins over `shell` and `toolsFs`. A sandbox whose shell refuses (tier `none`) offers no Bash.
   * The caller owns it: closing the session does not close the sandbox.
   */
  sandbox?: Sandbox;
  /**
   * How `type: http` hooks reach their URL. Absent: the session makes no HTTP requests for hooks and those hooks
   * are warnings (`not run`). The CLI passes the global `fetch`; `serve` one that refuses private addresses.
   */
  hookFetch?: HookFetch;
  appendSystemPrompt?: string;
  /** Replaces the base system prompt (wins over `.skillwright/SYSTEM.md`). */
  systemPrompt?: string;
  /**
   * Where the skill listing goes: `messages` (default) lists skills in a `<system-reminder>`; `system` puts the
   * catalog (`<available_skills>`, name and description) in the system prompt once, and skills that appear later
   * arrive as message deltas.
   */
  skillListing?: SkillListingPlacement;
  /** @deprecated The old name of {@link skillListing}, still read when that is absent; it goes in a later release. */
  skillCatalog?: SkillListingPlacement;
  /** False when the session's tools use no file system: the system prompt then has no working directory or date. */
  filesystem?: boolean;
  /** The file system the built-in tools use; default the engine's. */
  toolsFs?: FsOps;
  /** Extra tools (e.g. MCP tools) offered beside the built-ins. */
  extraTools?: AgentTool[];
  /**
   * Whether the built-in file and shell tools (Read, Write, Edit, Bash, …) are offered. Default true; an app
   * that gives the model only its own tools (`extraTools`) turns them off.
   */
  builtinTools?: boolean;
  /**
   * Whether the built-ins include Bash when a `shell` is given. Default true; false keeps the file tools only
   * (a served session on its virtual file system, whose shell runs nothing).
   */
  bashTool?: boolean;
  /**
   * How long one call of a built-in tool whose work follows the model's input (Grep, Glob) may run. Default
   * `TOOL_DEADLINE_MS` (10 s); longer only for tests.
   */
  toolDeadlineMs?: number;
  /**
   * Whether the `load_reference` tool is offered. Default: when a skill without a folder (memory, app or
   * code-registered) has references at open. Decided once: the tools array never changes within a session.
   */
  loadReference?: boolean;
  /**
   * The application's own retriever for `SkillSearch` (embeddings, a search service, a store's index), fused
   * with the offline lexical ranking (see `createSkillSearcher`). Absent: the lexical ranking alone.
   */
  skillRetriever?: SkillRetriever;
  /**
   * Told when `SkillSearch` builds its index from the skills' bodies (its first search with no valid index
   * cache), with how many skills; what it returns is called once the index is built. The CLI shows progress.
   */
  onSearchIndexBuild?: (skills: number) => () => void;
  now?: () => number;
}

/** A session plus what was found wrong while opening it (settings, hooks, agents). */
export interface OpenedSession {
  session: Session;
  diagnostics: Diagnostic[];
  model: string;
  tools: string[];
  /** The store the session's transcript is written to (the interactive `/name` and `/resume` use it). */
  transcripts: TranscriptStore;
}
