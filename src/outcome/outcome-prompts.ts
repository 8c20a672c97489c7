/**
 * The write–grade–revise loop's texts and decisions, shared by `serve` (`user.define_outcome`) and `skillwright
 * test` (`kind: graded` cases). Pure.
 */

/** `max_iterations` when an outcome gives none (the SDK's default). */
export const DEFAULT_MAX_ITERATIONS = 3;
/** The most `max_iterations` an outcome may ask for (the SDK's maximum). */
export const MAX_ITERATIONS = 20;
/** The longest text rubric, in characters (the SDK's maximum). */
export const MAX_RUBRIC_CHARS = 262_144;

/** An outcome an agent works toward: its task, its rubric's text and how many evaluations it may take. */
export interface DefinedOutcome {
  /** The `outc_` id serve gives it (any label elsewhere). */
  outcomeId: string;
  description: string;
  /** The rubric's text. */
  rubric: string;
  maxIterations: number;
}

/** What a grader answers about one attempt. */
export type GraderResult = "satisfied" | "needs_revision" | "failed";

/** What an evaluation ends with: the grader's result, or `max_iterations_reached` when no revision is left. */
export type EvaluationResult = GraderResult | "max_iterations_reached";

/** The user message of an outcome's first attempt: the task, and the rubric it will be graded against. Pure. */
export function attemptPrompt(outcome: DefinedOutcome): string {
  return [
    outcome.description,
    "",
    "When you finish, a grader will check your work against this rubric:",
    "<rubric>",
    outcome.rubric,
    "</rubric>",
  ].join("\n");
}

/** The user message of a revision: the grader's explanation of what the last attempt lacks. Pure. */
export function revisionPrompt(explanation: string, iteration: number): string {
  return [
    `The grader reviewed your work (evaluation ${iteration + 1}) and asks for a revision:`,
    "<grader_feedback>",
    explanation,
    "</grader_feedback>",
    "Revise your work to meet every criterion of the rubric.",
  ].join("\n");
}

/**
 * The verdict in a grader's final answer: the last JSON object in it with a `result` of `satisfied`,
 * `needs_revision` or `failed` and a string `explanation`; undefined when it has none. Pure.
 */
export function parseVerdict(text: string): { result: GraderResult; explanation: string } | undefined {
  const end = text.lastIndexOf("}");
  for (let start = text.lastIndexOf("{", end); start !== -1; start = text.lastIndexOf("{", start - 1)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text.slice(start, end + 1));
    } catch {
      if (start === 0) break;
      continue;
    }
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const verdict: Record<string, unknown> = { ...parsed };
    const result = verdict.result;
    if (
      (result === "satisfied" || result === "needs_revision" || result === "failed") &&
      typeof verdict.explanation === "string"
    ) {
      return { result, explanation: verdict.explanation };
    }
    return undefined;
  }
  return undefined;
}

/**
 * What an evaluation's end says, from the grader's result at `iteration` (0-based) of `maxIterations`: a
 * `needs_revision` with no iteration left is `max_iterations_reached`. Pure.
 */
export function evaluationResult(
  result: GraderResult,
  iteration: number,
  maxIterations: number,
): EvaluationResult {
  return result === "needs_revision" && iteration + 1 >= maxIterations ? "max_iterations_reached" : result;
}
