import type { Skill } from "../skill/skill.js";

/** Case-insensitive, then case-sensitive, so the order is total and the same on every machine. */
export function compareNames(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function group(skill: Skill): number {
  if (skill.source === "bundled") return 8;
  if (skill.source === "app") return 7;
  if (skill.source === "mcp") return 6;
  if (skill.source === "plugin") return skill.kind === "command" ? 4 : 5;
  if (skill.kind === "command") return 3;
  if (skill.source === "managed") return 0;
  return skill.source === "user" ? 1 : 2;
}

/**
 * Listing order (SPEC §2): managed, user skills (sorted), project skills (nearest root first, each sorted),
 * legacy commands of all sources merged and sorted, plugin commands then plugin skills, MCP, app sources, bundled.
 * `rootRank` gives each root dir its position in precedence order. Pure; returns a new array.
 */
export function listingOrder(skills: readonly Skill[], rootRank: ReadonlyMap<string, number>): Skill[] {
  // Each skill's group, root rank and lower-cased name once, not once per comparison.
  const keyed = skills.map((skill) => {
    const g = group(skill);
    return {
      skill,
      group: g,
      rank: g === 2 ? (rootRank.get(skill.root) ?? Number.MAX_SAFE_INTEGER) : 0,
      lower: skill.name.toLowerCase(),
    };
  });
  keyed.sort((a, b) => {
    if (a.group !== b.group) return a.group - b.group;
    if (a.rank !== b.rank) return a.rank - b.rank;
    // As compareNames: case-insensitive first, then case-sensitive.
    if (a.lower !== b.lower) return a.lower < b.lower ? -1 : 1;
    const x = a.skill.name;
    const y = b.skill.name;
    return x < y ? -1 : x > y ? 1 : 0;
  });
  return keyed.map((k) => k.skill);
}
