/**
 * The search terms of a skill's head fields, analysed once and kept with its head in the discovery cache, so
 * that ranking skills for a session's first prompt (the listing focus) does not split and stem every
 * description again on every run. Each `…Terms` is the field's terms (the skill search's analysis: stop words
 * dropped, stemmed, repeats kept, in order) joined by single spaces, "" for none. Beside each, the text it was
 * analysed from: the very string the skill holds, so that a reader trusts the terms only while
 * `skill.description === terms.description` (a comparison of one reference when nothing changed; any copy of
 * the skill with another description falls back to analysing the text).
 */
export interface SkillTerms {
  /** The name field's text: the name, then the alias after a space when there is one. */
  name: string;
  /** Its terms as the search analyses a name (its parts, and the whole name run together). */
  nameTerms: string;
  description: string;
  descriptionTerms: string;
  /** `when_to_use`, "" when absent. */
  whenToUse: string;
  whenToUseTerms: string;
  /** `argument-hint`, "" when absent. */
  argumentHint: string;
  argumentHintTerms: string;
}

/** Analyses a field's text into its terms joined by single spaces (the skill search's analysis). Pure. */
export type TermAnalyzer = (text: string) => string;

/** The skill search's analysis of a name field and of the other head fields, each as a {@link TermAnalyzer}. */
export interface SkillTermAnalyzers {
  name: TermAnalyzer;
  text: TermAnalyzer;
}

/** The name field's text of a skill called `name` with `alias` (what the search reads as its name). Pure. */
export function nameFieldText(name: string, alias: string | undefined): string {
  return alias === undefined ? name : `${name} ${alias}`;
}
