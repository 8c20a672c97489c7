import type { Skill } from "../skill/skill.js";

/** What a forked skill returns to its caller. */
export type ForkOutcome = { ok: true; text: string; answer: string } | { ok: false; text: string };

/** What the Skill tool asks of the fork runner: run `skill` as a sub-agent on `task`. */
export interface ForkRequest {
  skill: Skill;
  /** The name as called (an alias stays the alias), for the result text. */
  name: string;
  args: string;
  /** The task: `Base directory…⏎⏎{body}`, expanded. */
  task: string;
  signal: AbortSignal;
  /** The depth of the agent that asked (0 = main). */
  depth: number;
  /**
   * The session's model: the main agent's model for this turn (an inline skill's `model:` included) when the
   * first fork of the chain was called. A fork whose skill and agent type name no model (or `inherit`) runs on it,
   * at any depth.
   */
  sessionModel: string;
}
