/** Reciprocal rank fusion's `k`: how much the first places count more than the later ones. */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion of some rankings (each best first, names distinct within one): each name scores
 * `Σ weight / (RRF_K + place)` (place from 1) over the rankings it is in. Returns every name once, best first;
 * ties keep the order in which names were first met (the first ranking's first). Pure.
 */
export function fuseRankings(
  rankings: ReadonlyArray<{ names: readonly string[]; weight: number }>,
): Array<{ name: string; score: number }> {
  const scores = new Map<string, number>();
  for (const { names, weight } of rankings) {
    names.forEach((name, place) => {
      scores.set(name, (scores.get(name) ?? 0) + weight / (RRF_K + place + 1));
    });
  }
  return [...scores.entries()]
    .map(([name, score], order) => ({ name, score, order }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ name, score }) => ({ name, score }));
}
