import { describe, expect, it } from "vitest";
import { mostSimilar, tokens } from "../../src/skill-test/similarity.js";

describe("mostSimilar (tf-idf cosine)", () => {
  it("ranks by shared rare words, leaves out documents sharing none, keeps the top 3", () => {
    const query = { id: "greet", text: "Greets someone with a warm greeting" };
    const result = mostSimilar(query, [
      { id: "deploy", text: "Deploys the service" },
      { id: "same", text: "Greets someone with a warm greeting" },
      { id: "some", text: "Writes a greeting card" },
      { id: "warm", text: "Warm greeting for someone new" },
      { id: "more", text: "someone else, with many other unrelated words around it" },
    ]);
    expect(result.map((r) => r.id)).toEqual(["same", "warm", "some"]);
    expect(result[0]).toEqual({ id: "same", score: 1, shared: ["greeting", "greets", "someone", "warm"] });
    expect(result[1]?.score).toBeGreaterThan(result[2]?.score ?? 1);
  });

  it("drops stop words and one-letter words", () => {
    expect(tokens("Use this when a user asks: Deploy v2 NOW")).toEqual([
      "user",
      "asks",
      "deploy",
      "v2",
      "now",
    ]);
    expect(mostSimilar({ id: "q", text: "the and of" }, [{ id: "x", text: "the and of" }])).toEqual([]);
  });
});
