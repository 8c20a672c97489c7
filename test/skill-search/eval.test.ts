/**
 * Issue #25's bar on the evaluation set in the repo (test/fixtures/skill-search-eval): the right skill in the
 * first 5 results for ≥ 90% of requests, on all requests and on the held-out (`test`) part. Reads repo files only.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Skill } from "../../src/skill/skill.js";
import { queryTerms } from "../../src/skill-search/analyze.js";
import {
  buildLexicalIndex,
  queryLexicalIndex,
  scoreDocuments,
} from "../../src/skill-search/lexical-index.js";
import { createSkillSearcher } from "../../src/skill-search/search.js";
import { skillDocument } from "../../src/skill-search/skill-document.js";
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
