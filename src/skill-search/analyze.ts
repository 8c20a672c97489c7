import { stem } from "./stem.js";

/*
 * Text to search terms: the one analysis both a skill's text and a query go through.
 */

/** Query words beyond this many are ignored (a pasted paragraph is not a query). */
export const MAX_QUERY_TERMS = 32;

/**
 * Words that say nothing about which skill is meant: English function words and the words every request and
 * every skill description share ("use", "skill", "when", "want").
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an and are as at be been but by can could do does doing for from had has have how i if in into is it its " +
    "just me my no not of on or our ours so some such than that the their them then there these they this those " +
    "to too up us was we were what when where which while who whom why will with would you your yours all any " +
    "also about after again against before both each few more most other own same should very s t don can't " +
    "i'm it's we're let's please want need help use used uses using skill skills instead get make sure one"
  ).split(" "),
);

/**
 * What separates words: anything but ASCII letters and digits and the letter blocks above them (Latin-1 to
 * Greek, Cyrillic and the rest up to U+1FFF; CJK and Hangul; compatibility forms). General punctuation,
 * arrows, symbols and emoji separate. A character class, not `\p{L}`: splitting is most of an index build.
 */
const NON_WORD = /[^A-Za-z0-9\u00C0-\u1FFF\u2C00-\uD7FF\uF900-\uFFEF]+/;
/** A lower-to-upper case change (`camelCase`) or the last capital of an acronym before a word (`HTTPServer`). */
const CAMEL = /([a-z])([A-Z])|([A-Z])([A-Z][a-z])/g;

/**
 * The term of one word as it appears in a text (not lower-cased yet): its stem, or "" for a stop word. `memo`
 * caches the answer by the word as written. Pure apart from the memo.
 */
export function termOf(word: string, memo?: Map<string, string>): string {
  let term = memo?.get(word);
  if (term === undefined) {
    const lower = word.toLowerCase();
    term = STOP_WORDS.has(lower) ? "" : stem(lower);
    memo?.set(word, term);
  }
  return term;
}

/** Calls `onWord` with each word of a text (camelCase split), as written. */
export function eachWord(text: string, onWord: (word: string) => void): void {
  for (const word of text.replace(CAMEL, "$1$3 $2$4").split(NON_WORD)) {
    if (word !== "") onWord(word);
  }
}

/**
 * The terms of a text, in order, repeats kept: words (runs of letters and digits; `-`, `_`, `:`, `.` and
 * camelCase split them), lower-cased, stop words dropped, stemmed (see {@link stem}). `memo` caches stems
 * across calls (an index build passes one). Pure apart from the memo.
 */
export function analyze(text: string, memo?: Map<string, string>): string[] {
  const terms: string[] = [];
  eachWord(text, (word) => {
    const term = termOf(word, memo);
    if (term !== "") terms.push(term);
  });
  return terms;
}

/**
 * The terms of a text (see {@link analyze}) joined by single spaces: what the discovery cache keeps of a head
 * field (`skill/skill-terms.ts`) and `scoreDocuments` reads back without analysing again. Pure.
 */
export function analyzedText(text: string): string {
  return text === "" ? "" : analyze(text).join(" ");
}

/**
 * The terms of a skill name: its parts (split on `-`, `_`, `:`, `.` and camelCase, see {@link analyze}) and,
 * when it has several, the whole name run together, so `pydicom`, `k8s` and `torch-geometric` match
 * `torchgeometric` too. Pure.
 */
export function analyzeName(name: string): string[] {
  const parts = analyze(name);
  const whole = name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
  return parts.length > 1 && whole !== "" ? [...parts, whole] : parts;
}

/** The terms of a name field ({@link analyzeName}) joined by single spaces, as `analyzedText` joins a text's. Pure. */
export function analyzedName(name: string): string {
  return name === "" ? "" : analyzeName(name).join(" ");
}

/** The distinct terms of a query, first occurrences only, at most {@link MAX_QUERY_TERMS}. Pure. */
export function queryTerms(query: string): string[] {
  return [...new Set(analyze(query))].slice(0, MAX_QUERY_TERMS);
}
