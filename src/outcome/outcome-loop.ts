import {
  attemptPrompt,
  type DefinedOutcome,
  type EvaluationResult,
  revisionPrompt,
} from "./outcome-prompts.js";

/** What one evaluation of the loop ended with. */
export interface LoopEvaluation {
  result: EvaluationResult | "interrupted";
  explanation: string;
}

/** What the loop does at each step; the host (serve, `skillwright test`) runs the agent and the grader. */
export interface OutcomeLoopSteps {
  /**
   * Runs one attempt of the agent on `prompt` (the task first, then each revision request) and gives its final
   * answer; `clean: false` (the turn failed, was stopped) ends the loop with no evaluation.
   */
  attempt(prompt: string): Promise<{ deliverable: string; clean: boolean }>;
  /** Grades attempt `iteration` (0-based): the grader's result, `max_iterations_reached` with none left. */
  evaluate(iteration: number, deliverable: string): Promise<LoopEvaluation>;
}

/** How the loop ended: its last evaluation (none when an attempt did not end cleanly) and how many ran. */
export interface LoopEnd {
  last?: LoopEvaluation;
  evaluations: number;
}

/**
 * The write–grade–revise loop: the agent attempts the task, each attempt that ends cleanly is graded, and a
 * `needs_revision` sends the grader's explanation back as the next attempt's message, until the grader is
 * satisfied, fails, the iterations are spent (`max_iterations_reached`) or an attempt does not end cleanly.
 */
export async function runOutcomeLoop(outcome: DefinedOutcome, steps: OutcomeLoopSteps): Promise<LoopEnd> {
  let prompt = attemptPrompt(outcome);
  let last: LoopEvaluation | undefined;
  for (let iteration = 0; ; iteration += 1) {
    const attempt = await steps.attempt(prompt);
    if (!attempt.clean) return { ...(last === undefined ? {} : { last }), evaluations: iteration };
    last = await steps.evaluate(iteration, attempt.deliverable);
    if (last.result !== "needs_revision") return { last, evaluations: iteration + 1 };
    prompt = revisionPrompt(last.explanation, iteration);
  }
}
