import type { ModelClient } from "../agent/model-client.js";
import type { Skill } from "../skill/skill.js";
import { compareSides, type RunMeasure } from "./baseline.js";
import type { GradedCase, LocatedCase, SessionCase } from "./cases.js";
import { gradedFailures } from "./graded-checks.js";
import type { CaseOutcome } from "./outcome.js";
import { sessionFailures } from "./session-checks.js";
import type { CaseUsage, RunGradedCase, RunSessionCase } from "./session-host.js";

/** What a `--baseline` run needs: how many runs per side, the model that answers, a clock. */
export interface BaselineDeps {
  runs: number;
  client: ModelClient;
  /** The model of cases that name none (default: the project's). */
  model?: string;
  now: () => number;
  runSession: RunSessionCase;
  runGraded: RunGradedCase;
  /** Called after each run of a case on one side (`skill › case (with|without)`), for a progress bar. */
  onRun?: (label: string) => void;
}

/** The case kinds a baseline runs on both sides: the ones that judge what the agent did. */
export function isBaselineCase(c: LocatedCase["case"]): c is SessionCase | GradedCase {
  return c.kind === "session" || c.kind === "graded";
}

/** The sessions a baseline run opens for these cases: each runs `runs` times with the skill and without. Pure. */
export function baselineSessionsOf(cases: readonly LocatedCase["case"][], runs: number): number {
  return cases.filter(isBaselineCase).length * runs * 2;
}

/** One run of one side: the case run, judged, timed and its usage counted. */
async function runOnce(
  skill: Skill,
  c: SessionCase | GradedCase,
  without: boolean,
  deps: BaselineDeps,
): Promise<RunMeasure> {
  const started = deps.now();
  let failures: string[];
  let usage: CaseUsage = { requests: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0 };
  try {
    const options = {
      client: deps.client,
      without,
      ...(deps.model === undefined ? {} : { model: deps.model }),
    };
    if (c.kind === "session") {
      const seen = await deps.runSession(skill, c, options);
      failures = sessionFailures(c, seen);
      usage = seen.usage;
    } else {
      const seen = await deps.runGraded(skill, c, options);
      failures = gradedFailures(c, seen);
      usage = seen.usage;
    }
  } catch (error) {
    failures = [`the session could not run: ${error instanceof Error ? error.message : String(error)}`];
  }
  return { passed: failures.length === 0, ...usage, wallMs: deps.now() - started, failures };
}

/**
 * A session or graded case under `--baseline`: `runs` times with the skill and `runs` times without it (the
 * skill's dir removed from the temp project), alternating (run 1 with, run 1 without, run 2 with, …) so both
 * sides see the same conditions over time. The case passes when it pins no baseline, else when its pin holds.
 */
export async function runBaselineCase(
  skill: Skill,
  located: LocatedCase,
  c: SessionCase | GradedCase,
  deps: BaselineDeps,
): Promise<Omit<CaseOutcome, "skill" | "name" | "kind" | "file" | "line" | "index">> {
  const withRuns: RunMeasure[] = [];
  const withoutRuns: RunMeasure[] = [];
  for (let i = 0; i < deps.runs; i++) {
    withRuns.push(await runOnce(skill, c, false, deps));
    deps.onRun?.(`${skill.name} › ${c.name} (with)`);
    withoutRuns.push(await runOnce(skill, c, true, deps));
    deps.onRun?.(`${skill.name} › ${c.name} (without)`);
  }
  const { failures, ...baseline } = compareSides(withRuns, withoutRuns, located.baseline);
  return { passed: failures.length === 0, failures, baseline };
}
