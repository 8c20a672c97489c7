import type { Diagnostic } from "../diagnostics.js";
import type { Skill } from "../skill/skill.js";

/**
 * Precedence of each kind of source (SPEC §2), lower first: on a name clash the skill of the lower rank wins.
 * File roots keep their order inside their layer; an app source sits at its own `rank`, after every built-in
 * layer of the same or lower rank. {@link DEFAULT_APP_RANK} puts app sources after MCP and before bundled.
 */
export const SOURCE_RANKS = {
  managed: 100,
  user: 200,
  project: 300,
  plugin: 400,
  mcp: 500,
  app: 550,
  bundled: 600,
} as const;

/** Where an app source sits when it names no `rank`: after MCP skills, before bundled ones. */
export const DEFAULT_APP_RANK = SOURCE_RANKS.app;

/** What a source holds now: its skill heads (each loads its own body and references) and what was wrong. */
export interface SourceListing {
  skills: Skill[];
  diagnostics: Diagnostic[];
}

/**
 * Where skills come from: file roots, plugins, MCP servers, an application's memory or database. A source lists
 * skill heads (`list`); each head loads its body (`Skill.loadBody`) and lists and reads its references
 * (`Skill.references`) only when asked. `subscribe` tells the engine that something changed, and the engine
 * rescans, so open sessions get a listing delta (SPEC §3) on their next request.
 */
export interface SkillSource {
  /** Names the source in diagnostics, e.g. `memory`, `db:skills`. */
  readonly id: string;
  /**
   * Precedence on the {@link SOURCE_RANKS} scale (managed 100, user 200, project 300, plugin 400, MCP 500,
   * bundled 600), an integer; default {@link DEFAULT_APP_RANK} (550). Lower wins a name clash.
   */
  readonly rank?: number;
  list(signal?: AbortSignal): Promise<SourceListing>;
  /** Calls `onChange` after each change; returns a function that stops it. */
  subscribe(onChange: () => void): () => void;
}
