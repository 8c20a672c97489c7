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
}

/** What a turn waits for: the event it blocks on, and which user event answers it. */
export interface UserAction {
  /** Stores (or finds) the event the session blocks on; resolves with its id. */
  blockOn(): Promise<string>;
  /** Whether `event` answers the blocking event `id`. Pure. */
  answers(event: SessionEvent, id: string): boolean;
}

/**
 * The wait for the user shared by custom tools and tool confirmations: starts following the session (so no
 * answer written by any instance is missed), stores the blocking event, appends `session.status_idle`
 * (`requires_action` naming it), then waits for the answering user event, appends `session.status_running`
 * and resolves with that event. Resolves `undefined` when `signal` aborts first (an interrupted turn).
 */
export async function awaitUserAction(
  io: SessionIo,
  action: UserAction,
  signal: AbortSignal,
): Promise<SessionEvent | undefined> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    const events = await io.follow(stop.signal);
    const id = await action.blockOn();
    await io.append(
      [
        {
          type: "session.status_idle",
          stop_reason: { type: "requires_action", event_ids: [id] },
          stop_details: null,
        },
      ],
      "idle",
    );
    for await (const event of events) {
      if (!action.answers(event, id)) continue;
      await io.append([{ type: "session.status_running" }], "running");
      return event;
    }
    return undefined;
  } finally {
    signal.removeEventListener("abort", onAbort);
    stop.abort();
  }
}
