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
 * Refuses (400) a batch's `user.tool_confirmation`s that name no tool use the session waits on (unknown, not
 * asked, or already answered, also earlier in the same batch), or that give a `deny_message` with `allow`.
 * Reads the session's events only when the batch holds a confirmation, and then only those since the last turn
 * ended (however long the history before it).
 */
export async function checkToolConfirmations(
  sessions: Pick<SessionStore, "eventsSince" | "turnStartSeq">,
  workspaceId: string,
  sessionId: string,
  events: readonly UserEvent[],
): Promise<void> {
  if (!events.some((e) => e.type === "user.tool_confirmation")) return;
  // Only the current turn's events: a turn's end clears every wait, so nothing before it can be pending.
  const stored: SessionEvent[] = [];
  const after = await sessions.turnStartSeq(workspaceId, sessionId);
  for await (const page of eventPages(sessions, workspaceId, sessionId, after)) {
    for (const { event } of page) stored.push(event);
  }
  const pending = pendingConfirmations(stored);
  for (const [i, event] of events.entries()) {
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
