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

const WORD = /[\p{L}\p{N}]+/gu;
/** A lower-to-upper case change (`camelCase`) or the last capital of an acronym before a word (`HTTPServer`). */
const CAMEL = /(\p{Ll})(\p{Lu})|(\p{Lu})(\p{Lu}\p{Ll})/gu;

/**
 * The terms of a text, in order, repeats kept: words (runs of letters and digits; `-`, `_`, `:`, `.` and
 * camelCase split them), lower-cased, stop words dropped, stemmed (see {@link stem}). `memo` caches stems
 * across calls (an index build passes one). Pure apart from the memo.
 */
export function analyze(text: string, memo?: Map<string, string>): string[] {
  const terms: string[] = [];
  const split = text.replace(CAMEL, "$1$3 $2$4");
  for (const match of split.matchAll(WORD)) {
    const word = match[0].toLowerCase();
    if (STOP_WORDS.has(word)) continue;
    let stemmed = memo?.get(word);
    if (stemmed === undefined) {
      stemmed = stem(word);
      memo?.set(word, stemmed);
    }
    terms.push(stemmed);
  }
  return terms;
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

/** The distinct terms of a query, first occurrences only, at most {@link MAX_QUERY_TERMS}. Pure. */
export function queryTerms(query: string): string[] {
  return [...new Set(analyze(query))].slice(0, MAX_QUERY_TERMS);
}
