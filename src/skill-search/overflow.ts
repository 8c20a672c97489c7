import type { Skill } from "../skill/skill.js";

/**
 * The skill search is offered when the catalog's name-only lines take more than this share of the session
 * model's listing budget. The other half is headroom: skills that arrive later in the session (conditional
 * activation, nested discovery, a reload, an MCP `list_changed`) and forks whose model has a smaller window.
 */
export const SEARCH_NAME_SHARE = 0.5;

/**
 * True when the listing of `skills` can leave names out during a session, so the `SkillSearch` tool must be
 * among the tools from the first request (the tools array never changes within a session, SPEC §14.15).
 * Decided once at session open over the whole catalog, un-activated conditional skills included (they may
 * activate): its name-only lines (`- {display}` joined with `⏎`; `disable-model-invocation` skills never
 * count) exceed {@link SEARCH_NAME_SHARE} of `budget`. Pure; linear in the skills.
 */
export function catalogCanOverflow(skills: readonly Skill[], budget: number): boolean {
  const limit = budget * SEARCH_NAME_SHARE;
  let chars = -1;
  for (const skill of skills) {
    if (skill.disableModelInvocation) continue;
    chars += 3 + skill.name.length + (skill.alias === undefined ? 0 : skill.alias.length + 3);
    if (chars > limit) return true;
  }
  return false;
}
