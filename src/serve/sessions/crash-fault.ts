import type { SessionEvent } from "../store/sessions.js";

/**
 * The environment variable that makes `serve` die on purpose, for crash tests: set to an event type (e.g.
 * `agent.tool_use`), the process is killed (SIGKILL, no clean-up) right after it has stored the first batch
 * of a turn's events holding an event of that type, so the turn's events are left half written (the model's
 * call stored, its result not) exactly as a crash there leaves them. Unset or empty: nothing happens.
 */
export const CRASH_AFTER_EVENT_ENV = "SKILLWRIGHT_CRASH_AFTER_EVENT";

/** Called with each batch of a session's events once it is stored, before anything else is written. */
export type AfterAppend = (sessionId: string, stored: readonly SessionEvent[]) => void;

/**
 * The hook that calls `crash` once a stored batch holds an event of type `eventType` (the value of
 * {@link CRASH_AFTER_EVENT_ENV}); undefined when `eventType` is unset or blank (no hook at all).
 */
export function crashAfterEvent(eventType: string | undefined, crash: () => void): AfterAppend | undefined {
  const type = eventType?.trim() ?? "";
  if (type === "") return undefined;
  return (_sessionId, stored) => {
    if (stored.some((e) => e.type === type)) crash();
  };
}
