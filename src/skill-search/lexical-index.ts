import { analyzeName, eachWord, termOf } from "./analyze.js";
import { SEARCH_FIELDS, type SearchField, type SkillDocument } from "./skill-document.js";

/*
 * A BM25F index (BM25 over weighted fields): each field's term frequency is normalised by that field's length
 * against its average, weighted, and summed into one pseudo-frequency per skill and term, which goes through
 * BM25's saturation once. The pseudo-frequencies are computed at build, so a query only adds up postings, and
 * the whole index is three typed arrays and two string lists (what the index cache writes).
 */

/** How much a term in each field counts. */
export const FIELD_WEIGHTS: Readonly<Record<SearchField, number>> = {
  name: 3,
  description: 2,
  whenToUse: 1.5,
  argumentHint: 0.5,
  headings: 1,
  body: 0.4,
};
/** How far each field's length normalises its frequencies (BM25's `b`; 0: not at all). */
export const FIELD_LENGTH_NORMS: Readonly<Record<SearchField, number>> = {
  name: 0.3,
  description: 0.75,
  whenToUse: 0.75,
  argumentHint: 0.5,
  headings: 0.75,
  body: 0.75,
};
/** BM25's term-frequency saturation. */
export const BM25_K1 = 1.2;
/** A query term at least this long also matches the longer terms it begins (`postgres` → `postgresql`); a shorter one would match too much (`form` → `format`). */
export const PREFIX_MIN_CHARS = 5;
/** A prefix match counts this much of a whole-term match. */
export const PREFIX_WEIGHT = 0.3;
/** A query term expands to at most this many longer terms. */
const MAX_PREFIX_EXPANSIONS = 16;

/** A field's frequency in a packed entry is one base-256 digit. */
const FIELD_FREQ_SPAN = 256;
/** The place value of each field's digit. */
const FIELD_UNITS = SEARCH_FIELDS.map((_, f) => FIELD_FREQ_SPAN ** f);

/** A built index: what {@link queryLexicalIndex} reads and the index cache keeps. */
export interface LexicalIndex {
  /** The skills' names, by document number. */
  readonly names: readonly string[];
  /** Every term, sorted (a term's number is its place here). */
  readonly terms: readonly string[];
  /** Term `t`'s postings are `docs`/`weights` from `offsets[t]` to `offsets[t + 1]`. */
  readonly offsets: Int32Array;
  /** Document numbers, ascending within a term. */
  readonly docs: Int32Array;
  /** The weighted, length-normalised frequency of the term in the document (BM25F's pseudo-frequency). */
  readonly weights: Float32Array;
}

/**
 * Builds the index of some documents (`analyze`d; the name through `analyzeName`). Documents keep their order:
 * document `i` is `names[i]`. Pure.
 */
