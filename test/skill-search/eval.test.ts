/**
 * Issue #25's bar on the evaluation set in the repo (test/fixtures/skill-search-eval): the right skill in the
 * first 5 results for ≥ 90% of requests, on all requests and on the held-out (`test`) part. Reads repo files only.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Skill } from "../../src/skill/skill.js";
import { nameFieldText, type SkillTerms } from "../../src/skill/skill-terms.js";
import { analyzedName, analyzedText, queryTerms } from "../../src/skill-search/analyze.js";
import {
  buildLexicalIndex,
  queryLexicalIndex,
  scoreDocuments,
} from "../../src/skill-search/lexical-index.js";
import { createSkillSearcher } from "../../src/skill-search/search.js";
import { headDocument, skillDocument } from "../../src/skill-search/skill-document.js";
import { type EvalRequest, loadEvalSet, measure, sharesNameWord } from "../support/skill-search-eval.js";

let skills: Skill[];
let requests: EvalRequest[];
beforeAll(async () => {
  ({ skills, requests } = await loadEvalSet());
});

describe("the skill search evaluation set", () => {
  it("has 300+ skills and 100+ requests, each expecting a skill of the set, half sharing no distinctive name word", () => {
    expect(skills.length).toBeGreaterThanOrEqual(300);
    expect(requests.length).toBeGreaterThanOrEqual(100);
    const names = new Set(skills.map((s) => s.name));
    expect(requests.filter((r) => !names.has(r.expected))).toEqual([]);
    const apart = requests.filter((r) => !sharesNameWord(r.request, r.expected));
    expect(apart.length / requests.length).toBeGreaterThanOrEqual(0.5);
    expect(requests.filter((r) => r.split === "test").length).toBeGreaterThanOrEqual(50);
  });

  it("finds the right skill in the first 5 for ≥ 90% of requests: all, held-out part, and those sharing no name word", async () => {
    const searcher = createSkillSearcher();
    const rank = async (query: string) => (await searcher.search(skills, query)).map((m) => m.skill.name);
    const all = await measure(requests, rank);
    const held = await measure(
      requests.filter((r) => r.split === "test"),
      rank,
    );
    const apart = await measure(
      requests.filter((r) => !sharesNameWord(r.request, r.expected)),
      rank,
    );
    expect(all.recall, JSON.stringify(all.misses, null, 1)).toBeGreaterThanOrEqual(0.9);
    expect(held.recall).toBeGreaterThanOrEqual(0.9);
    expect(apart.recall).toBeGreaterThanOrEqual(0.9);
    expect(all.mrr).toBeGreaterThanOrEqual(0.8);
  });
});

describe("scoreDocuments", () => {
  it("gives the index's top 10 on the eval set's heads for every request", () => {
    const documents = skills.map((s) => skillDocument(s, undefined));
    const index = buildLexicalIndex(documents);
    const top = (m: { docs: Int32Array; scores: Float64Array }) =>
      [...m.docs]
        .map((doc, i) => ({ doc, score: m.scores[i] ?? 0 }))
        .sort((a, b) => b.score - a.score || a.doc - b.doc)
        .slice(0, 10)
        .map((x) => `${x.doc}:${x.score.toFixed(6)}`);
    for (const r of requests) {
      const terms = queryTerms(r.request);
      expect(top(scoreDocuments(documents, terms)), r.request).toEqual(top(queryLexicalIndex(index, terms)));
    }
  });
});

describe("scoreDocuments on heads kept analysed (the discovery cache's terms)", () => {
  const termsOf = (s: Skill): SkillTerms => ({
    name: nameFieldText(s.name, s.alias),
    nameTerms: analyzedName(nameFieldText(s.name, s.alias)),
    description: s.description,
    descriptionTerms: analyzedText(s.description),
    whenToUse: s.whenToUse ?? "",
    whenToUseTerms: analyzedText(s.whenToUse ?? ""),
    argumentHint: s.argumentHint ?? "",
    argumentHintTerms: analyzedText(s.argumentHint ?? ""),
  });
  const all = (m: { docs: Int32Array; scores: Float64Array }) =>
    [...m.docs].map((doc, i) => [doc, m.scores[i]]);

  it("gives exactly the scores, in the same order, as analysing the text, for every request and its words", () => {
    const plain = skills.map((s) => skillDocument(s, undefined));
    const kept = skills.map((s) => headDocument({ ...s, terms: termsOf(s) }));
    expect(
      kept.filter((d) => d.analyzed?.description === undefined || d.analyzed.name === undefined),
    ).toEqual([]);
    // Prefixes (`postgres` → `postgresql`), repeats and two query terms matching one word included.
    const queries = [
      ...requests.map((r) => r.request),
      "pdf pdfs pdf",
      "format formatting formatted",
      "postgres postgresql",
    ];
    for (const q of queries) {
      const terms = queryTerms(q);
      expect(all(scoreDocuments(kept, terms)), q).toEqual(all(scoreDocuments(plain, terms)));
    }
  });

  it("trusts kept terms only for the text they were analysed from", () => {
    const [first] = skills;
    if (first === undefined) throw new Error("no skills");
    const changed = { ...first, description: "reconcile ledger invoices", terms: termsOf(first) };
    const document = headDocument(changed);
    expect(document.analyzed?.description).toBeUndefined();
    expect(document.analyzed?.name).toBe(termsOf(first).nameTerms);
    // A renamed copy (a plugin's namespace, a nested skill) has its name analysed afresh.
    expect(headDocument({ ...changed, name: "other-name" }).analyzed?.name).toBeUndefined();
    expect(scoreDocuments([document], queryTerms("reconcile invoices")).docs.length).toBe(1);
  });
});
