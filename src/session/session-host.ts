import type { AgentTool } from "../agent/loop.js";
import type { SkillApprovals } from "../approvals/skill-approvals.js";
import type { Discovery } from "../catalog/catalog.js";
import type { Diagnostic } from "../diagnostics.js";
import type { FsOps } from "../io/fs.js";
import type { PromptFiles } from "../prompt/load-prompt-files.js";
import type { IndexCacheOptions } from "../skill-search/index-cache.js";
import type { UsageStore } from "../usage.js";
import type { SessionSnapshot } from "./session-snapshot.js";
import type { TranscriptStore } from "./transcript-store.js";
import type { NestedFinder } from "./view.js";

/**
 * What a session needs from whoever hosts it (the CLI's `Engine` through `engineSessionHost`; an application or
 * serve with its own): where it runs, its I/O, the skill catalog and what configures the session. Nothing here
 * requires a host path: a host without a file system hands in an empty in-memory `fs` and reads nothing.
 */
export interface SessionHost {
  readonly cwd: string;
  /** The project root (`CLAUDE_PROJECT_DIR` for hooks and inline shell). */
  readonly projectDir: string;
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The file system the built-in tools use by default and skills' inline I/O goes through. */
  readonly fs: FsOps;
  /**
   * The skills: the current discovery, and its changes (a reload, the watcher, a source's change). After each
   * change the session asks {@link SessionHost.snapshot} again and swaps the result in whole.
   */
  readonly catalog: {
    get(): Promise<Discovery>;
    /** Returns a function that removes the listener. */
    onChange(listener: (discovery: Discovery) => void): () => void;
  };
  /** What the session is configured from as things stand now (settings, rules, hooks, agent types, templates). */
  snapshot(): Promise<SessionSnapshot>;
  /** What the host adds once, when a session opens; `report` receives problems found later (a torn transcript). */
  setup(report: (diagnostic: Diagnostic) => void): Promise<HostSetup>;
}

/** What a host hands a session once, at open. */
export interface HostSetup {
  /** The host's own tools (MCP servers'), offered beside the built-ins. */
  tools: readonly AgentTool[];
  /**
   * Starts an MCP server only skills need (its tools are among `tools`, deferred), when a skill that needs it is
   * invoked. Never rejects. Absent: the host has no such server.
   */
  startSkillServer?: (server: string) => Promise<void>;
  /** The MCP servers' instructions, for the system prompt. */
  instructions: ReadonlyArray<{ server: string; text: string }>;
  /** The prompt files (`SYSTEM.md`, `APPEND_SYSTEM.md`, context files); none: the built-in prompt alone. */
  promptFiles: PromptFiles;
  /** The git root (context files are read from there down to the cwd). */
  gitRoot?: string;
  /** Finds skills in nested skill dirs the session's tools touch; absent: none are looked for. */
  nested?: NestedFinder;
  /** Where transcripts go when the session is given none. */
  store: () => TranscriptStore;
  /** Where skill usage is recorded when the session is given none. */
  usage: () => UsageStore;
  /** Where the skill search keeps its index between runs; absent: in memory only (built on the first search). */
  searchIndexCache?: IndexCacheOptions;
  /** Where skill approvals are kept when the session is given none; absent: nowhere (never approved). */
  approvals?: () => SkillApprovals;
}
