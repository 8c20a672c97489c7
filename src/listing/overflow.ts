import type { Skill } from "../skill/skill.js";
import { cutDescription } from "./description.js";

/** The name of the skill search tool the omitted-skills line points to (SPEC §14.15). */
export const SKILL_SEARCH_TOOL_NAME = "SkillSearch";

/**
 * The `[beyond]` last line of a block that leaves `count` skills out (SPEC §3): how many, and how to find them
 * (the `SkillSearch` tool when the agent has it, else their exact names).
 */
export function omittedNote(count: number, searchable: boolean): string {
  const more = count === 1 ? "1 more skill is" : `${count} more skills are`;
  const them = count === 1 ? "it" : "them";
  return searchable
    ? `(${more} not listed to fit the listing budget: find ${them} with the ${SKILL_SEARCH_TOOL_NAME} tool. The Skill tool accepts every skill, listed or not.)`
    : `(${more} not listed to fit the listing budget. The Skill tool accepts every skill, listed or not, by its exact name.)`;
}

/** Chars of the omitted-skills line and the blank line before it (none when it is the only text). Pure. */
export function omittedCost(count: number, hasLines: boolean, searchable: boolean): number {
  return count === 0 ? 0 : omittedNote(count, searchable).length + (hasLines ? 2 : 0);
}

/**
 * The skill search is offered when the catalog's full listing lines take more than this share of the session
 * model's listing budget. The other half is headroom: skills that arrive later in the session (conditional
 * activation, nested discovery, a reload, an MCP `list_changed`) and forks whose model has a smaller window.
 */
export const SEARCH_LISTING_SHARE = 0.5;

/**
 * True when the listing of `skills` can cut anything during a session (a description shortened to fit, a skill
 * listed by name only or left out), so the `SkillSearch` tool must be among the tools from the first request
 * (the tools array never changes within a session, SPEC §14.15). Decided once at session open over the whole
 * catalog, un-activated conditional skills included (they may activate): its full lines (`- {display}:
 * {description}`, each description at most `maxDescChars`, joined with `⏎`; `disable-model-invocation` skills
 * never count) exceed {@link SEARCH_LISTING_SHARE} of `budget`. Pure; linear in the skills, and it stops
 * reading descriptions once the share is passed.
 */
export function catalogCanCut(skills: readonly Skill[], budget: number, maxDescChars: number): boolean {
  const limit = budget * SEARCH_LISTING_SHARE;
  let chars = -1;
  for (const skill of skills) {
    if (skill.disableModelInvocation) continue;
    const name = 3 + skill.name.length + (skill.alias === undefined ? 0 : skill.alias.length + 3);
    const description = cutDescription(skill, maxDescChars).text.length;
    chars += name + (description === 0 ? 0 : description + 2);
    if (chars > limit) return true;
  }
  return false;
}
