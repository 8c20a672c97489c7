import type { ModelMessage } from "../agent/model-types.js";
import {
  type BuildListingOptions,
  buildListing,
  formatListingBlock,
  LISTING_HEADER,
  type Listing,
  type ListingLimits,
  nameLinesChars,
  omittedNote,
} from "../listing.js";
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

const EMPTY_LISTING: Listing = { text: "", entries: [], cut: [], omitted: [], chars: 0 };

/**
 * A delta: the skills not in `sent`, packed on their own into `options.budget` (what is left of the budget).
 * Entries are packed into what is left after keeping room for the omitted-skills line, so a delta that must
 * leave skills out can still say so; only such a delta uses that room. When not even that line fits, nothing
 * is sent ("", its names still reported omitted: an earlier block said how to find skills not listed).
 * Bundled entries are sent whole, as in any listing.
 *
 * Without the skill search (`options.searchable` false) a skill left out could never be found: the model only
 * knows the names it was shown. So such a delta lists every new skill at least by name, past what is left of
 * the budget, up to `nameRoom` chars beyond it (the listing budget: a session without the skill search has a
 * catalog whose names fit in half of it); descriptions never go past the budget. Only a flood of new skills
 * beyond that is still left out, with the line. Pure.
 */
function deltaListing(
  skills: readonly Skill[],
  sent: ReadonlySet<string>,
  options: BuildListingOptions,
  nameRoom: number,
): Listing {
  const fresh = skills.filter((s) => !sent.has(s.name));
  const searchable = options.searchable ?? false;
  if (!searchable) {
    // No room is kept for the omitted-skills line: every name fits unless the new skills are a flood.
    const names = Math.min(nameLinesChars(fresh), options.budget + nameRoom);
    return buildListing(fresh, { ...options, budget: Math.max(options.budget, names) });
  }
  const reserve = omittedNote(fresh.length, searchable).length + 2;
  const listing = buildListing(fresh, { ...options, budget: Math.max(0, options.budget - reserve) });
  if (listing.omitted.length === 0 || listing.chars <= options.budget) return listing;
  // No room for any entry: the block is the omitted-skills line alone, when even that fits.
  const omitted = [...listing.entries.map((e) => e.name), ...listing.omitted];
  const note = omittedNote(omitted.length, searchable);
  if (note.length > options.budget) return { ...EMPTY_LISTING, omitted };
  return { ...EMPTY_LISTING, text: formatListingBlock([], { footer: note }), omitted, chars: note.length };
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
      const fresh = skills.some((s) => !s.disableModelInvocation && !sent.has(s.name));
      if (!fresh) return EMPTY_LISTING;
      const spent = spentByAgent.get(agent) ?? 0;
      const scores = await usage();
      const listing =
        spent === 0
          ? buildListing(skills, { ...pack, usage: scores, now, sentNames: sent })
          : deltaListing(
              skills,
              sent,
              {
                ...pack,
                budget: Math.max(0, pack.budget - spent),
                usage: scores,
                now,
              },
              pack.budget,
            );
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
 * The chars one listing block counts against the budget (SPEC §3): the entry lines after its listing header
 * joined with `⏎`, plus the omitted-skills line and the blank line before it when there is one (as
 * `Listing.chars`; the name-only note is not counted). A nested-discovery announcement counts its entries
 * (after its listing header), not its list of names. 0 for any other text. Pure.
 */
export function listingBlockChars(text: string): number {
  if (!text.startsWith(REMINDER_OPENING)) return 0;
  const lines = text.split("\n");
  const header = lines.indexOf(LISTING_HEADER);
  if (header < 0) return 0;
  const body = lines.slice(header + 1, -1);
  const entries = body.filter((line) => line.startsWith("- "));
  const note = body.find((line) => line.startsWith("(") && line.includes("not listed"));
  const entryChars = entries.join("\n").length;
  return note === undefined ? entryChars : entryChars + note.length + (entries.length > 0 ? 2 : 0);
}

/**
 * The chars a conversation's listing blocks and nested-discovery announcements count against the budget
 * (`listingBlockChars` of each user `<system-reminder>` block): a resumed session goes on from there. Pure.
 */
export function listedChars(messages: readonly ModelMessage[]): number {
  return reminderTexts(messages).reduce((sum, text) => sum + listingBlockChars(text), 0);
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
