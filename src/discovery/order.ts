import type { Skill } from "../skill/skill.js";

/** Case-insensitive, then case-sensitive, so the order is total and the same on every machine. */
export function compareNames(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function group(skill: Skill): number {
  if (skill.source === "bundled") return 7;
  if (skill.source === "mcp") return 6;
  if (skill.source === "plugin") return skill.kind === "command" ? 4 : 5;
  if (skill.kind === "command") return 3;
  if (skill.source === "managed") return 0;
  return skill.source === "user" ? 1 : 2;
}

/**
 * Listing order (SPEC §2): managed, user skills (sorted), project skills (nearest root first, each sorted),
 * legacy commands of all sources merged and sorted, plugin commands then plugin skills, MCP, bundled.
 * `rootRank` gives each root dir its position in precedence order. Pure; returns a new array.
 */
export function listingOrder(skills: readonly Skill[], rootRank: ReadonlyMap<string, number>): Skill[] {
  return [...skills].sort((a, b) => {
    const ga = group(a);
    const gb = group(b);
    if (ga !== gb) return ga - gb;
    if (ga === 2) {
      const ra = rootRank.get(a.root) ?? Number.MAX_SAFE_INTEGER;
      const rb = rootRank.get(b.root) ?? Number.MAX_SAFE_INTEGER;
      if (ra !== rb) return ra - rb;
    }
    return compareNames(a.name, b.name);
  });
}
