import type { BaselinePin } from "./cases.js";

/** What one run of a case on one side did. */
export interface RunMeasure {
  passed: boolean;
  /** Model requests (the main agent's, its forks' and a grader's). */
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  wallMs: number;
  /** Why the run failed (empty when it passed). */
  failures: string[];
}

/** The measured quantities of a run, as the report names them. */
export const MEASURES = [
  "passRate",
  "requests",
  "inputTokens",
  "outputTokens",
  "cacheReadTokens",
  "wallMs",
] as const;
export type Measure = (typeof MEASURES)[number];

/** A mean and the sample standard deviation around it (0 with fewer than two values). */
export interface Spread {
  mean: number;
  sd: number;
}

/** One side of a baseline (with or without the skill): each measure over its runs, and the runs. */
export type SideStats = Record<Measure, Spread> & { runs: number; passed: number; results: RunMeasure[] };

/** A case (or the whole run) measured with the skill and without it. */
export interface BaselineResult {
  runs: number;
  with: SideStats;
  without: SideStats;
  /** Each measure's mean with the skill minus its mean without. */
  delta: Record<Measure, number>;
  /** The pin the case must meet, and whether it did. */
  pin?: BaselinePin;
  pinHeld?: boolean;
}

/** Four decimals: enough for rates and milliseconds, short in JSON. Pure. */
function round(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}

/** The mean and sample standard deviation of `values`. Pure. */
export function spread(values: readonly number[]): Spread {
  if (values.length === 0) return { mean: 0, sd: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  if (values.length < 2) return { mean: round(mean), sd: 0 };
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1);
  return { mean: round(mean), sd: round(Math.sqrt(variance)) };
}

/** A measure's value for one run (pass rate: 1 or 0). Pure. */
function measured(run: RunMeasure, measure: Measure): number {
  return measure === "passRate" ? (run.passed ? 1 : 0) : run[measure];
}

/** A measure's unrounded mean over runs (0 for none). Pure. */
function rawMean(results: readonly RunMeasure[], measure: Measure): number {
  if (results.length === 0) return 0;
  return results.reduce((a, r) => a + measured(r, measure), 0) / results.length;
}

/** Each measure's mean over `withRuns` minus its mean over `withoutRuns`, rounded once. Pure. */
function deltaOf(
  withRuns: readonly RunMeasure[],
  withoutRuns: readonly RunMeasure[],
): Record<Measure, number> {
  return Object.fromEntries(
    MEASURES.map((m) => [m, round(rawMean(withRuns, m) - rawMean(withoutRuns, m))] as const),
  ) as Record<Measure, number>;
}

/** The stats of one side's runs. Pure. */
export function sideStats(results: readonly RunMeasure[]): SideStats {
  const entries = MEASURES.map((m) => [m, spread(results.map((r) => measured(r, m)))] as const);
  return {
    ...(Object.fromEntries(entries) as Record<Measure, Spread>),
    runs: results.length,
    passed: results.filter((r) => r.passed).length,
    results: [...results],
  };
}

/** Why a pin does not hold (undefined: it holds). Pure. */
export function pinFailure(
  pin: BaselinePin,
  withSide: Spread,
  withoutSide: Spread,
  /** The with-skill mean minus the without-skill one, unrounded until now. */
  delta: number,
): string | undefined {
  const [winner, loser] = pin.wins === "with" ? [withSide, withoutSide] : [withoutSide, withSide];
  const lead = pin.wins === "with" ? delta : round(-delta);
  const other = pin.wins === "with" ? "without" : "with";
  if (pin.passRate === undefined) {
    if (lead > 0) return undefined;
    return `the ${pin.wins}-skill pass rate (${winner.mean}) must beat the ${other}-skill one (${loser.mean})`;
  }
  if (lead >= pin.passRate) return undefined;
  return `the ${pin.wins}-skill pass rate (${winner.mean}) must beat the ${other}-skill one (${loser.mean}) by at least ${pin.passRate}, it leads by ${lead}`;
}

/** A case's baseline from its runs on each side, judged against its pin when it has one. Pure. */
export function compareSides(
  withRuns: readonly RunMeasure[],
  withoutRuns: readonly RunMeasure[],
  pin?: BaselinePin,
): BaselineResult & { failures: string[] } {
  const withSide = sideStats(withRuns);
  const withoutSide = sideStats(withoutRuns);
  const delta = deltaOf(withRuns, withoutRuns);
  const failure =
    pin === undefined ? undefined : pinFailure(pin, withSide.passRate, withoutSide.passRate, delta.passRate);
  return {
    runs: Math.max(withRuns.length, withoutRuns.length),
    with: withSide,
    without: withoutSide,
    delta,
    ...(pin === undefined ? {} : { pin, pinHeld: failure === undefined }),
    failures: failure === undefined ? [] : [failure],
  };
}

/** The runs of index `i` of every case on one side. Pure. */
function runsAt(
  cases: readonly BaselineResult[],
  pick: (c: BaselineResult) => SideStats,
  i: number,
): RunMeasure[] {
  return cases.flatMap((c) => {
    const r = pick(c).results[i];
    return r === undefined ? [] : [r];
  });
}

/**
 * The whole run's baseline: for each run index, the cases' runs of that index together (pass rate: the share
 * that passed; requests, tokens and time: their sums), then the spread of those over the run indices. Pure.
 */
export function totalBaseline(cases: readonly BaselineResult[]): Omit<BaselineResult, "pin" | "pinHeld"> {
  const runs = Math.max(0, ...cases.map((c) => c.runs));
  const perRun = (pick: (c: BaselineResult) => SideStats) =>
    Array.from({ length: runs }, (_, i) => {
      const these = runsAt(cases, pick, i);
      const sum = (m: Exclude<Measure, "passRate">) => these.reduce((a, r) => a + r[m], 0);
      return {
        share: these.length === 0 ? 0 : these.filter((r) => r.passed).length / these.length,
        run: {
          passed: these.every((r) => r.passed),
          requests: sum("requests"),
          inputTokens: sum("inputTokens"),
          outputTokens: sum("outputTokens"),
          cacheReadTokens: sum("cacheReadTokens"),
          wallMs: sum("wallMs"),
          failures: [],
        },
      };
    });
  const side = (pick: (c: BaselineResult) => SideStats, rows: ReturnType<typeof perRun>): SideStats => ({
    ...sideStats(rows.map((r) => r.run)),
    passRate: spread(rows.map((r) => r.share)),
    passed: cases.reduce((a, c) => a + pick(c).passed, 0),
    runs: cases.reduce((a, c) => a + pick(c).runs, 0),
    results: [],
  });
  const withRows = perRun((c) => c.with);
  const withoutRows = perRun((c) => c.without);
  const delta = deltaOf(
    withRows.map((r) => r.run),
    withoutRows.map((r) => r.run),
  );
  const mean = (rows: ReturnType<typeof perRun>) =>
    rows.length === 0 ? 0 : rows.reduce((a, r) => a + r.share, 0) / rows.length;
  delta.passRate = round(mean(withRows) - mean(withoutRows));
  return {
    runs,
    with: side((c) => c.with, withRows),
    without: side((c) => c.without, withoutRows),
    delta,
  };
}
