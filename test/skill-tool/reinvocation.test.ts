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
  // The skill objects the expansions came from (a reload makes a new one).
  const greet = { name: "greet" };
  const other = { name: "other" };

  it("keeps each conversation's first expansion apart and resets only the main one", () => {
    const loaded = createLoadedSkills([{ name: "greet", text: "A" }]);
    loaded.add("fork-1", "greet", "F", greet);
    loaded.add(undefined, "greet", "B", greet);
    expect(loaded.first(undefined, "greet", greet)).toBe("A");
    expect(loaded.first("fork-1", "greet", greet)).toBe("F");
    expect(loaded.first(undefined, "other", other)).toBeUndefined();
    loaded.resetMain();
    expect(loaded.first(undefined, "greet", greet)).toBeUndefined();
    expect(loaded.first("fork-1", "greet", greet)).toBe("F");
    loaded.add(undefined, "greet", "C", greet);
    expect(loaded.first(undefined, "greet", greet)).toBe("C");
  });

  it("a resumed conversation's seed keeps its oldest expansion", () => {
    const loaded = createLoadedSkills([
      { name: "greet", text: "A" },
      { name: "greet", text: "B" },
    ]);
    expect(loaded.first(undefined, "greet", greet)).toBe("A");
  });

  it("starts again for a skill that changed (another skill object): its next expansion is a first one", () => {
    const loaded = createLoadedSkills([{ name: "greet", text: "A" }]);
    loaded.add(undefined, "greet", "A2", greet);
    // The resumed expansion now belongs to `greet` as first invoked after the resume.
    expect(loaded.first(undefined, "greet", greet)).toBe("A");
    const edited = { name: "greet" };
    expect(loaded.first(undefined, "greet", edited)).toBeUndefined();
    loaded.add(undefined, "greet", "E", edited);
    expect(loaded.first(undefined, "greet", edited)).toBe("E");
    loaded.add(undefined, "greet", "E2", edited);
    expect(loaded.first(undefined, "greet", edited)).toBe("E");
  });
});
