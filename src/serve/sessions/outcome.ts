import {
  DEFAULT_MAX_ITERATIONS,
  type DefinedOutcome,
  MAX_ITERATIONS,
  MAX_RUBRIC_CHARS,
} from "../../outcome/outcome-prompts.js";
import { invalid } from "../errors.js";
import { newId } from "../store/ids.js";

/**
 * Refuses a `user.define_outcome` (at `events[i]`) that lacks a description or a rubric, whose text rubric is
 * empty or longer than {@link MAX_RUBRIC_CHARS}, or whose `max_iterations` is not a whole number from 1 to
 * {@link MAX_ITERATIONS} (400); a file rubric needs a `file_id` (its text is read by {@link withRubricText}). Pure.
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
  } else if (rubric.type !== "text") {
    throw invalid(`events[${i}].rubric.type: expected "text" or "file", got ${JSON.stringify(rubric.type)}`);
  } else if (!("content" in rubric) || typeof rubric.content !== "string" || rubric.content.trim() === "") {
    throw invalid(`events[${i}].rubric.content: expected a non-empty string`);
  } else if (rubric.content.length > MAX_RUBRIC_CHARS) {
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
 * The runs of the model a checked `user.define_outcome` may start: up to `max_iterations` attempts of the
 * agent (default {@link DEFAULT_MAX_ITERATIONS}), each graded by one evaluation of the grader. Pure.
 */
export function outcomeRuns(event: Record<string, unknown>): number {
  const max = typeof event.max_iterations === "number" ? event.max_iterations : DEFAULT_MAX_ITERATIONS;
  return 2 * max;
}

/**
 * The user events with each file rubric's text read now, from the workspace's uploaded file, as the rubric's
 * `content` (the grader reads that; a later change or deletion of the file changes nothing). A file that is not
 * in the workspace is a 404, one that is not UTF-8 text or is over {@link MAX_RUBRIC_CHARS} characters a 400:
 * before anything is stored.
 */
export async function withRubricText<E extends { type: string }>(
  events: readonly E[],
  readFile: (fileId: string) => Promise<Uint8Array>,
): Promise<E[]> {
  return Promise.all(
    events.map(async (event, i) => {
      const rubric = (event as { rubric?: unknown }).rubric;
      if (event.type !== "user.define_outcome" || typeof rubric !== "object" || rubric === null) return event;
      if (!("type" in rubric) || rubric.type !== "file" || !("file_id" in rubric)) return event;
      const fileId = String(rubric.file_id);
      let text: string;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(await readFile(fileId));
      } catch (error) {
        if (error instanceof TypeError)
          throw invalid(`events[${i}].rubric: file ${fileId} is not UTF-8 text`);
        throw error;
      }
      if (text.trim() === "") throw invalid(`events[${i}].rubric: file ${fileId} is empty`);
      if (text.length > MAX_RUBRIC_CHARS) {
        throw invalid(
          `events[${i}].rubric: file ${fileId} has ${text.length} characters, over ${MAX_RUBRIC_CHARS}`,
        );
      }
      return { ...event, rubric: { ...rubric, content: text } };
    }),
  );
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
