import { describe, expect, it } from "vitest";
import {
  type CandidateScore,
  heldOutVerdict,
  type PromptOutcome,
  pickCandidate,
  type SplitScore,
  scoreSplit,
} from "../../src/skill-test/tune-decision.js";
import type { TunePrompt } from "../../src/skill-test/tune-split.js";

const prompt = (
  owner: string,
  expected: TunePrompt["expected"],
  text = `${owner} ${expected}`,
): TunePrompt => ({
  prompt: text,
  owner,
  expected,
  runs: 2,
});

describe("scoreSplit", () => {
  it("recall over the skill's should prompts, false triggers over every other, precision per neighbour", () => {
    const outcomes: PromptOutcome[] = [
      { prompt: prompt("deploy", "trigger", "ship it"), calls: ["deploy", undefined] },
      { prompt: prompt("deploy", "trigger", "release"), calls: ["deploy", "deploy"] },
      { prompt: prompt("deploy", "no-trigger"), calls: [undefined, "deploy"] },
      { prompt: prompt("notes", "trigger"), calls: ["notes", "deploy"] },
      { prompt: prompt("notes", "no-trigger"), calls: [undefined, undefined] },
      { prompt: prompt("lint", "trigger"), calls: [undefined, undefined] },
    ];
    const score = scoreSplit("deploy", ["notes", "lint"], outcomes);
    expect(score.recall).toBe(3 / 4);
    expect(score.falseTriggers).toBe(2 / 8);
    expect(score.score).toBe((3 / 4 + 6 / 8) / 2);
    expect(score.runs).toBe(12);
    expect(score.neighbours).toEqual([
      { name: "lint", precision: undefined },
      { name: "notes", precision: 1 / 2 },
    ]);
  });

  it("with no should prompts, recall is undefined and the score is the false-trigger side alone", () => {
    const score = scoreSplit(
      "deploy",
      [],
      [{ prompt: prompt("deploy", "no-trigger"), calls: ["deploy", undefined] }],
    );
    expect(score.recall).toBeUndefined();
    expect(score.score).toBe(0.5);
  });
});

const split = (
  recall: number | undefined,
  score: number,
  neighbours: Record<string, number | undefined> = {},
) =>
  ({
    recall,
    falseTriggers: 0,
    score,
    runs: 10,
    neighbours: Object.entries(neighbours).map(([name, precision]) => ({ name, precision })),
  }) satisfies SplitScore;

const candidate = (working?: SplitScore): CandidateScore => ({
  description: "d",
  ...(working === undefined ? {} : { working }),
});

describe("pickCandidate", () => {
  const current = split(0.5, 0.6, { notes: 1 });
  it.each<[string, CandidateScore[], number | undefined, string]>([
    [
      "the best of those better",
      [candidate(split(0.6, 0.7, { notes: 1 })), candidate(split(1, 0.9, { notes: 1 }))],
      1,
      "candidate 2 scored best",
    ],
    [
      "a tie on score goes to the higher recall",
      [candidate(split(0.6, 0.8)), candidate(split(0.9, 0.8))],
      1,
      "candidate 2",
    ],
    [
      "a full tie goes to the first",
      [candidate(split(0.9, 0.8)), candidate(split(0.9, 0.8))],
      0,
      "candidate 1",
    ],
    [
      "none better",
      [candidate(split(0.5, 0.6)), candidate(split(0.4, 0.5))],
      undefined,
      "no candidate scored better",
    ],
    [
      "better but a neighbour's precision fell",
      [candidate(split(1, 0.9, { notes: 0.5 }))],
      undefined,
      "lowered notes's precision",
    ],
    [
      "a neighbour unmeasured after does not count as a fall",
      [candidate(split(1, 0.9, { notes: undefined }))],
      0,
      "candidate 1",
    ],
    ["unscored candidates only", [candidate(), candidate()], undefined, "no usable candidate"],
    ["no candidates", [], undefined, "no usable candidate"],
  ])("%s", (_, candidates, index, reason) => {
    const pick = pickCandidate(current, candidates);
    expect(pick.index).toBe(index);
    expect(pick.reason).toContain(reason);
  });
});

describe("heldOutVerdict", () => {
  it.each<[string, SplitScore, SplitScore, boolean, string]>([
    [
      "recall rises, neighbours hold",
      split(0.5, 0.5, { notes: 1 }),
      split(1, 1, { notes: 1 }),
      true,
      "held-out recall rose (50% → 100%)",
    ],
    ["recall equal", split(0.5, 0.5), split(0.5, 0.9), false, "held-out recall did not rise (50% → 50%)"],
    ["recall falls", split(0.5, 0.5), split(0, 0.9), false, "did not rise (50% → 0%)"],
    [
      "a neighbour's precision falls",
      split(0.5, 0.5, { notes: 1 }),
      split(1, 1, { notes: 0.5 }),
      false,
      "notes's held-out precision fell (100% → 50%)",
    ],
    [
      "no should prompts held out",
      split(undefined, 1),
      split(undefined, 1),
      false,
      "none of the skill's should prompts",
    ],
  ])("%s", (_, current, chosen, propose, reason) => {
    const verdict = heldOutVerdict(current, chosen);
    expect(verdict.propose).toBe(propose);
    expect(verdict.reason).toContain(reason);
  });
});
