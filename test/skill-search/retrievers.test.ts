import { describe, expect, it } from "vitest";
import { createEmbeddingRetriever } from "../../src/skill-search/embedding-retriever.js";
import { fuseRankings, RRF_K } from "../../src/skill-search/fusion.js";

describe("fuseRankings", () => {
  it("adds weight / (k + place) over the rankings; ties keep the order names were first met", () => {
    const fused = fuseRankings([
      { names: ["a", "b", "c"], weight: 1 },
      { names: ["b"], weight: 1 },
    ]);
    expect(fused.map((f) => f.name)).toEqual(["b", "a", "c"]);
    expect(fused[0]?.score).toBeCloseTo(1 / (RRF_K + 2) + 1 / (RRF_K + 1));
    expect(
      fuseRankings([
        { names: ["x", "y"], weight: 1 },
        { names: ["y", "x"], weight: 1 },
      ]).map((f) => f.name),
    ).toEqual(["x", "y"]);
  });
});

describe("createEmbeddingRetriever", () => {
  /** A two-word embedding: [mentions cats, mentions dogs]. */
  const embedCalls: string[][] = [];
  const embed = async (texts: readonly string[]) => {
    embedCalls.push([...texts]);
    return texts.map((t) => [t.includes("cat") ? 1 : 0, t.includes("dog") ? 1 : 0]);
  };
  const documents = [
    { name: "cats", text: "all about cats" },
    { name: "dogs", text: "all about dogs" },
    { name: "pets", text: "cats and dogs" },
  ];

  it("ranks by cosine similarity, leaves out what is not similar, embeds each text once", async () => {
    const retriever = createEmbeddingRetriever({ embed });
    const ranked = await retriever.retrieve({ query: "a cat", documents, limit: 10 });
    expect(ranked.map((r) => r.name)).toEqual(["cats", "pets"]);
    await retriever.retrieve({ query: "a dog", documents, limit: 1 });
    expect(embedCalls).toEqual([["all about cats", "all about dogs", "cats and dogs"], ["a cat"], ["a dog"]]);
  });

  it("rejects when the embedder answers with the wrong number of vectors", async () => {
    const retriever = createEmbeddingRetriever({ embed: async () => [[1, 0]] });
    await expect(retriever.retrieve({ query: "q", documents, limit: 5 })).rejects.toThrow(
      /1 vectors for 3 texts/,
    );
  });
});
