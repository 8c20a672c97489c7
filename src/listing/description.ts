import type { Skill } from "../skill/skill.js";

/** Longest description (with ` - {when_to_use}`) kept in an entry; longer text is cut with `…` (SPEC §3). */
export const LISTING_DESCRIPTION_CAP = 1_536;
const ELLIPSIS = "…";

/** A skill's listing description and how much of it the cap cut. */
export interface Description {
  text: string;
  /** Chars of the collapsed text that the cap removed (0 when not capped). */
  capped: number;
}

/**
 * The description shown for a skill and the chars the cap removed (see `listingDescription`); empty for a skill
 * a `skillOverrides` `name-only` lists by name (see {@link withheldChars}). Pure.
 */
export function cutDescription(
  skill: Pick<Skill, "description" | "whenToUse" | "override">,
  cap: number,
): Description {
  if (skill.override?.state === "name-only") return { text: "", capped: 0 };
  const whenToUse = skill.whenToUse?.trim();
  const raw = whenToUse ? `${skill.description} - ${whenToUse}` : skill.description;
  const collapsed = raw.includes("\n") || raw.includes("\r") ? raw.replace(/\s*[\r\n]\s*/g, " ") : raw;
  const text = collapsed.trim();
  if (text.length <= cap) return { text, capped: 0 };
  let end = cap - 1;
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return { text: text.slice(0, end) + ELLIPSIS, capped: text.length - end };
}

/** The chars of description a `skillOverrides` `name-only` keeps from the model (0 for any other skill). Pure. */
export function withheldChars(skill: Pick<Skill, "description" | "whenToUse" | "override">): number {
  if (skill.override?.state !== "name-only") return 0;
  return cutDescription(
    { description: skill.description, whenToUse: skill.whenToUse },
    Number.MAX_SAFE_INTEGER,
  ).text.length;
}

/**
 * The description shown for a skill: `description` plus ` - {when_to_use}`, each run of whitespace holding a
 * newline collapsed to one space, capped at `cap` chars (default 1,536: the first 1,535 + `…`; a surrogate
 * pair is never split, so the kept part may be one char shorter). Pure.
 */
export function listingDescription(
  skill: Pick<Skill, "description" | "whenToUse" | "override">,
  cap: number = LISTING_DESCRIPTION_CAP,
): string {
  return cutDescription(skill, cap).text;
}
