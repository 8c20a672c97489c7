import type { BetaManagedAgentsSession } from "@anthropic-ai/sdk/resources/beta/sessions/sessions";
import type { EventSignals } from "../events/event-signals.js";
import { followEvents } from "../events/follow-events.js";
import type { AppendOptions, SessionEvent } from "../store/sessions.js";
import type { Store } from "../store/store.js";
import type { AfterAppend } from "./crash-fault.js";
import type { UserEvent } from "./user-events.js";

/** What a served session's events go through: the store, and how appends are announced. */
export interface SessionIoOptions {
  store: Store;
  /** Wakes this instance's streams on an append; absent: streams poll. */
  signals?: EventSignals;
  /** The PostgreSQL channel every append NOTIFYs in the same statement; absent: none. */
  notifyChannel?: string;
  /**
   * This instance's tag in its NOTIFY payloads (see `AppendOptions.origin`): the listener skips its own
   * announcements, whose events this instance's streams took already.
   */
  origin?: string;
  /** The fallback poll interval of streams woken by `signals`. Default 1000 ms. */
  followIntervalMs?: number;
  /** Hears each batch once it is stored, before this instance's streams do (a crash test's fault: crash-fault.ts). */
  afterAppend?: AfterAppend;
}

/** Appends to and follows of served sessions' events, announced to every stream of every instance. */
export interface ServedSessionIo {
  /**
   * Appends `events` (named `ids` when given), setting the session's `status` in the same statement, creating
   * `threads` (forks' child threads) with them and storing `transcript` rows beside them.
   */
  append(
    ws: string,
    sessionId: string,
    events: readonly UserEvent[],
    status?: BetaManagedAgentsSession["status"],
    ids?: readonly string[],
    more?: Pick<AppendOptions, "take" | "maxQueued" | "startsTurn" | "threads" | "transcript">,
  ): Promise<SessionEvent[]>;
  /**
   * The session's events appended after this resolves, until `signal` aborts; once `finish` aborts, the
   * events stored by then and no more.
   */
  follow(
    ws: string,
    sessionId: string,
    signal: AbortSignal,
    finish?: AbortSignal,
  ): Promise<AsyncIterable<SessionEvent>>;
}

/** Event appends and follows over `options.store`. */
export function createServedSessionIo(options: SessionIoOptions): ServedSessionIo {
  const { store, signals } = options;
  return {
    async append(ws, sessionId, events, status, ids, more) {
      const stored = await store.sessions.appendSequenced(ws, sessionId, events, {
        ...more,
        ...(status === undefined ? {} : { status }),
        ...(ids === undefined ? {} : { eventIds: ids }),
        ...(options.notifyChannel === undefined ? {} : { notify: options.notifyChannel }),
        ...(options.origin === undefined ? {} : { origin: options.origin }),
      });
      options.afterAppend?.(
        sessionId,
        stored.map((e) => e.event),
      );
      // The batch as stored goes to this instance's streams with the wake-up: they need not read it back.
      signals?.notify(sessionId, stored);
      return stored.map((e) => e.event);
    },
    follow: (ws, sessionId, signal, finish) =>
      signals === undefined
        ? followEvents(store.sessions, ws, sessionId, signal, undefined, undefined, finish)
        : followEvents(
            store.sessions,
            ws,
            sessionId,
            signal,
            () => signals.arm(sessionId),
            options.followIntervalMs ?? 1000,
            finish,
            () => signals.watch(sessionId),
          ),
  };
}
