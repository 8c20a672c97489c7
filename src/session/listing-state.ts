import type { ModelMessage } from "../agent/model-types.js";
import { buildListing, type Listing, type ListingLimits } from "../listing.js";
import { displayName, type Skill } from "../skill/skill.js";
import type { UsageScores } from "../usage.js";

/** The main agent's key in the sent-names map. */
export const MAIN_AGENT = "main";

/** How one agent's listing is packed: the limits for its model, and whether it has the skill search. */
export interface ListingPack extends ListingLimits {
  /** The agent has the `SkillSearch` tool (the omitted-skills line points to it). */
  searchable: boolean;
}

/**
 * Remembers, per agent, which skill names have been sent (SPEC §3 deltas): listed, or left out of a listing
 * over budget (those are found with the skill search and never announced again). One per session; `reset`
 * after compaction makes the next listing for that agent full again.
 */
export interface ListingState {
  /**
   * The listing block for `agent`: everything not yet sent to it ("" when nothing is new), packed over every
   * skill so that a delta, however many skills arrived, stays within `pack.budget`. Marks its entries and its
   * omitted names sent. `usage` is loaded only when there is something new to pack (not on every request).
   */
  next(
    agent: string,
    skills: readonly Skill[],
    pack: ListingPack,
    usage: () => Promise<UsageScores>,
    now: number,
  ): Promise<Listing>;
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
    async next(agent, skills, pack, usage, now) {
      const sent = sentFor(agent);
      const fresh = skills.some((s) => !s.disableModelInvocation && !sent.has(s.name));
      if (!fresh) return { text: "", entries: [], cut: [], omitted: [], chars: 0 };
      const listing = buildListing(skills, { ...pack, usage: await usage(), now, sentNames: sent });
      for (const entry of listing.entries) sent.add(entry.name);
      for (const name of listing.omitted) sent.add(name);
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

/** How the second line of a listing block or a nested-skills announcement ends (SPEC §3, §9). */
const LISTING_HEADER_END = "the Skill tool:";
const REMINDER_OPENING = "<system-reminder>\n";

/** The user-role text blocks of `messages` that are `<system-reminder>` blocks, in order. Pure. */
export function reminderTexts(messages: readonly ModelMessage[]): string[] {
  const texts: string[] = [];
  for (const message of messages) {
    if (message.role !== "user" || typeof message.content === "string") continue;
    for (const block of message.content) {
      if (block.type === "text" && block.text.startsWith(REMINDER_OPENING)) texts.push(block.text);
    }
  }
  return texts;
}

/**
 * The names among `skills` that a conversation already listed to the model: those with an entry line
 * (`- {display}` or `- {display}: …`) in a listing or an announcement (a user `<system-reminder>` block whose
 * header line ends with "the Skill tool:"). A resumed session marks them sent and keeps them invocable. Pure.
 */
export function namesListedIn(messages: readonly ModelMessage[], skills: readonly Skill[]): string[] {
  const lines = new Set<string>();
  for (const text of reminderTexts(messages)) {
    const [, header, ...rest] = text.split("\n");
    if (header === undefined || !header.endsWith(LISTING_HEADER_END)) continue;
    for (const line of rest) if (line.startsWith("- ")) lines.add(line);
  }
  if (lines.size === 0) return [];
  const listed = [...lines];
  return skills
    .filter((skill) => {
      const entry = `- ${displayName(skill)}`;
      return lines.has(entry) || listed.some((line) => line.startsWith(`${entry}: `));
    })
    .map((skill) => skill.name);
}
