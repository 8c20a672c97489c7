import { join } from "node:path";
import type { FsOps } from "../io/fs.js";
import type { ShellOps } from "../io/shell.js";
import type { ListingSettings } from "../listing/budget.js";
import type { Skill } from "../skill/skill.js";
import type { TriggerAdvice } from "./advice.js";
import { type CaseFileError, type LocatedCase, parseCasesFile } from "./cases.js";
import { gradedFailures, gradedSummary } from "./graded-checks.js";
import type { CaseOutcome } from "./outcome.js";
import { type BaselineDeps, baselineSessionsOf, isBaselineCase, runBaselineCase } from "./run-baseline.js";
import { runExpansionCase, type TempCopy } from "./run-expansion.js";
import { runListingCase } from "./run-listing.js";
import { runTriggerCase, type TriggerSession } from "./run-trigger.js";
import { sessionFailures, sessionSummary } from "./session-checks.js";
import type { RunGradedCase, RunSessionCase } from "./session-host.js";

/** The dir beside SKILL.md that holds a skill's cases. */
export const TESTS_DIR = "tests";

export interface RunTestsDeps {
  fs: FsOps;
  shell: ShellOps;
  copyDir: (dir: string) => Promise<TempCopy>;
  env: Readonly<Record<string, string | undefined>>;
  listingSettings?: ListingSettings;
  /** Opens a model session for trigger cases; absent (no API key): trigger cases are skipped. */
  openTrigger?: () => Promise<TriggerSession>;
  /** The listing entry and competing skills of a skill whose trigger case failed. */
  adviseTrigger?: (skill: Skill) => TriggerAdvice;
  /**
   * Told, before any case runs, how many model runs the trigger cases and the baseline's sessions will make
   * (only with `openTrigger` or `baseline`).
   */
  onPlan?: (modelRuns: number) => void;
  /** Called after each model run of a trigger case (`skill › case`), for a progress bar. */
  onModelRun?: (label: string) => void;
  /** Runs session cases; absent: they are skipped. */
  runSession?: RunSessionCase;
  /** Runs graded cases (the write–grade–revise loop); absent: they are skipped. */
  runGraded?: RunGradedCase;
  /** Called after each case, for progress output. */
  onCase?: (outcome: CaseOutcome) => void;
  /**
   * `--baseline`: session and graded cases run on both sides against this model. `approve` is asked, once the
   * tests files are read and before anything runs, whether to go on with that many sessions; no: nothing runs.
   */
  baseline?: Omit<BaselineDeps, "runSession" | "runGraded"> & {
    approve: (sessions: number) => Promise<boolean>;
  };
}

/** Everything a run found: the outcomes and the tests files that could not be read or parsed. */
export interface TestRun {
  outcomes: CaseOutcome[];
  fileErrors: CaseFileError[];
  /** Skills that had a `tests/` dir with at least one tests file. */
  skillsTested: number;
  /** Under `--baseline`: the runs per side. */
  baselineRuns?: number;
  /** The baseline's sessions were not approved: nothing ran. */
  declined?: boolean;
}

/** `<baseDir>/tests/*.yaml|yml`, sorted; none when the dir is missing. */
export async function caseFiles(fs: FsOps, skill: Pick<Skill, "baseDir">): Promise<string[]> {
  if (skill.baseDir === "") return [];
  const dir = join(skill.baseDir, TESTS_DIR);
  const entries = await fs.readdir(dir).catch(() => []);
  return entries
    .map((e) => e.name)
    .filter((n) => /\.ya?ml$/.test(n))
    .sort()
    .map((n) => join(dir, n));
}

async function loadCases(
  fs: FsOps,
  file: string,
): Promise<{ cases: LocatedCase[]; errors: CaseFileError[] }> {
  let text: string;
  try {
    text = await fs.readFile(file);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { cases: [], errors: [{ file, line: 1, column: 1, message: `cannot read: ${message}` }] };
  }
  const parsed = parseCasesFile(file, text);
  return parsed.ok ? { cases: parsed.cases, errors: [] } : { cases: [], errors: parsed.errors };
}

