import type { Skill } from "../skill/skill.js";
import type { UsageScores } from "../usage.js";
import { formatListingBlock } from "./block.js";
import type { ListingPack } from "./budget.js";
import { omittedNote } from "./overflow.js";
import { type BuildListingOptions, buildListing, type Listing, nameLinesChars } from "./packing.js";

// What changed since what was announced (SPEC §3 deltas): the next listing block for an agent, given the names
// already sent to it and the chars its blocks since its last full listing have spent of the budget.

/** A listing with nothing to send. */
export const EMPTY_LISTING: Listing = { text: "", entries: [], cut: [], omitted: [], chars: 0 };

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
export function deltaListing(
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

/**
 * `skills` for a delta, stably reordered so that the names of `activated` come in its order, after every other
 * skill (issue #44: skills activated together are announced in the order of their activation). Pure.
 */
export function inActivationOrder<T extends { name: string }>(
  skills: readonly T[],
  activated: readonly string[],
): T[] {
  if (activated.length === 0) return [...skills];
  const rank = new Map(activated.map((name, index) => [name, index]));
  return skills
    .map((skill, index) => ({ skill, index, key: rank.get(skill.name) ?? -1 }))
    .sort((a, b) => a.key - b.key || a.index - b.index)
    .map((e) => e.skill);
}

/** True when some listable skill of `skills` is not in `sent`: there is a listing block to pack. Pure. */
export function hasUnsent(skills: readonly Skill[], sent: ReadonlySet<string>): boolean {
  return skills.some((s) => !s.disableModelInvocation && !sent.has(s.name));
}

/**
 * The next listing block for an agent that was sent `sent` and whose blocks since its last full listing spent
 * `spent` chars: with nothing spent, the full listing over every skill within `pack.budget` (leaving out what
 * was sent); else a delta of the new skills within what is left (`deltaListing`). Pure.
 */
export function nextListing(
  skills: readonly Skill[],
  announced: { sent: ReadonlySet<string>; spent: number },
  pack: ListingPack,
  usage: UsageScores,
  now: number,
): Listing {
  const { sent, spent } = announced;
  return spent === 0
    ? buildListing(skills, { ...pack, usage, now, sentNames: sent })
    : deltaListing(
        skills,
        sent,
        { ...pack, budget: Math.max(0, pack.budget - spent), usage, now },
        pack.budget,
      );
}
