import { invalid } from "../errors.js";
import { requiredActions } from "../store/session-waits.js";
import { eventPages, type SessionEvent, type SessionStore } from "../store/sessions.js";

type UserEvent = { type: string } & Record<string, unknown>;

const TOOL_USES: ReadonlySet<string> = new Set(["agent.tool_use", "agent.mcp_tool_use"]);

/**
 * The tool uses a session waits on a `user.tool_confirmation` for, from its events in order: those a
 * `session.status_idle` with `requires_action` names, not yet confirmed or denied; an idle for any other reason
 * (the turn ended) clears them. Pure.
 */
export function pendingConfirmations(events: readonly SessionEvent[]): Set<string> {
  const toolUses = new Set<string>();
  const pending = new Set<string>();
  for (const event of events) {
    if (TOOL_USES.has(event.type)) toolUses.add(event.id);
    else if (event.type === "user.tool_confirmation" && typeof event.tool_use_id === "string") {
      pending.delete(event.tool_use_id);
    } else if (event.type === "session.status_idle") {
      const ids = requiredActions(event.stop_reason);
      if (ids === undefined) pending.clear();
      for (const id of ids ?? []) if (toolUses.has(id)) pending.add(id);
    }
  }
  return pending;
}

/**
 * The `agent.custom_tool_use` events a session waits on a `user.custom_tool_result` for, from its events in
 * order: each custom tool use not yet answered; an idle for any other reason than `requires_action` (the turn
 * ended) clears them. A use counts as soon as it is stored, before the idle that names it. Pure.
 */
export function pendingCustomToolUses(events: readonly SessionEvent[]): Set<string> {
  const pending = new Set<string>();
  for (const event of events) {
    if (event.type === "agent.custom_tool_use") pending.add(event.id);
    else if (event.type === "user.custom_tool_result" && typeof event.custom_tool_use_id === "string") {
      pending.delete(event.custom_tool_use_id);
    } else if (event.type === "session.status_idle" && requiredActions(event.stop_reason) === undefined) {
      pending.clear();
    }
  }
  return pending;
}

/**
 * Refuses (400) a batch's answers that name nothing the session waits on: a `user.custom_tool_result` naming
 * no pending custom tool use, a `user.tool_confirmation` naming no tool use awaiting confirmation (unknown, not
 * asked, of an ended turn, or already answered, also earlier in the same batch), or giving a `deny_message`
 * with `allow`. Reads the session's events only when the batch holds an answer, and then only those since the
 * last turn ended (however long the history before it).
 */
export async function checkUserAnswers(
  sessions: Pick<SessionStore, "eventsSince" | "turnStartSeq">,
  workspaceId: string,
  sessionId: string,
  events: readonly UserEvent[],
): Promise<void> {
  const answers = events.some(
    (e) => e.type === "user.tool_confirmation" || e.type === "user.custom_tool_result",
  );
  if (!answers) return;
  // Only the current turn's events: a turn's end clears every wait, so nothing before it can be pending.
  const stored: SessionEvent[] = [];
  const after = await sessions.turnStartSeq(workspaceId, sessionId);
  for await (const page of eventPages(sessions, workspaceId, sessionId, after)) {
    for (const { event } of page) stored.push(event);
  }
  const pending = pendingConfirmations(stored);
  const pendingCustom = pendingCustomToolUses(stored);
  for (const [i, event] of events.entries()) {
    if (event.type === "user.custom_tool_result" && !pendingCustom.delete(String(event.custom_tool_use_id))) {
      throw invalid(
        `events[${i}].custom_tool_use_id: ${JSON.stringify(event.custom_tool_use_id)} is not a custom tool use awaiting its result in this session (unknown, or already answered)`,
      );
    }
    if (event.type !== "user.tool_confirmation") continue;
    const id = String(event.tool_use_id);
    if (event.result === "allow" && event.deny_message !== undefined && event.deny_message !== null) {
      throw invalid(`events[${i}].deny_message: only allowed when result is "deny"`);
    }
    if (!pending.delete(id)) {
      throw invalid(
        `events[${i}].tool_use_id: ${JSON.stringify(id)} is not a tool use awaiting confirmation in this session (unknown, or already answered)`,
      );
    }
  }
}
