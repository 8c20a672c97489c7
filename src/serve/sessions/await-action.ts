import type { BetaManagedAgentsSession } from "@anthropic-ai/sdk/resources/beta/sessions/sessions";
import type { SessionEvent } from "../store/sessions.js";
import type { OutEvent } from "./agent-event-map.js";

/**
 * How a turn reaches its session while it waits on the user: append events (setting the session's status in
 * the same write when given), and follow the events appended after now.
 */
export interface SessionIo {
  append(events: OutEvent[], status?: BetaManagedAgentsSession["status"]): Promise<SessionEvent[]>;
  follow(signal: AbortSignal): Promise<AsyncIterable<SessionEvent>>;
  /**
   * The session's turn lock (see `TurnLocks`), held while the turn waits so that no other instance resumes
   * it; absent: none.
   */
  lock?: { tryHold(): Promise<boolean>; release(): Promise<void> };
}

/** What a turn waits for: the event it blocks on, and which user event answers it. */
export interface UserAction {
  /** Stores (or finds) the event the session blocks on; resolves with its id. */
  blockOn(): Promise<string>;
  /** Whether `event` answers the blocking event `id`. Pure. */
  answers(event: SessionEvent, id: string): boolean;
}

/** A turn's waits for the user (custom tool results, tool confirmations), over its session's events. */
export interface UserWaits extends SessionIo {
  /**
   * Waits for the user to answer `action`; resolves with the answering event, or `undefined` when `signal`
   * aborts first (an interrupted turn).
   */
  wait(action: UserAction, signal: AbortSignal): Promise<SessionEvent | undefined>;
}

/**
 * The one wait for the user that custom tools and tool confirmations share. A wait starts following the
 * session (so no answer written by any instance is missed), stores the blocking event and appends
 * `session.status_idle` (`requires_action` naming every event the turn now blocks on, as calls run in
 * parallel); when the answer arrives it appends `session.status_idle` again with the events still blocking, or
 * `session.status_running` when none is left. It holds the session's turn lock (`io.lock`) while it waits.
 */
export function createUserWaits(io: SessionIo): UserWaits {
  const blocked = new Set<string>();
  const idle = () =>
    io.append(
      [
        {
          type: "session.status_idle",
          stop_reason: { type: "requires_action", event_ids: [...blocked] },
          stop_details: null,
        },
      ],
      "idle",
    );
  return {
    append: (events, status) => io.append(events, status),
    follow: (signal) => io.follow(signal),
    async wait(action, signal) {
      const stop = new AbortController();
      const onAbort = () => stop.abort();
      signal.addEventListener("abort", onAbort, { once: true });
      let id: string | undefined;
      // Taken before the blocking event is stored: from then on an answer may arrive on any instance. Not
      // got (another instance holds it): the wait goes on all the same.
      const held = (await io.lock?.tryHold()) === true;
      try {
        const events = await io.follow(stop.signal);
        id = await action.blockOn();
        blocked.add(id);
        await idle();
        for await (const event of events) {
          if (!action.answers(event, id)) continue;
          blocked.delete(id);
          if (blocked.size > 0) await idle();
          else await io.append([{ type: "session.status_running" }], "running");
          return event;
        }
        return undefined;
      } finally {
        if (id !== undefined) blocked.delete(id);
        signal.removeEventListener("abort", onAbort);
        stop.abort();
        if (held) await io.lock?.release();
      }
    },
  };
}