async function runCase(skill: Skill, located: LocatedCase, deps: RunTestsDeps): Promise<CaseOutcome> {
  const c = located.case;
  const base = {
    skill: skill.name,
    name: c.name,
    kind: c.kind,
    file: located.file,
    line: located.line,
    index: located.index,
  };
  if (deps.baseline !== undefined && isBaselineCase(c) && deps.runSession && deps.runGraded) {
    const measured = await runBaselineCase(skill, located, c, {
      ...deps.baseline,
      runSession: deps.runSession,
      runGraded: deps.runGraded,
    });
    return { ...base, ...measured };
  }
  switch (c.kind) {
    case "expansion": {
      const result = await runExpansionCase(skill, c, deps);
      const expected = c.expect.exact;
      return {
        ...base,
        passed: result.failures.length === 0,
        ...result,
        ...(expected === undefined ? {} : { expected }),
      };
    }
    case "listing": {
      const result = runListingCase(skill, c, {
        env: deps.env,
        ...(deps.listingSettings === undefined ? {} : { settings: deps.listingSettings }),
      });
      return {
        ...base,
        passed: result.failures.length === 0,
        failures: result.failures,
        actual: result.actual,
      };
    }
    case "trigger": {
      if (deps.openTrigger === undefined) {
        return { ...base, passed: true, skipped: "no model: set ANTHROPIC_API_KEY", failures: [] };
      }
      const result = await runTriggerCase(skill, c, {
        open: deps.openTrigger,
        ...(deps.onModelRun === undefined
          ? {}
          : { onRun: () => deps.onModelRun?.(`${skill.name} › ${c.name}`) }),
      });
      const passed = result.failures.length === 0;
      const advice = passed ? undefined : deps.adviseTrigger?.(skill);
      return {
        ...base,
        passed,
        failures: result.failures,
        actual: result.actual,
        ...(advice === undefined ? {} : { advice }),
      };
    }
    case "session": {
      if (deps.runSession === undefined) {
        return { ...base, passed: true, skipped: "no session runner", failures: [] };
      }
      try {
        const seen = await deps.runSession(skill, c);
        const failures = sessionFailures(c, seen);
        return { ...base, passed: failures.length === 0, failures, actual: sessionSummary(seen) };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { ...base, passed: false, failures: [`the session could not run: ${message}`] };
      }
    }
    case "graded": {
      if (deps.runGraded === undefined) {
        return { ...base, passed: true, skipped: "no session runner", failures: [] };
      }
      try {
        const seen = await deps.runGraded(skill, c);
        const failures = gradedFailures(c, seen);
        return { ...base, passed: failures.length === 0, failures, actual: gradedSummary(seen) };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { ...base, passed: false, failures: [`the session could not run: ${message}`] };
      }
    }
  }
}

/** The model runs a trigger case makes: each prompt `runs` times; 0 for other kinds. Pure. */
export function modelRunsOf(c: LocatedCase["case"]): number {
  return c.kind === "trigger" ? (c.should.length + c.should_not.length) * c.runs : 0;
}

/**
 * Runs every case of every skill given, in order, one at a time (inline shell must not race). Every tests file
 * is read first, so `onPlan` knows the number of model runs before the first one.
 */
export async function runSkillTests(skills: readonly Skill[], deps: RunTestsDeps): Promise<TestRun> {
  const outcomes: CaseOutcome[] = [];
  const fileErrors: CaseFileError[] = [];
  const planned: { skill: Skill; located: LocatedCase }[] = [];
  let skillsTested = 0;
  for (const skill of skills) {
    const files = await caseFiles(deps.fs, skill);
    if (files.length > 0) skillsTested += 1;
    for (const file of files) {
      const { cases, errors } = await loadCases(deps.fs, file);
      fileErrors.push(...errors);
      planned.push(...cases.map((located) => ({ skill, located })));
    }
  }
  const baselineRuns = deps.baseline === undefined ? {} : { baselineRuns: deps.baseline.runs };
  const sessions =
    deps.baseline === undefined
      ? 0
      : baselineSessionsOf(
          planned.map((p) => p.located.case),
          deps.baseline.runs,
        );
  if (deps.baseline !== undefined && !(await deps.baseline.approve(sessions))) {
    return { outcomes, fileErrors, skillsTested, ...baselineRuns, declined: true };
  }
  if (deps.openTrigger !== undefined || deps.baseline !== undefined) {
    const triggerRuns =
      deps.openTrigger === undefined ? 0 : planned.reduce((sum, p) => sum + modelRunsOf(p.located.case), 0);
    deps.onPlan?.(triggerRuns + sessions);
  }
  for (const { skill, located } of planned) {
    const outcome = await runCase(skill, located, deps);
    outcomes.push(outcome);
    deps.onCase?.(outcome);
  }
  return { outcomes, fileErrors, skillsTested, ...baselineRuns };
}
