import { describe, expect, it } from "vitest";
import {
  alreadyLoadedText,
  createLoadedSkills,
  invocationText,
  reinvocationNote,
} from "../../src/skill-tool/reinvocation.js";

describe("invocationText (SPEC §14.3)", () => {
  it.each([
    { case: "first call: the expansion", first: undefined, want: { text: "BODY a" } },
    {
      case: "byte-identical to the first: the note only",
      first: "BODY a",
      want: { text: "Skill /greet is already loaded above; instructions unchanged." },
    },
    {
      case: "new args or shell output: the note as its own block, then the first body unchanged",
      first: "BODY b",
      want: {
        note:
          "(Re-invocation of /greet — the skill instructions were previously loaded; the arguments or dynamic " +
          "output below are new.)",
        text: "BODY b",
      },
    },
    {
      case: "one trailing byte differs: not identical",
      first: "BODY a\n",
      want: { note: reinvocationNote("greet"), text: "BODY a\n" },
    },
  ])("$case", ({ first, want }) => {
    expect(invocationText("greet", "BODY a", first)).toEqual(want);
  });

  it("names the skill as called", () => {
    expect(invocationText("pdf", "X", "X")).toEqual({ text: alreadyLoadedText("pdf") });
    expect(alreadyLoadedText("pdf")).toBe("Skill /pdf is already loaded above; instructions unchanged.");
  });
});

describe("createLoadedSkills", () => {
  it("keeps each conversation's first expansion apart and resets only the main one", () => {
    const loaded = createLoadedSkills([{ name: "greet", text: "A" }]);
    loaded.add("fork-1", "greet", "F");
    loaded.add(undefined, "greet", "B");
    expect(loaded.first(undefined, "greet")).toBe("A");
    expect(loaded.first("fork-1", "greet")).toBe("F");
    expect(loaded.first(undefined, "other")).toBeUndefined();
    loaded.resetMain();
    expect(loaded.first(undefined, "greet")).toBeUndefined();
    expect(loaded.first("fork-1", "greet")).toBe("F");
    loaded.add(undefined, "greet", "C");
    expect(loaded.first(undefined, "greet")).toBe("C");
  });

  it("a resumed conversation's seed keeps its oldest expansion", () => {
    const loaded = createLoadedSkills([
      { name: "greet", text: "A" },
      { name: "greet", text: "B" },
    ]);
    expect(loaded.first(undefined, "greet")).toBe("A");
  });
});
