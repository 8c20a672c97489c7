import { STOP_WORDS } from "../../skill-search/analyze.js";
import type { SqlQuery } from "./driver.js";
import { num, text } from "./rows.js";

/** The most query words a search uses (more would only slow the index scan down). */
export const MAX_QUERY_TERMS = 24;

/** One stored skill a search found: its id, its name and the database's rank (higher is better). */
export interface StoredSkillMatch {
  id: string;
  name: string;
  score: number;
}

/**
 * The words of a query as a `to_tsquery` text that matches any of them (`a | b | c`): letters and digits only,
 * lower-cased, each once, without the engine's own stop words (`STOP_WORDS`: "use", "skill", "help" say
 * nothing about which skill is meant, as in `skillwright search`), at most {@link MAX_QUERY_TERMS}; undefined
 * when none is left. Pure.
 */
export function anyWordQuery(query: string): string | undefined {
  const words = [
    ...new Set(
      (query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 1 && !STOP_WORDS.has(w)),
    ),
  ];
  return words.length === 0 ? undefined : words.slice(0, MAX_QUERY_TERMS).join(" | ");
}

/**
 * The workspace's skills that match any word of `query`, best first, by PostgreSQL's
 * full-text machinery (English stemming; name, description, when_to_use and argument hint, weighted): over the
 * whole workspace, a sum over postings (word weight times rarity) over each skill's latest version; with
 * `versionIds` (the versions an agent pins), `ts_rank_cd` over those versions' own vectors. The same SQL on
 * PostgreSQL and PGlite.
 */
export async function searchStoredSkills(
  db: SqlQuery,
  workspaceId: string,
  query: string,
  options: { limit: number; versionIds?: readonly string[] },
): Promise<StoredSkillMatch[]> {
  const tsquery = anyWordQuery(query);
  if (tsquery === undefined || options.limit <= 0) return [];
  // The query's words as text the same English configuration turns into the same lexemes.
  const words = tsquery.replaceAll(" | ", " ");
  // A workspace's search sums its postings (kept by a trigger from each skill's latest version); an agent's
  // starts from the few versions it pins (materialised, so the planner cannot start from every version's
  // matches) and ranks their own vectors with ts_rank_cd: the text the session's model is given.
  const rows =
    options.versionIds === undefined
      ? await db.query(
          // BM25-like over the postings: each query word's weight in a skill times its rarity in the workspace
          // (ln(1 + 10^6 / postings of the word), counted by a window over the same rows), summed per skill;
          // index-only reads (grouped by name: the covering index holds no skill id), the ids of the best few
          // looked up after. Double precision throughout: numeric logarithms made the sum over thousands of
          // postings four times slower.
          `WITH q AS (SELECT DISTINCT lexeme AS term FROM unnest(to_tsvector('english', $2))),
                hits AS (
                  SELECT t.skill_name,
                         t.weight * ln(1 + 1000000.0::float8 / count(*) OVER (PARTITION BY t.term)) AS part
                    FROM skill_terms t JOIN q ON t.term = q.term
                   WHERE t.workspace_id = $1
                ),
                top AS (
                  SELECT skill_name AS name, sum(part) AS score
                    FROM hits
                   GROUP BY skill_name
                   ORDER BY score DESC, name
                   LIMIT $3
                )
           SELECT s.id, top.name, top.score
             FROM top JOIN skills s ON s.workspace_id = $1 AND s.name = top.name
            ORDER BY top.score DESC, top.name, s.id`,
          [workspaceId, words, options.limit],
        )
      : await db.query(
          `WITH agent AS MATERIALIZED (
             SELECT v.skill_id AS id, v.name, v.search
               FROM skill_versions v JOIN skills s ON s.id = v.skill_id AND s.workspace_id = $1
              WHERE v.id IN (SELECT jsonb_array_elements_text($3::jsonb))
           )
           SELECT a.id, a.name, ts_rank_cd(a.search, q) AS score
             FROM agent a, to_tsquery('english', $2) q
            WHERE a.search @@ q
            ORDER BY score DESC, a.name, a.id
            LIMIT $4`,
          [workspaceId, tsquery, JSON.stringify(options.versionIds), options.limit],
        );
  // Two skills of one name share a score: both are answered, within the limit.
  return rows
    .slice(0, options.limit)
    .map((row) => ({ id: text(row, "id"), name: text(row, "name"), score: num(row, "score") }));
}
