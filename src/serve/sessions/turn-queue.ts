import { isTurnInput, type SessionEvent } from "../store/sessions.js";
import { failedSpanEnd, type OutEvent } from "./agent-event-map.js";

/** The most user events one `POST /v1/sessions/{id}/events` (or a session's `initial_events`) may carry. */
export const MAX_EVENTS_PER_REQUEST = 100;

/**
 * The most `user.message` events a session may have waiting behind its running turn; a send that would
 * queue more is refused (429 `rate_limit_error`) and stores nothing.
 */
export const MAX_QUEUED_MESSAGES = 100;

/** What the `session.error` of a turn whose server stopped in its middle says. */
export const ABANDONED_TURN_TEXT =
  "the server running this turn stopped before the turn ended; its model request was lost: send the message again to retry";

/** What the `session.error` of a turn ended by the server's shutdown says. */
export const SHUTDOWN_TURN_TEXT =
  "the server was shut down during this turn and stopped it: send the message again to retry";

/** Why queued messages are dropped, by what dropped them. */
export type DropCause = "interrupt" | "archive";

/** An untaken user event of a session (`user.message` or `user.interrupt`) and its seq. */
export interface QueuedInput {
  seq: number;
  event: SessionEvent;
}

/** What to do next with a session's untaken user events. */
export interface QueueStep {
  /** Messages that will not run, each with the cause (told by a `session.error` naming it). */
  drop: { input: QueuedInput; cause: DropCause }[];
  /** The message whose turn runs next, if any. */
  take?: QueuedInput;
  /** The seq the queue is taken up to with this step (0: nothing to take). */
  upTo: number;
  /** Whether a `user.interrupt` is among the inputs. */
  interrupted: boolean;
}

/**
 * The next step over a session's untaken user events (oldest first): on an archived session every message is
 * dropped; otherwise each message sent before the last `user.interrupt` is dropped (the interrupt clears the
 * queue it found), and the first message after it runs next. Pure.
 */
export function queueStep(inputs: readonly QueuedInput[], archived: boolean): QueueStep {
  const messages = inputs.filter((i) => isTurnInput(i.event.type));
  if (archived) {
    return {
      drop: messages.map((input) => ({ input, cause: "archive" })),
      upTo: inputs.at(-1)?.seq ?? 0,
      interrupted: inputs.some((i) => i.event.type === "user.interrupt"),
    };
  }
  const interruptSeq = inputs.findLast((i) => i.event.type === "user.interrupt")?.seq ?? 0;
  const drop = messages
    .filter((m) => m.seq < interruptSeq)
    .map((input) => ({ input, cause: "interrupt" as const }));
  const take = messages.find((m) => m.seq > interruptSeq);
  return {
    drop,
    ...(take === undefined ? {} : { take }),
    upTo: take?.seq ?? interruptSeq,
    interrupted: interruptSeq > 0,
  };
}

/** The `session.error` telling that queued message `id` will not run, and why. Pure. */
export function droppedMessageError(id: string, cause: DropCause, type = "user.message"): OutEvent {
  const why =
    cause === "interrupt" ? "a user.interrupt cleared the session's queue" : "the session was archived";
  return {
    type: "session.error",
    error: {
      type: "unknown_error",
      message: `${type} ${id} was not run: ${why} before its turn started`,
      retry_status: { type: "exhausted" },
    },
  };
}

/** The ids of the `span.model_request_start` events of `events` that no `span.model_request_end` names. Pure. */
export function openSpans(
  events: readonly { type: string; id?: unknown; model_request_start_id?: unknown }[],
): string[] {
  const open: string[] = [];
  for (const e of events) {
    if (e.type === "span.model_request_start" && typeof e.id === "string") open.push(e.id);
    if (e.type === "span.model_request_end") {
      const at = open.indexOf(String(e.model_request_start_id));
      if (at !== -1) open.splice(at, 1);
    }
  }
  return open;
}

/**
 * The events that end a turn no instance runs any more, from the turn's events so far (in order): each open
 * model request span ends as an error, then a `session.error` saying `message` (`retry_status: exhausted`: the
 * turn is dead, the client may send again), then `session.status_idle` with `retries_exhausted`. Pure.
 */
export function turnEnd(turnEvents: readonly SessionEvent[], message: string): OutEvent[] {
  return [
    ...openSpans(turnEvents).map(failedSpanEnd),
    { type: "session.error", error: { type: "unknown_error", message, retry_status: { type: "exhausted" } } },
    { type: "session.status_idle", stop_reason: { type: "retries_exhausted" }, stop_details: null },
  ];
}
