import type { GradedCase } from "./cases.js";
import type { GradedObservation } from "./session-host.js";

/** Why a graded case failed, one line per unmet expectation (none: it passed). Pure. */
export function gradedFailures(c: GradedCase, seen: GradedObservation): string[] {
  const failures: string[] = [];
  const last = seen.evaluations.at(-1);
  if (last === undefined) {
    const why = seen.errors.length > 0 ? `: ${seen.errors.join("; ")}` : "";
    failures.push(`no evaluation ran (the agent's attempt did not end cleanly${why})`);
  } else if (last.result !== c.expect.result) {
    failures.push(`the loop ended ${last.result}, expected ${c.expect.result}: ${last.explanation}`);
  }
  const count = c.expect.evaluations;
  if (count !== undefined && seen.evaluations.length !== count) {
    failures.push(`${seen.evaluations.length} evaluations ran, expected ${count}`);
  }
  if (seen.unusedTurns > 0) failures.push(`${seen.unusedTurns} scripted turns were never asked for`);
  return failures;
}

/** Each evaluation as a line: its number, result and explanation. Pure. */
export function gradedSummary(seen: GradedObservation): string {
  return seen.evaluations.map((e, i) => `evaluation ${i + 1}: ${e.result}: ${e.explanation}`).join("\n");
}
