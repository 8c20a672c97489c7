import type { SkillRetriever } from "../../skill-search/retriever.js";
import type { SqlQuery } from "../store/driver.js";
import { searchStoredSkills } from "../store/skill-search.js";

/**
 * A served session's skill retriever: the database ranks the skills the session may see for the query
 * (PostgreSQL full-text search, `searchStoredSkills`), each at the version the session was given (`versions`:
 * skill name to version id; the version an agent pins, not the latest). The engine fuses this ranking with its
 * own lexical one; a failing query leaves the lexical one alone.
 */
export function storeSkillRetriever(
  db: SqlQuery,
  workspaceId: string,
  versions: () => ReadonlyMap<string, string>,
): SkillRetriever {
  return {
    async retrieve(request) {
      const given = versions();
      const versionIds = request.documents.flatMap((d) => {
        const id = given.get(d.name);
        return id === undefined ? [] : [id];
      });
      const found = await searchStoredSkills(db, workspaceId, request.query, {
        limit: request.limit,
        versionIds,
      });
      return found.map(({ name, score }) => ({ name, score }));
    },
  };
}
