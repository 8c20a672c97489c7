/*
 * A compact English suffix stemmer for skill search: it folds the forms a person types ("testing", "tests",
 * "tested"; "optimize", "optimization", "optimizing"; "policies", "policy") onto one term. It aims at recall
 * between a request and a skill's text, not at linguistic roots: both sides go through the same function,
 * so a stem only needs to be the same for the forms of one word, not a real word.
 */

/** A word this short is kept as it is. */
const MIN_STEMMED_LENGTH = 4;
/** What a suffix rule leaves must be at least this long. */
const MIN_STEM = 3;

/** Derivational suffixes, longest first; the first that fits is replaced. */
const SUFFIXES: ReadonlyArray<readonly [string, string, number]> = [
  // [suffix, replacement, shortest stem left]
  ["ational", "ate", MIN_STEM],
  ["ization", "ize", MIN_STEM],
  ["isation", "ize", MIN_STEM],
  ["ibility", "ible", MIN_STEM],
  ["ability", "able", MIN_STEM],
  ["ically", "ic", MIN_STEM],
  ["ation", "ate", MIN_STEM],
  ["ingly", "", MIN_STEM],
  ["ness", "", MIN_STEM],
  ["ment", "", 4],
  ["ysis", "yz", 2],
  ["yse", "yz", 2],
  ["yze", "yz", 2],
  ["ise", "ize", 4],
  ["ity", "", 4],
  ["ing", "", MIN_STEM],
  ["ed", "", 4],
  ["er", "", 4],
  ["ly", "", 4],
];

const VOWEL = /[aeiouy]/;

/**
 * The stem of a lower-case word: plural `-s`/`-ies`/`-sses` dropped, then one derivational or inflectional
 * suffix (`-ation`, `-ing`, `-ed`, `-er`, `-ly`, …), then a final `e` and a doubled final consonant. Words of
 * fewer than 4 characters and words with digits are kept as they are. Pure.
 */
export function stem(word: string): string {
  if (word.length < MIN_STEMMED_LENGTH || /\d/.test(word)) return word;
  let w = word;
  if (w.endsWith("ies") && w.length > MIN_STEMMED_LENGTH) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) w = w.slice(0, -1);
  for (const [suffix, replacement, shortest] of SUFFIXES) {
    if (!w.endsWith(suffix)) continue;
    const rest = w.slice(0, -suffix.length);
    if (rest.length >= shortest && VOWEL.test(rest)) w = rest + replacement;
    break;
  }
  if (w.length > MIN_STEMMED_LENGTH && w.endsWith("e")) w = w.slice(0, -1);
  const last = w[w.length - 1];
  if (
    w.length >= MIN_STEMMED_LENGTH &&
    last !== undefined &&
    last === w[w.length - 2] &&
    !"aeiouslz".includes(last)
  ) {
    w = w.slice(0, -1);
  }
  return w;
}
