import type { Skill } from "../skill/skill.js";
import { nameFieldText } from "../skill/skill-terms.js";

/** The fields of a skill the search reads, in index order. */
export const SEARCH_FIELDS = [
  "name",
  "description",
  "whenToUse",
  "argumentHint",
  "headings",
  "body",
] as const;
/** One of {@link SEARCH_FIELDS}. */
export type SearchField = (typeof SEARCH_FIELDS)[number];

/**
 * Only the first this many characters of a body are indexed: a body's start (its overview and first headings)
 * says what the skill is for, and the index of 10,000 skills builds in well under a second.
 */
export const MAX_INDEXED_BODY_CHARS = 2_000;

/** A skill as the search sees it: its name and the text of each field. */
export interface SkillDocument {
  name: string;
  fields: Record<SearchField, string>;
  /**
   * Fields whose terms are known already (`analyzedText` of the field's text: terms joined by single spaces);
   * `scoreDocuments` reads these instead of analysing the text again.
   */
  analyzed?: Partial<Record<SearchField, string>>;
}

const HEADING = /^#{1,6}[ \t]+(.+)$/;
const FENCE = /^\s*(```|~~~)/;

/**
 * A skill's searchable text: name and alias, description, `when_to_use`, argument hint, and from the body
 * (`undefined`: not read, or not searchable) its headings and its other text, fenced code left out, both from
 * the first {@link MAX_INDEXED_BODY_CHARS} characters. Pure.
 */
export function skillDocument(
  skill: Pick<Skill, "name" | "alias" | "description" | "whenToUse" | "argumentHint">,
  body: string | undefined,
): SkillDocument {
  const headings: string[] = [];
  const text: string[] = [];
  let inFence = false;
  // No body: no lines to sort (the listing focus documents every head of a session's skills).
  const lines = body === undefined ? [] : body.slice(0, MAX_INDEXED_BODY_CHARS).split("\n");
  for (const line of lines) {
    if (FENCE.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const heading = HEADING.exec(line);
    if (heading?.[1] !== undefined) headings.push(heading[1]);
    else text.push(line);
  }
  return {
    name: skill.name,
    fields: {
      name: nameFieldText(skill.name, skill.alias),
      description: skill.description,
      whenToUse: skill.whenToUse ?? "",
      argumentHint: skill.argumentHint ?? "",
      headings: headings.join("\n"),
      body: text.join("\n"),
    },
  };
}

/**
 * A skill's searchable head (no body, see {@link skillDocument}), with the head fields' terms the discovery
 * cache kept (`skill.terms`) where they were analysed from the very text the skill holds now. Pure.
 */
export function headDocument(
  skill: Pick<Skill, "name" | "alias" | "description" | "whenToUse" | "argumentHint" | "terms">,
): SkillDocument {
  const document = skillDocument(skill, undefined);
  const terms = skill.terms;
  if (terms === undefined) return document;
  const analyzed: Partial<Record<SearchField, string>> = {};
  if (terms.name === document.fields.name) analyzed.name = terms.nameTerms;
  if (terms.description === document.fields.description) analyzed.description = terms.descriptionTerms;
  if (terms.whenToUse === document.fields.whenToUse) analyzed.whenToUse = terms.whenToUseTerms;
  if (terms.argumentHint === document.fields.argumentHint) analyzed.argumentHint = terms.argumentHintTerms;
  document.analyzed = analyzed;
  return document;
}
