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
 * The workspace's skills (their latest versions) that match any word of `query`, best first, by PostgreSQL's
 * full-text machinery (English stemming; name, description, when_to_use and argument hint, weighted): over the
 * whole workspace, a sum over postings (word weight times rarity); with `names` (an agent's skills), `ts_rank_cd`
 * over those skills' vectors. The same SQL on PostgreSQL and PGlite.
 */
export async function searchStoredSkills(
  db: SqlQuery,
  workspaceId: string,
  query: string,
  options: { limit: number; names?: readonly string[] },
): Promise<StoredSkillMatch[]> {
  const tsquery = anyWordQuery(query);
  if (tsquery === undefined || options.limit <= 0) return [];
  // The query's words as text the same English configuration turns into the same lexemes.
  const words = tsquery.replaceAll(" | ", " ");
  // A workspace's search sums its postings (kept by a trigger from the skills' `search` column); an agent's
  // starts from its few skills by name (materialised, so the planner cannot start from the whole workspace's
  // matches) and ranks their vectors with ts_rank_cd.
  const rows =
    options.names === undefined
      ? await db.query(
          // BM25-like over the postings: each query word's weight in a skill times its rarity in the workspace
          // (ln(1 + 10^6 / postings of the word)), summed per skill; index-only reads, no skill row touched.
          `WITH q AS (SELECT DISTINCT lexeme AS term FROM unnest(to_tsvector('english', $2))),
                hits AS (
                  SELECT t.term, t.skill_name, t.weight FROM skill_terms t JOIN q ON t.term = q.term
                   WHERE t.workspace_id = $1
                ),
                df AS (SELECT term, count(*) AS n FROM hits GROUP BY term)
           SELECT h.skill_name AS name, sum(h.weight * ln(1 + 1000000.0 / df.n)) AS score
             FROM hits h JOIN df USING (term)
            GROUP BY h.skill_name
            ORDER BY score DESC, name
            LIMIT $3`,
          [workspaceId, words, options.limit],
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
