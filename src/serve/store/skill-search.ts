import type { SqlQuery } from "./driver.js";
import { num, text } from "./rows.js";

/** The most query words a search uses (more would only slow the index scan down). */
export const MAX_QUERY_TERMS = 24;

/** One stored skill a search found: its name and the database's rank (higher is better). */
export interface StoredSkillMatch {
  name: string;
  score: number;
}

/**
 * The words of a query as a `to_tsquery` text that matches any of them (`a | b | c`): letters and digits only,
 * lower-cased, each once, at most {@link MAX_QUERY_TERMS}; undefined when none is left. Pure.
 */
export function anyWordQuery(query: string): string | undefined {
  const words = [
    ...new Set((query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 1)),
  ];
  return words.length === 0 ? undefined : words.slice(0, MAX_QUERY_TERMS).join(" | ");
}

/**
 * The workspace's skills (their latest versions) that match any word of `query`, best first: PostgreSQL's full-text
 * search over the skill's `search` column (its latest version's name, description, when_to_use and argument
 * hint, English stemming; a GIN index), ranked by `ts_rank_cd` with the field weights. `names` limits the answer to those skills (an agent's);
 * absent, the whole workspace is searched. The same SQL on PostgreSQL and PGlite.
 */
export async function searchStoredSkills(
  db: SqlQuery,
  workspaceId: string,
  query: string,
  options: { limit: number; names?: readonly string[] },
): Promise<StoredSkillMatch[]> {
  const tsquery = anyWordQuery(query);
  if (tsquery === undefined || options.limit <= 0) return [];
  // The skills' `search` column holds their latest version's text (a trigger keeps it), under a GIN index. An
  // agent's search starts from its few skills by name (materialised, so the planner cannot start from the
  // index of matches over the whole workspace); the workspace's from that index.
  const rows =
    options.names === undefined
      ? await db.query(
          `SELECT s.name, ts_rank_cd(s.search, q) AS score
             FROM skills s, to_tsquery('english', $2) q
            WHERE s.workspace_id = $1 AND s.search @@ q
            ORDER BY score DESC, s.name
            LIMIT $3`,
          [workspaceId, tsquery, options.limit],
        )
      : await db.query(
          `WITH agent AS MATERIALIZED (
             SELECT name, search FROM skills
              WHERE workspace_id = $1 AND name IN (SELECT jsonb_array_elements_text($3::jsonb))
           )
           SELECT a.name, ts_rank_cd(a.search, q) AS score
             FROM agent a, to_tsquery('english', $2) q
            WHERE a.search @@ q
            ORDER BY score DESC, a.name
            LIMIT $4`,
          [workspaceId, tsquery, JSON.stringify(options.names), options.limit],
        );
  return rows.map((row) => ({ name: text(row, "name"), score: num(row, "score") }));
}
