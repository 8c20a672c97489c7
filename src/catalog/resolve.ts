import { type Diagnostic, diagnostic } from "../diagnostics.js";
import type { Skill } from "../skill/skill.js";
import { type RootReport, SOURCE_RANKS, type SourceListing } from "../sources/skill-source.js";
import { listingOrder } from "./order.js";

/** One source's listing, with the source's own rank (absent: each skill ranks by its tier). */
export interface RankedListing {
  /** On the `SOURCE_RANKS` scale; absent for the built-in sources, whose skills rank by `skill.source`. */
  rank?: number;
  listing: SourceListing;
}

/** The skills that won, in listing order, what was wrong, and the folders the file sources looked in. */
export interface ResolvedSkills {
  skills: Skill[];
  diagnostics: Diagnostic[];
  roots: RootReport[];
  /** Names of skills found but skipped by an error, that no loaded skill answers to; absent means none. */
  skipped?: string[];
}

/**
 * The catalog's decision over every source's listing (SPEC §2), pure: each skill ranks by its source's `rank`,
 * else by its tier; ties keep the order the sources were composed in, then each source's own order. A skill dir
 * beats a legacy command whatever their ranks; otherwise the first in precedence wins a name and each loser is
 * a `shadowed` warning naming both. Returns the winners in listing order (`listingOrder`) and each root's count.
 */
export function resolveSkills(listings: readonly RankedListing[]): ResolvedSkills {
  const diagnostics: Diagnostic[] = [];
  // A skill dir (kind 0) beats a legacy command (kind 1) whatever their ranks.
  const candidates: { skill: Skill; kind: number; rank: number }[] = [];
  for (const { rank, listing } of listings) {
    for (const d of listing.diagnostics) diagnostics.push(d);
    for (const skill of listing.skills) {
      candidates.push({
        skill,
        kind: skill.kind === "skill" ? 0 : 1,
        rank: rank ?? SOURCE_RANKS[skill.source],
      });
    }
  }
  // Candidates were pushed in source order, then each source's own order, and the sort is stable: two of one
  // kind and rank keep that order without comparing it.
  candidates.sort((a, b) => a.kind - b.kind || a.rank - b.rank);
  const byName = new Map<string, Skill>();
  for (const { skill } of candidates) {
    const winner = byName.get(skill.name);
    if (winner === undefined) {
      byName.set(skill.name, skill);
      continue;
    }
    diagnostics.push(
      diagnostic(
        "warning",
        "shadowed",
        `${skill.kind} "${skill.name}" at ${where(skill)} is shadowed by the ${winner.source} ${winner.kind} at ${where(winner)}`,
        where(skill),
      ),
    );
  }
  const winners = [...byName.values()];
  const roots = listings.flatMap(({ listing }) => listing.roots ?? []);
  const rootRank = new Map(roots.map((r, i) => [r.dir, i] as const));
  const counts = new Map<string, number>();
  for (const skill of winners) counts.set(skill.root, (counts.get(skill.root) ?? 0) + 1);
  const skipped = [
    ...new Set(listings.flatMap(({ listing }) => listing.skipped ?? []).filter((n) => !byName.has(n))),
  ];
  return {
    skills: listingOrder(winners, rootRank),
    diagnostics,
    roots: roots.map((root) => ({ ...root, count: counts.get(root.dir) ?? 0 })),
    ...(skipped.length === 0 ? {} : { skipped }),
  };
}

function where(skill: Skill): string {
  return skill.filePath === "" ? `${skill.source}:${skill.name}` : skill.filePath;
}
