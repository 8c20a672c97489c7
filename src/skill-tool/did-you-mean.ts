/** `similarNames`: a name may differ by at most this share of the typed name's length (rounded down, at least 1). */
export const SUGGESTION_MAX_DISTANCE_RATIO = 1 / 3;
/** `closestName`: the Skill tool suggests only a name within this many case-sensitive edits (SPEC §14.5). */
export const CLOSEST_NAME_MAX_DISTANCE = 2;
/** How many names `similarNames` returns by default. */
export const DEFAULT_SIMILAR_NAMES = 3;

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transpositions), or `limit + 1` as soon as the
 * distance is known to exceed `limit`. Compares UTF-16 code units. Pure.
 */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  if (a === b) return 0;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (beforePrevious[j - 2] ?? 0) + 1);
      }
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return limit + 1;
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The largest (case-insensitive) distance at which `similarNames` offers a name for `name`. */
export function maxSuggestionDistance(name: string): number {
  return Math.max(1, Math.floor(name.length * SUGGESTION_MAX_DISTANCE_RATIO));
}

interface Scored {
  name: string;
  /** Case-insensitive distance, then exact-case distance, then candidate order. */
  folded: number;
  exact: number;
  index: number;
}

function score(query: string, candidates: readonly string[]): Scored[] {
  const limit = maxSuggestionDistance(query);
  const foldedQuery = query.toLowerCase();
  const seen = new Set<string>();
  const scored: Scored[] = [];
  candidates.forEach((name, index) => {
    if (name === query || seen.has(name)) return;
    seen.add(name);
    const folded = editDistance(foldedQuery, name.toLowerCase(), limit);
    if (folded > limit) return;
    scored.push({ name, folded, exact: editDistance(query, name), index });
  });
  return scored.sort((a, b) => a.folded - b.folded || a.exact - b.exact || a.index - b.index);
}

/**
 * The candidate closest to `query` for the Skill tool's "Did you mean" (SPEC §14.5), or undefined when none is
 * close: only a name within {@link CLOSEST_NAME_MAX_DISTANCE} case-sensitive edits counts (`loose` → `loop`,
 * `upper-case` → `Upper-Case`; `GREET` finds no `greet`). Ties go to the earlier candidate; `query` itself is
 * never suggested. Pure.
 */
export function closestName(query: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = CLOSEST_NAME_MAX_DISTANCE + 1;
  for (const name of candidates) {
    if (name === query) continue;
    const distance = editDistance(query, name, CLOSEST_NAME_MAX_DISTANCE);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Up to `limit` close candidates, best first (for the CLI's `show`): the distance ignoring case (so `Commit` finds
 * `commit`) must be at most `maxSuggestionDistance(query)`; ties go to the exact-case distance, then to the
 * earlier candidate. `query` itself is never offered. Pure.
 */
export function similarNames(
  query: string,
  candidates: readonly string[],
  limit = DEFAULT_SIMILAR_NAMES,
): string[] {
  return score(query, candidates)
    .slice(0, limit)
    .map((s) => s.name);
}
