import { invalid, notImplemented } from "../errors.js";
import { checkDefineOutcome } from "./outcome.js";
import { MAX_EVENTS_PER_REQUEST } from "./turn-queue.js";

/** The user events a session takes (`POST /v1/sessions/{id}/events`). */
export const USER_EVENT_TYPES = [
  "user.message",
  "user.interrupt",
  "user.custom_tool_result",
  "user.tool_confirmation",
  "user.define_outcome",
] as const;

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
 * Refuses more than {@link MAX_EVENTS_PER_REQUEST} events (400), the SDK's event types serve does not implement
 * (501), unknown types and events that lack their required fields (400). Pure.
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
}
