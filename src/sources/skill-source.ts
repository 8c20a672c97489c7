import type { Diagnostic } from "../diagnostics.js";
import type { Skill, SkillTier } from "../skill/skill.js";

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

/** A folder a file source looked in, for `doctor` and `list`: whether it exists and how many skills it gave. */
export interface RootReport {
  dir: string;
  source: SkillTier;
  label: string;
  exists: boolean;
  /** Skills and commands loaded from this root (after dedup and clashes). */
  count: number;
}

/**
 * What a source holds now: its skill heads (each loads its own body and references) and what was wrong. Skills
 * come in precedence order within the source (the first of two with one name wins unless another source ranks
 * lower). A file source also reports the folders it looked in (`roots`, their `count` left 0: the catalog
 * counts the skills that survive).
 */
export interface SourceListing {
  skills: Skill[];
  diagnostics: Diagnostic[];
  roots?: RootReport[];
  /**
   * Names of skills found but left out by an error diagnostic (over the size limit, unreadable, …), so that a
   * call of one can say it exists but was skipped. Absent means none.
   */
  skipped?: string[];
}

/**
 * Where skills come from: file roots, plugins, MCP servers, bundled skills, an application's memory or database.
 * Every provider is one of these, and one catalog (`createCatalog`) ranks, deduplicates and filters what they
 * list. A source lists skill heads (`list`); each head loads its body (`Skill.loadBody`) and lists and reads its
 * references (`Skill.references`) only when asked. `subscribe` tells the catalog that something changed, and it
 * rescans, so open sessions get a listing delta (SPEC §3) on their next request.
 */
export interface SkillSource {
  /** Names the source in diagnostics, e.g. `memory`, `db:skills`. */
  readonly id: string;
  /**
   * Precedence on the {@link SOURCE_RANKS} scale (managed 100, user 200, project 300, plugin 400, MCP 500,
   * bundled 600), an integer. Lower wins a name clash; sources of one rank keep the order they were composed in.
   * Absent: each skill ranks by its own tier (`skill.source`), which is how the built-in sources (files,
   * plugins, MCP, bundled) place skills of several tiers; an app's skills (tier `app`) then sit at
   * {@link DEFAULT_APP_RANK} (550).
   */
  readonly rank?: number;
  list(signal?: AbortSignal): Promise<SourceListing>;
  /** Calls `onChange` after each change; returns a function that stops it. */
  subscribe(onChange: () => void): () => void;
}
