import type { BetaManagedAgentsSession } from "@anthropic-ai/sdk/resources/beta/sessions/sessions";
import type { SessionEvent } from "./store/sessions.js";

/**
 * The seam where a served session runs the engine: `serve` answers the events routes (send, stream) only
 * when it has one, and 501 otherwise. An implementation appends the user's events to the store, runs a turn
 * over the agent's skills, and appends what the agent emits (`agent.message`, `session.status_idle`, …).
 */
export interface SessionRunner {
  /** Takes user events (`user.message`, …) for a session; resolves with them as stored. */
  send(
    workspaceId: string,
    session: BetaManagedAgentsSession,
    events: readonly ({ type: string } & Record<string, unknown>)[],
  ): Promise<SessionEvent[]>;
  /**
   * The session's events appended after this resolves, as they are appended, until `signal` aborts
   * (`followEvents` in events/follow-events.ts reads them back from the store). Rejects with the store's 404
   * (`notFound("session", id)`) for a session the workspace does not have: the stream route asks nothing else.
   */
  subscribe(
    workspaceId: string,
    sessionId: string,
    signal: AbortSignal,
  ): Promise<AsyncIterable<SessionEvent>>;
  /**
   * The session was deleted or archived: anything this instance keeps open for it is closed (after its turn,
   * when one is running). Optional: a runner that keeps nothing between turns has nothing to forget.
   */
  forget?(workspaceId: string, sessionId: string): Promise<void>;
}
