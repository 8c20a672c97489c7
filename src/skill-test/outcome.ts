import type { TriggerAdvice } from "./advice.js";
import type { BaselineResult } from "./baseline.js";

/** The result of one test case. */
export interface CaseOutcome {
  skill: string;
  /** The case's name. */
  name: string;
  kind: string;
  /** The tests file and the case's line in it. */
  file: string;
  line: number;
  /** The case's position in the file's `cases`. */
  index: number;
  passed: boolean;
  /** Why the case did not run (it counts as neither passed nor failed). */
  skipped?: string;
  /** Why it failed, one line per failed expectation; empty when it passed. */
  failures: string[];
  /** What was produced (the expanded body, the listing entry), for the report and `--update`. */
  actual?: string;
  /** The expected exact body, when the case gives one. */
  expected?: string;
  /** For a failed trigger case: the listing entry the model saw and the skills competing with it. */
  advice?: TriggerAdvice;
  /** Under `--baseline`, for a session or graded case: both sides' runs, their stats and the difference. */
  baseline?: BaselineResult;
}
