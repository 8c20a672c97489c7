import { formatListingBlock, listingDescription } from "../listing.js";
import { displayName, type Skill } from "../skill/skill.js";

/** Where nested skills were found, relative to the cwd, `/`-separated. */
export interface NestedRootLabel {
  /** The skills dir, e.g. `packages/api/.claude/skills`. */
  root: string;
  /** The dir holding it, e.g. `packages/api`. */
  base: string;
}

/** The announcement header for one nested skills dir (SPEC §9). */
export function nestedHeader(label: NestedRootLabel): string {
  return `New skills discovered in ${label.root}, now available via the Skill tool:`;
}

const HEADER_PATTERN = /^New skills discovered in (.+), now available via the Skill tool:$/;

/**
 * The nested skills dir an announcement block (see `nestedAnnouncement`) names, relative to the cwd
 * (`packages/api/.claude/skills`), or undefined for any other text. A resumed session uses it to find again
 * the skills its stored conversation announced. Pure.
 */
export function announcedNestedRoot(text: string): string | undefined {
  const [opening, header] = text.split("\n", 2);
  if (opening !== "<system-reminder>" || header === undefined) return undefined;
  return HEADER_PATTERN.exec(header)?.[1];
}

/**
 * One announcement entry: the listing entry of SPEC §3 (`- {name}: {desc}`, `{name}` with its alias, the
 * description capped by `listingDescription`) followed by ` (from {root} — applies when working on files
 * under {base}/)`. Pure.
 */
export function nestedEntry(
  skill: Pick<Skill, "name" | "alias" | "description" | "whenToUse">,
  label: NestedRootLabel,
): string {
  const desc = listingDescription(skill);
  const head = desc === "" ? `- ${displayName(skill)}` : `- ${displayName(skill)}: ${desc}`;
  return `${head} (from ${label.root} — applies when working on files under ${label.base}/)`;
}

/**
 * The `<system-reminder>` block announcing skills found in one nested skills dir: the header line, a blank
 * line, one `nestedEntry` per skill in the given order, framed like the listing (`formatListingBlock`). ""
 * when there are no skills. Pure.
 */
export function nestedAnnouncement(
  label: NestedRootLabel,
  skills: readonly Pick<Skill, "name" | "alias" | "description" | "whenToUse">[],
): string {
  return formatListingBlock(
    skills.map((s) => nestedEntry(s, label)),
    { header: nestedHeader(label) },
  );
}