export function buildLexicalIndex(documents: readonly SkillDocument[]): LexicalIndex {
  // A word as written → its term id (-1: a stop word); one lookup per word of text.
  const wordIds = new Map<string, number>();
  const ids = new Map<string, number>();
  const fieldCount = SEARCH_FIELDS.length;
  const lengths = SEARCH_FIELDS.map(() => new Float64Array(documents.length));
  // One entry per (document, distinct term): its document, term id and the frequency in each field, packed
  // 8 bits a field (capped at 255: BM25 has saturated long before) into one number, so a 100k-skill build
  // holds one number per entry, not six.
  const entryDoc: number[] = [];
  const entryTerm: number[] = [];
  const entryFreq: number[] = [];
  // For each term id: the last document it was seen in, and its entry there.
  let seenIn = new Int32Array(1_024).fill(-1);
  let seenEntry = new Int32Array(1_024);
  const idOf = (term: string): number => {
    let id = ids.get(term);
    if (id === undefined) {
      id = ids.size;
      ids.set(term, id);
      if (id >= seenIn.length) {
        const grownIn = new Int32Array(seenIn.length * 2).fill(-1);
        grownIn.set(seenIn);
        seenIn = grownIn;
        const grownEntry = new Int32Array(seenEntry.length * 2);
        grownEntry.set(seenEntry);
        seenEntry = grownEntry;
      }
    }
    return id;
  };
  documents.forEach((document, doc) => {
    SEARCH_FIELDS.forEach((field, f) => {
      const text = document.fields[field];
      if (text === "") return;
      let length = 0;
      const unit = FIELD_UNITS[f] ?? 1;
      const count = (id: number) => {
        length += 1;
        let entry: number;
        if (seenIn[id] === doc) {
          entry = seenEntry[id] ?? 0;
        } else {
          entry = entryDoc.length;
          seenIn[id] = doc;
          seenEntry[id] = entry;
          entryDoc.push(doc);
          entryTerm.push(id);
          entryFreq.push(0);
        }
        const packed = entryFreq[entry] ?? 0;
        if (Math.floor(packed / unit) % FIELD_FREQ_SPAN < FIELD_FREQ_SPAN - 1)
          entryFreq[entry] = packed + unit;
      };
      if (field === "name") {
        for (const term of analyzeName(text)) count(idOf(term));
      } else {
        eachWord(text, (word) => {
          let id = wordIds.get(word);
          if (id === undefined) {
            const term = termOf(word);
            id = term === "" ? -1 : idOf(term);
            wordIds.set(word, id);
          }
          if (id !== -1) count(id);
        });
      }
      (lengths[f] as Float64Array)[doc] = length;
    });
  });
  const averages = lengths.map((l) => (l.length === 0 ? 0 : l.reduce((a, b) => a + b, 0) / l.length));
  // Terms sorted, so a prefix is one binary search away; `rank[id]` is the sorted place of a first-seen id.
  const terms = [...ids.keys()].sort();
  const rank = new Int32Array(terms.length);
  terms.forEach((term, place) => {
    rank[ids.get(term) ?? 0] = place;
  });
  const offsets = new Int32Array(terms.length + 1);
  for (const id of entryTerm) {
    const slot = (rank[id] ?? 0) + 1;
    offsets[slot] = (offsets[slot] ?? 0) + 1;
  }
  for (let t = 0; t < terms.length; t += 1) offsets[t + 1] = (offsets[t + 1] ?? 0) + (offsets[t] ?? 0);
  const fill = offsets.slice(0, terms.length);
  const docs = new Int32Array(entryDoc.length);
  const weights = new Float32Array(entryDoc.length);
  for (let entry = 0; entry < entryDoc.length; entry += 1) {
    const doc = entryDoc[entry] ?? 0;
    let weight = 0;
    const packed = entryFreq[entry] ?? 0;
    for (let f = 0; f < fieldCount; f += 1) {
      const freq = Math.floor(packed / (FIELD_UNITS[f] ?? 1)) % FIELD_FREQ_SPAN;
      if (freq === 0) continue;
      const field = SEARCH_FIELDS[f] as SearchField;
      const b = FIELD_LENGTH_NORMS[field];
      const average = averages[f] ?? 0;
      const length = (lengths[f] as Float64Array)[doc] ?? 0;
      const norm = average === 0 ? 1 : 1 - b + (b * length) / average;
      weight += (FIELD_WEIGHTS[field] * freq) / norm;
    }
    const place = rank[entryTerm[entry] ?? 0] ?? 0;
    const at = fill[place] ?? 0;
    fill[place] = at + 1;
    docs[at] = doc;
    weights[at] = weight;
  }
  return { names: documents.map((d) => d.name), terms, offsets, docs, weights };
}

