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
