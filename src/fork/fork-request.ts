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
  /** The asking agent's model for this turn, for `model: inherit` and skills that name none. */
  parentModel: string;
}
