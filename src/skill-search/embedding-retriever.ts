import type { RankedSkill, RetrievalRequest, SkillRetriever } from "./retriever.js";

/** Texts go to `embed` in batches of at most this many. */
export const EMBED_BATCH = 256;

/** What an embedding retriever needs: a function that turns texts into vectors (one per text, same length). */
export interface EmbeddingRetrieverOptions {
  /** Embeds texts, one vector per text, in order. May reject; the search then ranks lexically alone. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<ReadonlyArray<readonly number[]>>;
}

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * A {@link SkillRetriever} over an application's embeddings: each skill's text is embedded once (kept by its
 * text, so an edited skill is embedded again) and the query once per search; skills rank by cosine similarity,
 * those at or below 0 left out. A wrong number of vectors rejects.
 */
export function createEmbeddingRetriever(options: EmbeddingRetrieverOptions): SkillRetriever {
  const vectors = new Map<string, readonly number[]>();
  const embed = async (texts: readonly string[], signal?: AbortSignal) => {
    const out = await options.embed(texts, signal);
    if (out.length !== texts.length) {
      throw new Error(`embed returned ${out.length} vectors for ${texts.length} texts`);
    }
    return out;
  };
  return {
    async retrieve(request: RetrievalRequest): Promise<RankedSkill[]> {
      const missing = [...new Set(request.documents.map((d) => d.text).filter((t) => !vectors.has(t)))];
      for (let at = 0; at < missing.length; at += EMBED_BATCH) {
        const batch = missing.slice(at, at + EMBED_BATCH);
        const out = await embed(batch, request.signal);
        batch.forEach((text, i) => {
          vectors.set(text, out[i] ?? []);
        });
      }
      const [query] = await embed([request.query], request.signal);
      if (query === undefined) return [];
      return request.documents
        .map((d) => ({ name: d.name, score: cosine(query, vectors.get(d.text) ?? []) }))
        .filter((r) => r.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, request.limit);
    },
  };
}
