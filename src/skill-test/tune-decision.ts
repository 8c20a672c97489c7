import type { TunePrompt } from "./tune-split.js";

/** What the model did on each run of one prompt: the skill it called (by name), or undefined for none. */
export interface PromptOutcome {
  prompt: TunePrompt;
  calls: (string | undefined)[];
}

/** A neighbour's precision on one part: of the runs of its `should` prompts that called a skill, the share that called it. */
export interface NeighbourPrecision {
  name: string;
  /** Undefined when no run of its `should` prompts called any skill (or it has none in this part). */
  precision: number | undefined;
}

/** How one description did on one part of the split. */
export interface SplitScore {
  /** Runs of the tuned skill's `should` prompts that called it, over their runs; undefined when there are none. */
  recall: number | undefined;
  /** Runs of every other prompt (its `should_not`, the neighbours') that called it, over their runs. */
  falseTriggers: number | undefined;
  /** The mean of recall and 1 − falseTriggers (those defined): what ranks descriptions on the working part. */
  score: number;
  runs: number;
  neighbours: NeighbourPrecision[];
}

/** Differences smaller than this are ties (rates are small fractions). */
const EPSILON = 1e-9;

function rate(hits: number, runs: number): number | undefined {
  return runs === 0 ? undefined : hits / runs;
}

/**
 * Scores a description's runs on one part for `skill` among `neighbours` (calls are skill names, aliases already
 * resolved). Pure.
 */
export function scoreSplit(
  skill: string,
  neighbours: readonly string[],
  outcomes: readonly PromptOutcome[],
): SplitScore {
  let positiveRuns = 0;
  let positiveHits = 0;
  let negativeRuns = 0;
  let negativeHits = 0;
  for (const { prompt, calls } of outcomes) {
    const positive = prompt.owner === skill && prompt.expected === "trigger";
    const hits = calls.filter((c) => c === skill).length;
    if (positive) {
      positiveRuns += calls.length;
      positiveHits += hits;
    } else {
      negativeRuns += calls.length;
      negativeHits += hits;
    }
  }
  const recall = rate(positiveHits, positiveRuns);
  const falseTriggers = rate(negativeHits, negativeRuns);
  const parts = [recall, falseTriggers === undefined ? undefined : 1 - falseTriggers].filter(
    (v): v is number => v !== undefined,
  );
  const score = parts.length === 0 ? 0 : parts.reduce((a, b) => a + b, 0) / parts.length;
  const precisionOf = (name: string): number | undefined => {
    const calls = outcomes
      .filter((o) => o.prompt.owner === name && o.prompt.expected === "trigger")
      .flatMap((o) => o.calls)
      .filter((c): c is string => c !== undefined);
    return rate(calls.filter((c) => c === name).length, calls.length);
  };
  return {
    recall,
    falseTriggers,
    score,
    runs: outcomes.reduce((sum, o) => sum + o.calls.length, 0),
    neighbours: [...neighbours].sort().map((name) => ({ name, precision: precisionOf(name) })),
  };
}

/** The first neighbour whose precision is lower in `after` than in `before` (both defined), or undefined. Pure. */
export function fallenNeighbour(before: SplitScore, after: SplitScore): NeighbourPrecision | undefined {
  return after.neighbours.find((n) => {
    const was = before.neighbours.find((b) => b.name === n.name)?.precision;
    return was !== undefined && n.precision !== undefined && n.precision < was - EPSILON;
  });
}

/** A proposed description and how it did on the working part (`problem`: why it was not run, e.g. empty). */
export interface CandidateScore {
  description: string;
  working?: SplitScore;
  problem?: string;
}

/** The working part's choice: the candidate to check held out, or none and why. */
export type CandidatePick = { index: number; reason: string } | { index: undefined; reason: string };

function percent(value: number | undefined): string {
  return value === undefined ? "n/a" : `${Math.round(value * 100)}%`;
}

/**
 * The candidate to check on the held-out part: of those that scored strictly better than the current
 * description on the working part and lowered no neighbour's precision there, the best score (then the higher
 * recall, then the first proposed). None when no candidate qualifies. Pure.
 */
export function pickCandidate(current: SplitScore, candidates: readonly CandidateScore[]): CandidatePick {
  let best: { index: number; working: SplitScore } | undefined;
  let fell: string | undefined;
  candidates.forEach((candidate, index) => {
    const working = candidate.working;
    if (working === undefined || working.score <= current.score + EPSILON) return;
    const fallen = fallenNeighbour(current, working);
    if (fallen !== undefined) {
      fell ??= `candidate ${index + 1} scored better on the working part but lowered ${fallen.name}'s precision`;
      return;
    }
    const better =
      best === undefined ||
      working.score > best.working.score + EPSILON ||
      (Math.abs(working.score - best.working.score) <= EPSILON &&
        (working.recall ?? 0) > (best.working.recall ?? 0) + EPSILON);
    if (better) best = { index, working };
  });
  if (best !== undefined) {
    return {
      index: best.index,
      reason: `candidate ${best.index + 1} scored best on the working part (${percent(best.working.score)} against ${percent(current.score)})`,
    };
  }
  if (candidates.length === 0 || candidates.every((c) => c.working === undefined)) {
    return { index: undefined, reason: "no usable candidate was proposed" };
  }
  return {
    index: undefined,
    reason: fell ?? "no candidate scored better than the current description on the working part",
  };
}

/** Whether the chosen candidate is proposed, and why. */
export interface TuneVerdict {
  propose: boolean;
  reason: string;
}

/**
 * The held-out check of the working part's choice: proposed only when the tuned skill's recall rises on the
 * held-out part and no neighbour's precision falls there. Pure.
 */
export function heldOutVerdict(current: SplitScore, chosen: SplitScore): TuneVerdict {
  if (current.recall === undefined || chosen.recall === undefined) {
    return {
      propose: false,
      reason: "the held-out part has none of the skill's should prompts to measure recall",
    };
  }
  if (chosen.recall <= current.recall + EPSILON) {
    return {
      propose: false,
      reason: `held-out recall did not rise (${percent(current.recall)} → ${percent(chosen.recall)})`,
    };
  }
  const fallen = fallenNeighbour(current, chosen);
  if (fallen !== undefined) {
    const was = current.neighbours.find((n) => n.name === fallen.name)?.precision;
    return {
      propose: false,
      reason: `${fallen.name}'s held-out precision fell (${percent(was)} → ${percent(fallen.precision)})`,
    };
  }
  return {
    propose: true,
    reason: `held-out recall rose (${percent(current.recall)} → ${percent(chosen.recall)}) and no neighbour's precision fell`,
  };
}
