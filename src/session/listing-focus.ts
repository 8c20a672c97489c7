import { focusSeed, type ListingFocus, RELEVANT_LIMIT } from "../listing/focus.js";
import type { Skill } from "../skill/skill.js";
import { searchCallable } from "../skill-search/search.js";

/**
 * The listing focus of a session whose first prompt is `firstPrompt` (issue #25 item 4): the names of the
 * skills the skill search ranks best for that prompt among `skills` (those the main agent may see; at most
 * {@link RELEVANT_LIMIT}, best first, the ranking `skillwright search` prints), and the rotation seed of that
 * prompt. The session decides it once, at its first listing; `doctor --first-prompt` computes the same. Pure.
 */
export function listingFocus(skills: readonly Skill[], firstPrompt: string): ListingFocus {
  const relevant =
    firstPrompt.trim() === ""
      ? []
      : searchCallable(skills, firstPrompt, RELEVANT_LIMIT).map((m) => m.skill.name);
  return { relevant, seed: focusSeed(firstPrompt) };
}
