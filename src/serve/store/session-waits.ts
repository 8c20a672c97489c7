import type { SqlQuery } from "./driver.js";
import { text } from "./rows.js";

/**
 * How an append moves a session's `wait_seq` (the seq of its last status event while that is a
 * `session.status_idle` waiting on the user): `undefined` when `events` hold no status event (unchanged), 0
 * when their last status event is anything else (cleared), else the 1-based position in `events` of that
 * waiting `session.status_idle`. Pure.
 */
export function waitMark(
  events: readonly ({ type: string } & Record<string, unknown>)[],
): number | undefined {
  const last = events.findLastIndex((e) => e.type.startsWith("session.status_"));
  const event = events[last];
  if (event === undefined) return undefined;
  const waits = event.type === "session.status_idle" && requiredActions(event.stop_reason) !== undefined;
  return waits ? last + 1 : 0;
}

/** The event ids a `session.status_idle`'s `stop_reason` waits on, or undefined when it is not `requires_action`. Pure. */
export function requiredActions(stopReason: unknown): string[] | undefined {
  if (typeof stopReason !== "object" || stopReason === null) return undefined;
  const reason: Record<string, unknown> = { ...stopReason };
  if (reason.type !== "requires_action" || !Array.isArray(reason.event_ids)) return undefined;
  return reason.event_ids.filter((id: unknown): id is string => typeof id === "string");
}

/** A session whose turn waits on the user, with every event it waits on answered. */
export interface AnsweredWaitRef {
  workspaceId: string;
  sessionId: string;
}

/** The most sessions one {@link findAnsweredWaits} returns. */
export const ANSWERED_WAITS_LIMIT = 100;

/**
 * The sessions (not archived) whose turn waits on the user and has every event it waits on answered since
 * (a `user.custom_tool_result` / `user.tool_confirmation` after the event it names), oldest wait first: one
 * query over the `sessions_waiting` partial index, so its cost follows the sessions waiting now, not all.
 * A live owner's wait shows here only until it reads its answer; the caller takes the turn lock before acting.
 */
export async function findAnsweredWaits(db: SqlQuery): Promise<AnsweredWaitRef[]> {
  const rows = await db.query(
    `SELECT s.workspace_id, s.id FROM sessions s
     JOIN session_events w ON w.session_id = s.id AND w.seq = s.wait_seq
     WHERE s.wait_seq IS NOT NULL AND s.event_seq > s.wait_seq AND s.archived_at IS NULL
       AND jsonb_array_length(w.body->'stop_reason'->'event_ids') > 0
       AND NOT EXISTS (
         SELECT 1 FROM jsonb_array_elements_text(w.body->'stop_reason'->'event_ids') AS need(id)
         WHERE NOT EXISTS (
           SELECT 1 FROM session_events u JOIN session_events a
             ON a.session_id = u.session_id AND a.seq > u.seq
           WHERE u.id = need.id AND u.session_id = s.id
             AND ((a.type = 'user.custom_tool_result' AND a.body->>'custom_tool_use_id' = need.id)
               OR (a.type = 'user.tool_confirmation' AND a.body->>'tool_use_id' = need.id))))
     ORDER BY s.updated_at LIMIT ${ANSWERED_WAITS_LIMIT}`,
  );
  return rows.map((row) => ({ workspaceId: text(row, "workspace_id"), sessionId: text(row, "id") }));
}
