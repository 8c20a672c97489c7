import { describe, expect, it } from "vitest";
import {
  alreadyLoadedText,
  createLoadedSkills,
  invocationText,
  reinvocationNote,
} from "../../src/skill-tool/reinvocation.js";

describe("invocationText (SPEC §14.3)", () => {
  it.each([
    { case: "first call: the expansion", earlier: [], want: "BODY a" },
    {
      case: "byte-identical to one above: the note only",
      earlier: ["BODY b", "BODY a"],
      want: "Skill /greet is already loaded above; instructions unchanged.",
    },
    {
      case: "new args or shell output: the note, a line break, the expansion",
      earlier: ["BODY b"],
      want:
        "(Re-invocation of /greet — the skill instructions were previously loaded; the arguments or dynamic " +
        "output below are new.)\nBODY a",
    },
    {
      case: "one trailing byte differs: not identical",
      earlier: ["BODY a\n"],
      want: `${reinvocationNote("greet")}\nBODY a`,
    },
  ])("$case", ({ earlier, want }) => {
    expect(invocationText("greet", "BODY a", earlier)).toBe(want);
  });

  it("names the skill as called", () => {
    expect(invocationText("pdf", "X", ["X"])).toBe(alreadyLoadedText("pdf"));
    expect(alreadyLoadedText("pdf")).toBe("Skill /pdf is already loaded above; instructions unchanged.");
  });
});

describe("createLoadedSkills", () => {
  it("keeps each conversation apart and resets only the main one", () => {
    const loaded = createLoadedSkills([{ name: "greet", text: "A" }]);
    loaded.add("fork-1", "greet", "F");
    loaded.add(undefined, "greet", "B");
    loaded.add(undefined, "greet", "A");
    expect(loaded.earlier(undefined, "greet")).toEqual(["A", "B"]);
    expect(loaded.earlier("fork-1", "greet")).toEqual(["F"]);
    expect(loaded.earlier(undefined, "other")).toEqual([]);
    loaded.resetMain();
    expect(loaded.earlier(undefined, "greet")).toEqual([]);
    expect(loaded.earlier("fork-1", "greet")).toEqual(["F"]);
  });

  it("returns a copy that later adds leave alone", () => {
    const loaded = createLoadedSkills();
    loaded.add(undefined, "greet", "A");
    const before = loaded.earlier(undefined, "greet");
    loaded.add(undefined, "greet", "B");
    expect(before).toEqual(["A"]);
  });
});
