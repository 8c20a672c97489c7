import type { Skill } from "../skill/skill.js";

/** How many matches the skill search returns (SPEC §14.15). */
export const SKILL_SEARCH_LIMIT = 10;
/** Query words beyond this many are ignored (a pasted paragraph is not a query). */
export const MAX_QUERY_TERMS = 16;
/** Weight of a query word found in the skill's name or alias. */
export const NAME_WEIGHT = 4;
/** Weight of a query word found in the description. */
export const DESCRIPTION_WEIGHT = 2;
/** Weight of a query word found in `when_to_use`. */
export const WHEN_TO_USE_WEIGHT = 2;
/** Added once per query word found anywhere in the skill, so skills matching more of the query rank first. */
export const TERM_COVERAGE_BONUS = 10;
/** Added when the whole query is the skill's name or alias. */
export const EXACT_NAME_BONUS = 100;
/** Added when the whole query appears inside the skill's name or alias. */
export const NAME_CONTAINS_BONUS = 20;
/** A query word this short only counts at the start of a word, never inside one. */
const MIN_INFIX_TERM = 3;

const WORD_CHAR = /[\p{L}\p{N}]/u;
const NON_WORD = /[^\p{L}\p{N}]+/u;

/** The skill fields the search reads. */
export type SearchableSkill = Pick<Skill, "name" | "alias" | "description" | "whenToUse">;

/** One match: the skill and its score. */
export interface SkillMatch<S extends SearchableSkill = Skill> {
  skill: S;
  score: number;
}

/** The words of a query: lower-cased runs of letters and digits, first occurrences only, at most 16. Pure. */
export function queryTerms(query: string): string[] {
  const terms: string[] = [];
  for (const word of query.toLowerCase().split(NON_WORD)) {
    if (word === "" || terms.includes(word)) continue;
    terms.push(word);
    if (terms.length === MAX_QUERY_TERMS) break;
  }
  return terms;
}

function isWordChar(text: string, index: number): boolean {
  const ch = text[index];
  return ch !== undefined && WORD_CHAR.test(ch);
}

/**
 * How well `term` occurs in `text` (both lower-case): 3 as a whole word, 2 at the start of a word, 1 inside
 * a word (terms of 3+ chars only), 0 not at all. The best occurrence counts.
 */
export function matchQuality(text: string, term: string): number {
  let best = 0;
  let at = text.indexOf(term);
  while (at !== -1) {
    const starts = at === 0 || !isWordChar(text, at - 1);
    if (starts) {
      if (!isWordChar(text, at + term.length)) return 3;
      best = 2;
    } else if (best === 0 && term.length >= MIN_INFIX_TERM) {
      best = 1;
    }
    at = text.indexOf(term, at + 1);
  }
  return best;
}

/**
 * The score of one skill for a query (0: no match). Deterministic and documented:
 * - each query word (see {@link queryTerms}) scores `weight × quality` in each field it occurs in, summed over
 *   the fields: name or alias ×4, description ×2, `when_to_use` ×2; quality 3 for a whole word, 2 for the start
 *   of a word, 1 inside a word (words of 3+ chars only);
 * - +10 per query word found in any field (skills covering more of the query rank first);
 * - +100 when the whole query (trimmed, case-insensitive) is the name or alias, else +20 when it appears
 *   inside one.
 * Pure.
 */
export function scoreSkill(skill: SearchableSkill, terms: readonly string[], wholeQuery: string): number {
  if (terms.length === 0) return 0;
  const name = skill.name.toLowerCase();
  const alias = skill.alias?.toLowerCase();
  const names = alias === undefined ? name : `${name} ${alias}`;
  const description = skill.description.toLowerCase();
  const whenToUse = skill.whenToUse?.toLowerCase() ?? "";
  let score = 0;
  for (const term of terms) {
    const found =
      NAME_WEIGHT * matchQuality(names, term) +
      DESCRIPTION_WEIGHT * matchQuality(description, term) +
      (whenToUse === "" ? 0 : WHEN_TO_USE_WEIGHT * matchQuality(whenToUse, term));
    if (found > 0) score += found + TERM_COVERAGE_BONUS;
  }
  if (score === 0) return 0;
  if (wholeQuery !== "") {
    if (name === wholeQuery || alias === wholeQuery) score += EXACT_NAME_BONUS;
    else if (names.includes(wholeQuery)) score += NAME_CONTAINS_BONUS;
  }
  return score;
}

/**
 * The best `limit` (default 10) matches of `query` among `skills`, best first, ties in the given (listing)
 * order; skills that match no query word are never returned. The caller passes only skills the model may see
 * (no `disable-model-invocation`, no un-activated conditional skill). Pure; one pass over the skills.
 */
export function searchSkills<S extends SearchableSkill>(
  skills: readonly S[],
  query: string,
  limit: number = SKILL_SEARCH_LIMIT,
): SkillMatch<S>[] {
  const terms = queryTerms(query);
  const wholeQuery = query.trim().toLowerCase();
  if (terms.length === 0 || limit <= 0) return [];
  // The best `limit` so far, best first; a new match goes in after every one scoring at least as much.
  const best: SkillMatch<S>[] = [];
  for (const skill of skills) {
    const score = scoreSkill(skill, terms, wholeQuery);
    if (score === 0) continue;
    const last = best[best.length - 1];
    if (best.length === limit && last !== undefined && last.score >= score) continue;
    let at = best.length;
    while (at > 0 && (best[at - 1]?.score ?? 0) < score) at -= 1;
    best.splice(at, 0, { skill, score });
    if (best.length > limit) best.pop();
  }
  return best;
}

/**
 * The search the model's `SkillSearch` runs, for any caller (the tool, `skillwright search`): the best `limit`
 * matches among the skills the model may call (`disable-model-invocation` ones left out). Pure.
 */
export function searchCallable<S extends SearchableSkill & Pick<Skill, "disableModelInvocation">>(
  skills: readonly S[],
  query: string,
  limit: number = SKILL_SEARCH_LIMIT,
): SkillMatch<S>[] {
  return searchSkills(
    skills.filter((s) => !s.disableModelInvocation),
    query,
    limit,
  );
}
