import { invalid, notImplemented } from "../errors.js";
import { checkDefineOutcome, outcomeRuns } from "./outcome.js";
import { MAX_EVENTS_PER_REQUEST } from "./turn-queue.js";

/** The user events a session takes (`POST /v1/sessions/{id}/events`). */
export const USER_EVENT_TYPES = [
  "user.message",
  "user.interrupt",
  "user.custom_tool_result",
  "user.tool_confirmation",
  "user.define_outcome",
] as const;

/**
 * The most runs of the model one request may queue (`POST /v1/sessions/{id}/events`, a session's
 * `initial_events`): a `user.message` is one run of the agent, a `user.define_outcome` up to `max_iterations`
 * attempts and as many grader evaluations (see {@link requestRuns}). Past it the request is a 400 and stores
 * nothing. Each run's own model requests are capped by the engine (`DEFAULT_MAX_TURNS`).
 */
export const MAX_RUNS_PER_REQUEST = 200;

/** The SDK's other input events, which serve does not implement (501). */
export const UNSERVED_EVENT_TYPES = ["user.tool_result", "system.message"] as const;

/** A user event as posted: its type and its other fields, unchecked. */
export type UserEvent = { type: string } & Record<string, unknown>;

/** The text of a `user.message`'s content blocks. Pure. */
export function userText(event: UserEvent): string {
  const content = event.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .flatMap((b: unknown) => {
      if (typeof b !== "object" || b === null) return [];
      const block: Record<string, unknown> = { ...b };
      return block.type === "text" && typeof block.text === "string" ? [block.text] : [];
    })
    .join("\n");
}

/**
 * The runs of the model checked `events` queue: one per `user.message`, `2 × max_iterations` per
 * `user.define_outcome`, none for the others (answers and interrupts). Pure.
 */
export function requestRuns(events: readonly UserEvent[]): number {
  return events.reduce(
    (sum, e) => sum + (e.type === "user.message" ? 1 : e.type === "user.define_outcome" ? outcomeRuns(e) : 0),
    0,
  );
}

/**
 * Refuses more than {@link MAX_EVENTS_PER_REQUEST} events (400), the SDK's event types serve does not implement
 * (501), unknown types and events that lack their required fields (400), and events that would queue more than
 * {@link MAX_RUNS_PER_REQUEST} runs of the model (400). Pure.
 */
export function checkUserEvents(events: readonly UserEvent[]): void {
  if (events.length > MAX_EVENTS_PER_REQUEST) {
    throw invalid(
      `events: at most ${MAX_EVENTS_PER_REQUEST} events per request, got ${events.length}: send them in several requests`,
    );
  }
  for (const [i, event] of events.entries()) {
    if ((UNSERVED_EVENT_TYPES as readonly string[]).includes(event.type)) {
      throw notImplemented(`events[${i}]: the event type ${event.type}`);
    }
    if (!(USER_EVENT_TYPES as readonly string[]).includes(event.type)) {
      throw invalid(
        `events[${i}].type: expected one of ${USER_EVENT_TYPES.join(", ")}, got ${JSON.stringify(event.type)}`,
      );
    }
    if (event.type === "user.message" && !Array.isArray(event.content)) {
      throw invalid(`events[${i}].content: expected an array of content blocks`);
    }
    if (event.type === "user.define_outcome") checkDefineOutcome(event, i);
    if (event.type === "user.custom_tool_result" && typeof event.custom_tool_use_id !== "string") {
      throw invalid(`events[${i}].custom_tool_use_id: expected a string`);
    }
    if (
      event.type === "user.tool_confirmation" &&
      (typeof event.tool_use_id !== "string" || (event.result !== "allow" && event.result !== "deny"))
    ) {
      throw invalid(`events[${i}]: a tool confirmation needs tool_use_id and result "allow" or "deny"`);
    }
  }
  const runs = requestRuns(events);
  if (runs > MAX_RUNS_PER_REQUEST) {
    throw invalid(
      `events: one request may queue at most ${MAX_RUNS_PER_REQUEST} runs of the model (a user.message is 1, a user.define_outcome 2 × max_iterations: its attempts and their evaluations); these would queue ${runs}`,
    );
  }
}
