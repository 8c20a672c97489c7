// A pluggable retriever (issue #25 item 2, library half) end to end: an application's embeddings, given to
// `openSession({ skillRetriever })` through the public entry, are fused with the lexical ranking in the model's
// SkillSearch; the real SDK against the scripted model server. The embedder is a deterministic stand-in: a
// hashed bag of words after a tiny synonym table (what a real embedding model knows and BM25 does not).
import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddingRetriever, createMemorySource } from "../../src/index.js";
import { type Harness, resultText, startHarness, toolResults } from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";

const SYNONYMS: Record<string, string> = { automobile: "car", vehicle: "car", upkeep: "maintenance" };
const DIMENSIONS = 64;

/** Hashed bag of words: each (synonym-folded, plural-trimmed) word adds 1 to one of 64 buckets. */
function embedText(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  for (const raw of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const word = SYNONYMS[raw] ?? raw.replace(/s$/, "");
    let hash = 0;
    for (const ch of word) hash = (hash * 31 + ch.charCodeAt(0)) % DIMENSIONS;
    vector[hash] = (vector[hash] ?? 0) + 1;
  }
  return vector;
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const skills = [
  { name: "car-care", description: "Keeps cars in good shape: oil, tyres, brakes", body: "# Car care" },
  ...Array.from({ length: 40 }, (_, i) => ({
    name: `filler-${i}`,
    description: `Formats report number ${i} for the finance team`,
    body: "# Reports",
  })),
];

async function searchFor(query: string, withRetriever: boolean): Promise<{ text: string; embedded: number }> {
  let embedded = 0;
  const retriever = createEmbeddingRetriever({
    embed: async (texts) => {
      embedded += texts.length;
      return texts.map(embedText);
    },
  });
  h = await startHarness({
    engine: { sources: [createMemorySource({ skills })] },
    // Room for a few names only: the listing cuts, so SkillSearch is offered.
    env: { SKILLWRIGHT_LISTING_BUDGET: "300" },
    session: { builtinTools: false, ...(withRetriever ? { skillRetriever: retriever } : {}) },
    turns: [toolTurn("SkillSearch", { query }), textTurn("found it")],
  });
  expect(h.opened.tools).toContain("SkillSearch");
  await h.send("my automobile needs work");
  const text = resultText(toolResults(h.body(1))[0]);
  await h.close();
  h = undefined;
  return { text, embedded };
}

describe("a session with an application's retriever", () => {
  it("finds through the embeddings a skill that shares no word with the query; without it, nothing", async () => {
    const hybrid = await searchFor("automobile upkeep", true);
    expect(hybrid.text).toMatch(/^\d+ skills? match(es)? "automobile upkeep"/);
    expect(hybrid.text.split("\n")[1]).toBe("- car-care: Keeps cars in good shape: oil, tyres, brakes");
    // Every visible skill's text (the app's and the bundled ones), and the query.
    expect(hybrid.embedded).toBeGreaterThan(skills.length);
    const lexical = await searchFor("automobile upkeep", false);
    expect(lexical.text).toBe(
      'No skill matches "automobile upkeep". Try other words: what the task is about, a file type, a tool or service name.',
    );
  });

  it("keeps the lexical ranking's best first when both agree", async () => {
    const { text } = await searchFor("car brakes", true);
    expect(text.split("\n")[1]).toMatch(/^- car-care:/);
  });
});
