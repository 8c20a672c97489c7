/** Words too common to tell skills apart. */
const STOP_WORDS = new Set(
  "a an and are as at be by can do does for from has have how i in into is it its me my of on or our so that the their them then this to use used uses using when with you your".split(
    " ",
  ),
);

/** The lower-cased words of `text` (letters and digits, two chars or more), stop words left out. Pure. */
export function tokens(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? []).filter((w) => !STOP_WORDS.has(w));
}

/** A document to compare: its id and its text. */
export interface SimilarityDoc {
  id: string;
  text: string;
}

/** How close a document is to the query one: tf-idf cosine in [0, 1], and the words they share. */
export interface Similarity {
  id: string;
  score: number;
  shared: string[];
}

function vector(words: readonly string[], idf: ReadonlyMap<string, number>): Map<string, number> {
  const v = new Map<string, number>();
  for (const w of words) v.set(w, (v.get(w) ?? 0) + (idf.get(w) ?? 0));
  return v;
}

function norm(v: ReadonlyMap<string, number>): number {
  let sum = 0;
  for (const x of v.values()) sum += x * x;
  return Math.sqrt(sum);
}

/**
 * The `top` documents of `others` most like `query` by tf-idf cosine (idf over `query` and `others`, smoothed:
 * `ln((n + 1) / (df + 1)) + 1`), best first, ties by id; documents sharing no word are left out. Scores are
 * rounded to 2 decimals. Pure.
 */
export function mostSimilar(query: SimilarityDoc, others: readonly SimilarityDoc[], top = 3): Similarity[] {
  const docs = [query, ...others].map((d) => ({ id: d.id, words: tokens(d.text) }));
  const df = new Map<string, number>();
  for (const d of docs) for (const w of new Set(d.words)) df.set(w, (df.get(w) ?? 0) + 1);
  const idf = new Map<string, number>();
  for (const [w, n] of df) idf.set(w, Math.log((docs.length + 1) / (n + 1)) + 1);
  const [q, ...rest] = docs.map((d) => ({ ...d, v: vector(d.words, idf) }));
  if (q === undefined) return [];
  const qNorm = norm(q.v);
  const scored: Similarity[] = [];
  for (const d of rest) {
    let dot = 0;
    const shared: string[] = [];
    for (const [w, x] of d.v) {
      const y = q.v.get(w);
      if (y === undefined) continue;
      dot += x * y;
      shared.push(w);
    }
    const denominator = qNorm * norm(d.v);
    if (dot === 0 || denominator === 0) continue;
    scored.push({ id: d.id, score: Math.round((dot / denominator) * 100) / 100, shared: shared.sort() });
  }
  return scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, top);
}
