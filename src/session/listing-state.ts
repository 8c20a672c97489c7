import type { ListingPack } from "../listing/budget.js";
import { EMPTY_LISTING, hasUnsent, nextListing } from "../listing/deltas.js";
import type { Listing } from "../listing/packing.js";
import type { Skill } from "../skill/skill.js";
import type { UsageScores } from "../usage.js";

/** The main agent's key in the sent-names map. */
export const MAIN_AGENT = "main";

/**
 * Remembers, per agent, which skill names have been sent (SPEC §3 deltas): listed, or left out of a listing
 * over budget (those are found with the skill search and never announced again). One per session; `reset`
 * after compaction makes the next listing for that agent full again.
 */
export interface ListingState {
  /**
   * The listing block for `agent`: everything not yet sent to it ("" when nothing is new). The first block
   * (nothing spent yet) is packed over every skill within `pack.budget`; a later one (a delta) packs only the
   * new skills into what the blocks sent since the last full listing left of the budget, so all of them together
   * stay within it: names only when descriptions do not fit, then skills left out with the "not listed" line
   * (a delta with only that line and no room for it is not sent). Marks its entries and its omitted names
   * sent. `usage` is loaded only when there is something new to pack (not on every request).
   */
  next(
    agent: string,
    skills: readonly Skill[],
    pack: ListingPack,
    usage: () => Promise<UsageScores>,
    now: number,
  ): Promise<Listing>;
  reset(agent: string): void;
  /**
   * Records names sent another way (nested discovery; a listing block sent as it was, then `chars` is what it
   * counts against the budget, see `Listing.chars`), so deltas do not repeat them.
   */
  markSent(agent: string, names: readonly string[], chars?: number): void;
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
  /** Chars of the listing blocks sent to each agent since its last full listing (SPEC §3 budget). */
  const spentByAgent = new Map<string, number>();
  return {
    async next(agent, skills, pack, usage, now) {
      const sent = sentFor(agent);
      if (!hasUnsent(skills, sent)) return EMPTY_LISTING;
      const spent = spentByAgent.get(agent) ?? 0;
      const listing = nextListing(skills, { sent, spent }, pack, await usage(), now);
      for (const entry of listing.entries) sent.add(entry.name);
      for (const name of listing.omitted) sent.add(name);
      spentByAgent.set(agent, spent + listing.chars);
      return listing;
    },
    reset(agent) {
      sentByAgent.delete(agent);
      spentByAgent.delete(agent);
    },
    markSent(agent, names, chars = 0) {
      const sent = sentFor(agent);
      for (const name of names) sent.add(name);
      if (chars > 0) spentByAgent.set(agent, (spentByAgent.get(agent) ?? 0) + chars);
    },
    sent: (agent) => sentFor(agent),
  };
}
