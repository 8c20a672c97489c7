import { describe, expect, it } from "vitest";
import { descriptionFromAnswer, proposalMessage } from "../../src/skill-test/tune-prompt.js";

describe("descriptionFromAnswer", () => {
  it.each([
    ["  Deploys releases.  ", "Deploys releases."],
    ['"Deploys releases."', "Deploys releases."],
    ["description: Deploys\n  releases.", "Deploys releases."],
    ["```\nDeploys releases.\n```", "Deploys releases."],
  ])("%j → %j", (answer, description) => {
    expect(descriptionFromAnswer(answer)).toEqual({ description });
  });

  it("an empty or too long answer is a problem, not a description", () => {
    expect(descriptionFromAnswer("  ").problem).toBe("the answer held no description");
    expect(descriptionFromAnswer("x".repeat(1025)).problem).toContain("over 1024");
  });
});

describe("proposalMessage", () => {
  it("shows the working prompts, the neighbours and the earlier proposals; never anything held out", () => {
    const text = proposalMessage({
      name: "deploy",
      description: "Helps.",
      bodyExcerpt: "Run the deploy script.",
      neighbours: [{ name: "notes", description: "Release notes." }],
      working: [
        { prompt: "ship it", owner: "deploy", expected: "trigger", runs: 1 },
        { prompt: "hello", owner: "deploy", expected: "no-trigger", runs: 1 },
        { prompt: "write notes", owner: "notes", expected: "trigger", runs: 1 },
      ],
      attempt: 2,
      of: 3,
      earlier: ["First try."],
    });
    expect(text).toContain("Messages it should be called for:\n- ship it");
    expect(text).toContain("- hello\n- write notes (notes's)");
    expect(text).toContain("- notes: Release notes.");
    expect(text).toContain("proposal 2 of 3");
    expect(text).toContain("- First try.");
  });
});
