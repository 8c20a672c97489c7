import { formatListingBlock, LISTING_HEADER } from "../listing/block.js";
import { listingDescription } from "../listing/description.js";
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
 * The name a clash-renamed nested skill had before it became `{base}:{name}` (SPEC §9), or undefined for a
 * skill that kept its name. Pure.
 */
export function unscopedName(name: string, label: NestedRootLabel): string | undefined {
  const prefix = `${label.base}:`;
  return name.startsWith(prefix) && name.length > prefix.length ? name.slice(prefix.length) : undefined;
}

/**
 * One announcement entry: the listing entry of SPEC §3 (`- {name}: {desc}`, `{name}` with its alias, the
 * description capped by `listingDescription`) followed by ` (from {root} — applies when working on files
 * under {base}/)`, or, for a clash-renamed `{base}:{name}`, by ` (scoped to {base}/ — use this instead of the
 * unscoped "{name}" skill when the files being changed are under {base}/)` (SPEC §14.10). Pure.
 */
export function nestedEntry(
  skill: Pick<Skill, "name" | "alias" | "description" | "whenToUse">,
  label: NestedRootLabel,
): string {
  const desc = listingDescription(skill);
  const head = desc === "" ? `- ${displayName(skill)}` : `- ${displayName(skill)}: ${desc}`;
  const unscoped = unscopedName(skill.name, label);
  if (unscoped !== undefined) {
    return `${head} (scoped to ${label.base}/ — use this instead of the unscoped "${unscoped}" skill when the files being changed are under ${label.base}/)`;
  }
  return `${head} (from ${label.root} — applies when working on files under ${label.base}/)`;
}

/**
 * The `<system-reminder>` block announcing skills found in one nested skills dir (SPEC §14.10): the header
 * line, one `- {name}` line per skill, a blank line, then the listing header and one `nestedEntry` per skill,
 * both sorted by name. "" when there are no skills. Pure.
 */
export function nestedAnnouncement(
  label: NestedRootLabel,
  skills: readonly Pick<Skill, "name" | "alias" | "description" | "whenToUse">[],
): string {
  const sorted = [...skills].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const names = sorted.map((s) => `- ${s.name}`).join("\n");
  return formatListingBlock(
    sorted.map((s) => nestedEntry(s, label)),
    { header: `${nestedHeader(label)}\n${names}\n\n${LISTING_HEADER}` },
  );
}
