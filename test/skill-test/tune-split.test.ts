import { describe, expect, it } from "vitest";
import { heldOutCount, seedOfName, splitPrompts, type TunePrompt } from "../../src/skill-test/tune-split.js";

const p = (prompt: string, owner = "deploy", expected: TunePrompt["expected"] = "trigger"): TunePrompt => ({
  prompt,
  owner,
  expected,
  runs: 1,
});

const prompts: TunePrompt[] = [
  ...["a1", "a2", "a3", "a4", "a5", "a6"].map((x) => p(x)),
  ...["n1", "n2", "n3"].map((x) => p(x, "deploy", "no-trigger")),
  ...["o1", "o2"].map((x) => p(x, "notes")),
  p("lonely", "notes", "no-trigger"),
];

describe("splitPrompts", () => {
  it.each([
    [0, 0],
    [1, 0],
    [2, 1],
    [3, 1],
    [4, 1],
    [5, 2],
    [6, 2],
    [9, 3],
  ])("of %i prompts in a group, %i are held out", (n, held) => {
    expect(heldOutCount(n)).toBe(held);
  });

  it("holds out a third of each group (owner and expectation), keeping the given order in both parts", () => {
    const split = splitPrompts(prompts, 42);
    const count = (part: TunePrompt[], owner: string, expected: string) =>
      part.filter((x) => x.owner === owner && x.expected === expected).length;
    expect(count(split.heldOut, "deploy", "trigger")).toBe(2);
    expect(count(split.heldOut, "deploy", "no-trigger")).toBe(1);
    expect(count(split.heldOut, "notes", "trigger")).toBe(1);
    expect(count(split.heldOut, "notes", "no-trigger")).toBe(0);
    expect(split.working.length + split.heldOut.length).toBe(prompts.length);
    const order = (part: TunePrompt[]) => part.map((x) => prompts.indexOf(x));
    expect(order(split.working)).toEqual([...order(split.working)].sort((a, b) => a - b));
    expect(order(split.heldOut)).toEqual([...order(split.heldOut)].sort((a, b) => a - b));
  });

  it("is the same for the same seed and differs across seeds", () => {
    const names = (seed: number) => splitPrompts(prompts, seed).heldOut.map((x) => x.prompt);
    expect(names(7)).toEqual(names(7));
    const seen = new Set(Array.from({ length: 20 }, (_, seed) => names(seed).join(",")));
    expect(seen.size).toBeGreaterThan(1);
  });

  it("a prompt given twice keeps its first entry", () => {
    const split = splitPrompts([p("same"), p("same", "notes"), p("other")], 1);
    const all = [...split.working, ...split.heldOut];
    expect(all.filter((x) => x.prompt === "same")).toEqual([p("same")]);
  });

  it("the name's seed is stable and names differ", () => {
    expect(seedOfName("deploy")).toBe(seedOfName("deploy"));
    expect(seedOfName("deploy")).not.toBe(seedOfName("notes"));
    expect(splitPrompts(prompts, seedOfName("deploy")).seed).toBe(seedOfName("deploy"));
  });
});
