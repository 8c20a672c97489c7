import { EVENTS_SINCE_LIMIT, type SessionEvent, type SessionStore } from "../store/sessions.js";
import type { EventWatch } from "./event-signals.js";

/** A wait for new events: resolves after `ms`, when `signal` aborts, or earlier when woken. */
export type Wait = (ms: number, signal: AbortSignal) => Promise<void>;

/** How often {@link followEvents} asks the store for new events. */
export const FOLLOW_INTERVAL_MS = 100;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * A session's events appended after this call resolves, read back from the store (so events written by any
 * instance on the same database arrive, in order), until `signal` aborts. Resolves once the starting point
 * is fixed, so nothing sent after it is missed. The building block of a SessionRunner's `subscribe`. Between
 * reads it waits `intervalMs` (default {@link FOLLOW_INTERVAL_MS}) with a wait `arm()` made before the read;
 * one that resolves early (an append on this instance, a PostgreSQL NOTIFY from another) wakes it sooner.
 * With `watch` (this instance's appends, see {@link EventWatch}), the events this instance appended are taken
 * from it and the store is read only when the watch cannot tell (another instance's append, a gap) or a wait
 * ran out. Once `finish` aborts (a server shutting down, after its last writes), it reads what is stored then
 * and ends.
 */
export async function followEvents(
  sessions: SessionStore,
  workspaceId: string,
  sessionId: string,
  signal: AbortSignal,
  arm: () => Wait = () => sleep,
  intervalMs = FOLLOW_INTERVAL_MS,
  finish?: AbortSignal,
  watch?: () => EventWatch,
): Promise<AsyncIterable<SessionEvent>> {
  // Watching before the starting point is read: an append committed after that read is in the watch.
  const watching = watch?.();
  if (watching !== undefined) signal.addEventListener("abort", () => watching.close(), { once: true });
  try {
    // A stream shows what happens next; `events.list` shows the history.
    const after = await sessions.lastEventSeq(workspaceId, sessionId);
    return follow(sessions, workspaceId, sessionId, signal, after, arm, intervalMs, finish, watching);
  } catch (error) {
    watching?.close();
    throw error;
  }
}

/** A plain wait as one that tells it was woken (a poll without a watch reads the store every time). */
function woke(wait: Wait): (ms: number, signal: AbortSignal) => Promise<boolean> {
  return async (ms, signal) => {
    await wait(ms, signal);
    return true;
  };
}

async function* follow(
  sessions: SessionStore,
  workspaceId: string,
  sessionId: string,
  signal: AbortSignal,
  start: number,
  arm: () => Wait,
  intervalMs: number,
  finish: AbortSignal | undefined,
  watch: EventWatch | undefined,
): AsyncGenerator<SessionEvent> {
  let after = start;
  // Whether the last wait was ended by a wake-up (not by its interval running out, which reads the store).
  let woken = true;
  const stop = finish === undefined ? signal : AbortSignal.any([signal, finish]);
  try {
    while (!signal.aborted) {
      const last = finish?.aborted === true;
      // Armed before the read: a wake-up that comes between the read and the wait is not lost.
      const wait = watch === undefined ? woke(arm()) : watch.arm();
      const local = last || !woken ? undefined : watch?.take(after);
      const batch = local ?? (await sessions.eventsSince(workspaceId, sessionId, after));
      for (const { seq, event } of batch) {
        if (signal.aborted) return;
        after = seq;
        yield event;
      }
      // A short batch is all there was: wait (a wake-up armed before the read still ends it at once) instead
      // of reading again only to find nothing.
      if (batch.length < EVENTS_SINCE_LIMIT) {
        if (last) return;
        woken = await wait(intervalMs, stop);
      }
    }
  } finally {
    watch?.close();
  }
}