/** The place of the first term >= `term` in the sorted terms. */
function lowerBound(terms: readonly string[], term: string): number {
  let low = 0;
  let high = terms.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((terms[mid] as string) < term) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The documents a query matched (in the order first matched) and their scores, side by side. */
export interface LexicalMatches {
  docs: Int32Array;
  scores: Float64Array;
}

/**
 * The BM25F score of every document matching some query term (`queryTerms` output: analysed, distinct);
 * documents matching none are absent. A term of {@link PREFIX_MIN_CHARS}+ characters also matches up to 16
 * longer terms it begins, at {@link PREFIX_WEIGHT}. Pure.
 */
export function queryLexicalIndex(index: LexicalIndex, terms: readonly string[]): LexicalMatches {
  const total = index.names.length;
  const byDoc = new Float64Array(total);
  const touched: number[] = [];
  const add = (place: number, factor: number) => {
    const start = index.offsets[place] ?? 0;
    const end = index.offsets[place + 1] ?? 0;
    const df = end - start;
    const idf = factor * Math.log(1 + (total - df + 0.5) / (df + 0.5)) * (BM25_K1 + 1);
    for (let p = start; p < end; p += 1) {
      const doc = index.docs[p] ?? 0;
      const tf = index.weights[p] ?? 0;
      if (byDoc[doc] === 0) touched.push(doc);
      byDoc[doc] = (byDoc[doc] ?? 0) + (idf * tf) / (BM25_K1 + tf);
    }
  };
  for (const term of terms) {
    let place = lowerBound(index.terms, term);
    if (index.terms[place] === term) {
      add(place, 1);
      place += 1;
    }
    if (term.length < PREFIX_MIN_CHARS) continue;
    for (let n = 0; n < MAX_PREFIX_EXPANSIONS && (index.terms[place] ?? "").startsWith(term); n += 1) {
      add(place, PREFIX_WEIGHT);
      place += 1;
    }
  }
  const docs = Int32Array.from(touched);
  const scores = new Float64Array(docs.length);
  docs.forEach((doc, i) => {
    scores[i] = byDoc[doc] ?? 0;
  });
  return { docs, scores };
}

/**
 * The score at or above which the best `count` matches lie (the `count`-th best score; 0 when there are no
 * more than `count`). Pure.
 */
export function scoreFloor(matches: LexicalMatches, count: number): number {
  if (matches.scores.length <= count || count <= 0) return 0;
  const sorted = Float64Array.from(matches.scores).sort();
  return sorted[sorted.length - count] ?? 0;
}

/**
 * Hands each term of `analyzed` (terms joined by single spaces, see `analyzedText`) that a query term matches
 * (the same term, or a longer one it begins when it has {@link PREFIX_MIN_CHARS}+ characters) to `onMatch`, in
 * order, and returns how many terms `analyzed` has. It looks only where a query term occurs in the text: a term
 * is cut out only when it matches, so a head kept analysed is scored without a string per word. Pure.
 */
export function eachMatchingTerm(
  analyzed: string,
  terms: readonly string[],
  onMatch: (term: string) => void,
): number {
  if (analyzed === "") return 0;
  const space = 32;
  // Where matching terms start; made only when a term matches (most fields of most skills match none).
  let starts: number[] | undefined;
  for (const term of terms) {
    const prefix = term.length >= PREFIX_MIN_CHARS;
    for (let at = analyzed.indexOf(term); at !== -1; at = analyzed.indexOf(term, at + 1)) {
      if (at > 0 && analyzed.charCodeAt(at - 1) !== space) continue;
      const end = at + term.length;
      if (!prefix && end < analyzed.length && analyzed.charCodeAt(end) !== space) continue;
      if (starts === undefined) starts = [];
      starts.push(at);
    }
  }
  if (starts !== undefined) {
    // Two query terms may match one term (`postgres` and `postgresql` both match `postgresql`): once.
    starts.sort((a, b) => a - b);
    let last = -1;
    for (const at of starts) {
      if (at === last) continue;
      last = at;
      const end = analyzed.indexOf(" ", at);
      onMatch(analyzed.slice(at, end === -1 ? analyzed.length : end));
    }
  }
  let count = 1;
  for (let at = analyzed.indexOf(" "); at !== -1; at = analyzed.indexOf(" ", at + 1)) count += 1;
  return count;
}

/**
 * The same scores as {@link queryLexicalIndex} over an index of `documents` (but for its cap of 16 longer words
 * per prefix), computed without building one:
 * each document's words are looked at once and only the query's terms are counted, so a one-off search (the
 * listing focus, on heads) costs one pass over the text; a field the document gives `analyzed` is not analysed
 * again, only searched for the query's terms ({@link eachMatchingTerm}). Pure.
 */
export function scoreDocuments(
  documents: readonly SkillDocument[],
  terms: readonly string[],
): LexicalMatches {
  const fieldCount = SEARCH_FIELDS.length;
  // What a word counts for: 1 if it is a query term, plus PREFIX_WEIGHT for each query term of 5+ characters
  // it is longer than and begins (0: nothing).
  const factorOf = new Map<string, number>();
  const query = new Set(terms);
  const factor = (word: string) => {
    let found = factorOf.get(word);
    if (found === undefined) {
      found = query.has(word) ? 1 : 0;
      for (const t of terms) {
        if (t.length >= PREFIX_MIN_CHARS && word.length > t.length && word.startsWith(t))
          found += PREFIX_WEIGHT;
      }
      factorOf.set(word, found);
    }
    return found;
  };
  const lengths = SEARCH_FIELDS.map(() => new Float64Array(documents.length));
  // Per matched (document, vocabulary word): field frequencies. Few: only query words count.
  const hits: Array<{ doc: number; word: string; freq: Float64Array }> = [];
  const memo = new Map<string, string>();
  // A word as written → its factor (-1: a stop word, which a field's length does not count), and the term of
  // those that match: one lookup per word of text, where a term and then its factor took two.
  const rawFactor = new Map<string, number>();
  const rawTerm = new Map<string, string>();
  const factorOfRaw = (raw: string) => {
    let found = rawFactor.get(raw);
    if (found === undefined) {
      const term = termOf(raw, memo);
      found = term === "" ? -1 : factor(term);
      rawFactor.set(raw, found);
      if (found > 0) rawTerm.set(raw, term);
    }
    return found;
  };
  // The document and field being counted, and the field's length so far. One `count` and one word callback for
  // the whole pass, and one map of the document's matched words cleared per document: a closure per field of
  // every document and a map per document were most of what a pass over 1,000 heads allocated.
  const local = new Map<string, Float64Array>();
  let doc = 0;
  let f = 0;
  let length = 0;
  const count = (word: string) => {
    length += 1;
    if (factor(word) === 0) return;
    let freq = local.get(word);
    if (freq === undefined) {
      freq = new Float64Array(fieldCount);
      local.set(word, freq);
      hits.push({ doc, word, freq });
    }
    freq[f] = (freq[f] ?? 0) + 1;
  };
  const countRaw = (raw: string) => {
    const found = factorOfRaw(raw);
    if (found < 0) return;
    if (found === 0) length += 1;
    else count(rawTerm.get(raw) as string);
  };
  for (doc = 0; doc < documents.length; doc += 1) {
    const document = documents[doc] as SkillDocument;
    if (local.size > 0) local.clear();
    for (f = 0; f < fieldCount; f += 1) {
      const field = SEARCH_FIELDS[f] as SearchField;
      const text = document.fields[field];
      if (text === "") continue;
      length = 0;
      const analyzed = document.analyzed?.[field];
      if (analyzed !== undefined) length = eachMatchingTerm(analyzed, terms, count);
      else if (field === "name") for (const term of analyzeName(text)) count(term);
      else eachWord(text, countRaw);
      (lengths[f] as Float64Array)[doc] = length;
    }
  }
  const averages = lengths.map((l) => (l.length === 0 ? 0 : l.reduce((a, b) => a + b, 0) / l.length));
  const df = new Map<string, number>();
  for (const hit of hits) df.set(hit.word, (df.get(hit.word) ?? 0) + 1);
  const total = documents.length;
  const byDoc = new Map<number, number>();
  for (const hit of hits) {
    let weight = 0;
    for (let f = 0; f < fieldCount; f += 1) {
      const freq = Math.min(hit.freq[f] ?? 0, FIELD_FREQ_SPAN - 1);
      if (freq === 0) continue;
      const field = SEARCH_FIELDS[f] as SearchField;
      const b = FIELD_LENGTH_NORMS[field];
      const average = averages[f] ?? 0;
      const norm = average === 0 ? 1 : 1 - b + (b * ((lengths[f] as Float64Array)[hit.doc] ?? 0)) / average;
      weight += (FIELD_WEIGHTS[field] * freq) / norm;
    }
    // Float32, as the index keeps it, so both ways give the same scores.
    const tf = Math.fround(weight);
    const n = df.get(hit.word) ?? 0;
    const idf = factor(hit.word) * Math.log(1 + (total - n + 0.5) / (n + 0.5)) * (BM25_K1 + 1);
    byDoc.set(hit.doc, (byDoc.get(hit.doc) ?? 0) + (idf * tf) / (BM25_K1 + tf));
  }
  const docs = Int32Array.from(byDoc.keys());
  return { docs, scores: Float64Array.from(byDoc.values()) };
}
