import type { SkillRetriever } from "../../skill-search/retriever.js";
import type { SqlQuery } from "../store/driver.js";
import { searchStoredSkills } from "../store/skill-search.js";

/**
 * A served session's skill retriever: the database ranks the workspace's stored skills for the query (PostgreSQL
 * full-text search, `searchStoredSkills`), among the skills the session may see (by name). The engine fuses this
 * ranking with its own lexical one; a failing query leaves the lexical one alone.
 */
export function storeSkillRetriever(db: SqlQuery, workspaceId: string): SkillRetriever {
  return {
    retrieve: async (request) =>
      (
        await searchStoredSkills(db, workspaceId, request.query, {
          limit: request.limit,
          names: request.documents.map((d) => d.name),
        })
      ).map(({ name, score }) => ({ name, score })),
  };
}
