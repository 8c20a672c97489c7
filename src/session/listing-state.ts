import { buildListing, type Listing } from "../listing.js";
import type { Skill } from "../skill/skill.js";
import type { UsageScores } from "../usage.js";

/** The main agent's key in the sent-names map. */
export const MAIN_AGENT = "main";

/**
 * Remembers, per agent, which skill names have been sent (SPEC §3 deltas). One per session; `reset` after
 * compaction makes the next listing for that agent full again.
 */
export interface ListingState {
  /** The listing block for `agent`: everything not yet sent to it ("" when nothing is new). Marks it sent. */
  next(agent: string, skills: readonly Skill[], budget: number, usage: UsageScores, now: number): Listing;
  reset(agent: string): void;
  /** Records names announced another way (nested discovery), so deltas do not repeat them. */
  markSent(agent: string, names: readonly string[]): void;
  sent(agent: string): ReadonlySet<string>;
}

/** Creates an empty listing state. */
export function createListingState(): ListingState {
  const sentByAgent = new Map<string, Set<string>>();
  const sentFor = (agent: string) => {
    let set = sentByAgent.get(agent);
    if (set === undefined) {
      set = new Set();
      sentByAgent.set(agent, set);
    }
    return set;
  };
  return {
    next(agent, skills, budget, usage, now) {
      const sent = sentFor(agent);
      const listing = buildListing(skills, { budget, usage, now, sentNames: sent });
      for (const entry of listing.entries) sent.add(entry.name);
      return listing;
    },
    reset(agent) {
      sentByAgent.delete(agent);
    },
    markSent(agent, names) {
      const sent = sentFor(agent);
      for (const name of names) sent.add(name);
    },
    sent: (agent) => sentFor(agent),
  };
}
