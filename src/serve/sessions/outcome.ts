import {
  DEFAULT_MAX_ITERATIONS,
  type DefinedOutcome,
  MAX_ITERATIONS,
  MAX_RUBRIC_CHARS,
} from "../../outcome/outcome-prompts.js";
import { invalid, notImplemented } from "../errors.js";
import { newId } from "../store/ids.js";

/**
 * Refuses a `user.define_outcome` (at `events[i]`) that lacks a description or a rubric, whose text rubric is
 * empty or longer than {@link MAX_RUBRIC_CHARS}, or whose `max_iterations` is not a whole number from 1 to
 * {@link MAX_ITERATIONS} (400); a file rubric is a 501 (serve has no files API yet). Pure.
 */
export function checkDefineOutcome(event: Record<string, unknown>, i: number): void {
  if (typeof event.description !== "string" || event.description.trim() === "") {
    throw invalid(`events[${i}].description: expected a non-empty string`);
  }
  const rubric = event.rubric;
  if (typeof rubric !== "object" || rubric === null || !("type" in rubric)) {
    throw invalid(
      `events[${i}].rubric: expected {"type": "text", "content": ...} or {"type": "file", "file_id": ...}`,
    );
  }
  if (rubric.type === "file") {
    if (!("file_id" in rubric) || typeof rubric.file_id !== "string" || rubric.file_id === "") {
      throw invalid(`events[${i}].rubric.file_id: expected a file id`);
    }
    throw notImplemented(`events[${i}].rubric: file rubrics`, "give the rubric as text");
  }
  if (rubric.type !== "text") {
    throw invalid(`events[${i}].rubric.type: expected "text" or "file", got ${JSON.stringify(rubric.type)}`);
  }
  if (!("content" in rubric) || typeof rubric.content !== "string" || rubric.content.trim() === "") {
    throw invalid(`events[${i}].rubric.content: expected a non-empty string`);
  }
  if (rubric.content.length > MAX_RUBRIC_CHARS) {
    throw invalid(
      `events[${i}].rubric.content: at most ${MAX_RUBRIC_CHARS} characters, got ${rubric.content.length}`,
    );
  }
  const max = event.max_iterations;
  if (max === undefined || max === null) return;
  if (typeof max !== "number" || !Number.isInteger(max) || max < 1 || max > MAX_ITERATIONS) {
    throw invalid(
      `events[${i}].max_iterations: expected a whole number from 1 to ${MAX_ITERATIONS}, got ${JSON.stringify(max)}`,
    );
  }
}

/**
 * A checked `user.define_outcome` as it is stored and echoed: with a new `outc_` id and `max_iterations`
 * resolved (default {@link DEFAULT_MAX_ITERATIONS}); any other event as it is.
 */
export function acceptOutcome<E extends { type: string }>(event: E): E {
  if (event.type !== "user.define_outcome") return event;
  const { max_iterations: max, ...rest } = event as E & { max_iterations?: unknown };
  return {
    ...rest,
    outcome_id: newId("outc"),
    max_iterations: typeof max === "number" ? max : DEFAULT_MAX_ITERATIONS,
  } as unknown as E;
}

/** The outcome a stored `user.define_outcome` defines, or undefined for any other event. Pure. */
export function outcomeOf(event: Record<string, unknown>): DefinedOutcome | undefined {
  if (event.type !== "user.define_outcome") return undefined;
  const rubric = event.rubric;
  const text =
    typeof rubric === "object" && rubric !== null && "content" in rubric && typeof rubric.content === "string"
      ? rubric.content
      : "";
  return {
    outcomeId: typeof event.outcome_id === "string" ? event.outcome_id : "",
    description: typeof event.description === "string" ? event.description : "",
    rubric: text,
    maxIterations: typeof event.max_iterations === "number" ? event.max_iterations : DEFAULT_MAX_ITERATIONS,
  };
}
