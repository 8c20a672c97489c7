/*
 * The seam an application fills to bring its own retrieval (embeddings from its provider, a search service, a
 * database's full-text or vector index). The engine keeps its offline lexical ranking and fuses the two
 * rankings (see `fusion.ts`), so a retriever only has to rank; it never has to be complete.
 */

/** A skill as a retriever sees it: its name and its head text (name, description, `when_to_use`, argument hint). */
export interface RetrievalDocument {
  name: string;
  text: string;
}

/** One retrieval: the query, the skills that may be returned, how many are wanted, and the caller's signal. */
export interface RetrievalRequest {
  query: string;
  /**
   * The skills the caller may see now, in listing order. A retriever backed by its own store may ignore the
   * texts and rank its stored skills by name; names not listed here are dropped from its answer.
   */
  documents: readonly RetrievalDocument[];
  /** How many results are wanted (more are ignored). */
  limit: number;
  signal?: AbortSignal;
}

/** One ranked skill: its name and the retriever's own score (higher is better; only the order is used). */
export interface RankedSkill {
  name: string;
  score: number;
}

/**
 * A retriever an application plugs into skill search (`openSession({ skillRetriever })`,
 * `createSkillSearcher({ retriever })`): ranks skills for a query, best first. It may reject (its service is
 * down): the search then answers with the lexical ranking alone.
 */
export interface SkillRetriever {
  retrieve(request: RetrievalRequest): Promise<readonly RankedSkill[]>;
}
