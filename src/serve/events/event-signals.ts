import type { SessionEvent } from "../store/sessions.js";

/** An event as stored, with its sequence number in its session. */
export interface SequencedEvent {
  seq: number;
  event: SessionEvent;
}

/** The most events a {@link EventWatch} holds for its stream before it gives up and reads the store. */
export const WATCH_BUFFER_EVENTS = 256;

/**
 * One stream's view of a session's appends: what this instance appended since the watch began, so that the
 * stream takes those events without reading them back from the store, and whether it must read the store.
 */
export interface EventWatch {
  /** A wait armed now (see {@link EventSignals.arm}): resolves true when woken by a notify, false otherwise. */
  arm(): (ms: number, signal: AbortSignal) => Promise<boolean>;
  /**
   * The session's events after `after`, when this instance's appends since the watch began tell all of them:
   * [] when none came, the run of events that follows `after` otherwise. Undefined when the store must be read:
   * another instance appended (a notify without events), this watch dropped events for room, or the events
   * it holds do not follow `after` (an append of this instance still on its way).
   */
  take(after: number): SequencedEvent[] | undefined;
  /** Stops watching (the stream ended). */
  close(): void;
}

/**
 * Wake-ups for event streams: `notify(sessionId)` after events of that session are appended (by this
 * instance, or by another one as told through PostgreSQL NOTIFY) wakes every `wait` on it at once, instead of
 * at the end of its poll interval.
 */
export interface EventSignals {
  /**
   * Events of `sessionId` were appended: `stored` is the batch (committed) when this instance appended it;
   * absent, the events are only in the store (another instance's append).
   */
  notify(sessionId: string, stored?: readonly SequencedEvent[]): void;
  /**
   * A wait armed now: it resolves on a `notify` of `sessionId` made after this call (even before the wait
   * starts), after `ms`, or when `signal` aborts, whichever is first.
   */
  arm(sessionId: string): (ms: number, signal: AbortSignal) => Promise<void>;
  /** A watch of `sessionId`'s appends from now on, for one stream; close it when the stream ends. */
  watch(sessionId: string): EventWatch;
}

interface WatchState {
  events: SequencedEvent[];
  /** The store must be read: an append seen only as a notify, or events dropped for room. */
  stale: boolean;
}

/** An in-process {@link EventSignals}. */
export function createEventSignals(): EventSignals {
  const waiting = new Map<string, Set<() => void>>();
  const versions = new Map<string, number>();
  const watches = new Map<string, Set<WatchState>>();
  const wait = (sessionId: string, ms: number, signal: AbortSignal): Promise<boolean> =>
    new Promise((resolve) => {
      const wakers = waiting.get(sessionId) ?? new Set<() => void>();
      waiting.set(sessionId, wakers);
      const timer = setTimeout(() => done(false), ms);
      const aborted = () => done(false);
      function done(woken: boolean) {
        clearTimeout(timer);
        signal.removeEventListener("abort", aborted);
        wakers.delete(wake);
        if (wakers.size === 0 && waiting.get(sessionId) === wakers) waiting.delete(sessionId);
        resolve(woken);
      }
      const wake = () => done(true);
      wakers.add(wake);
      signal.addEventListener("abort", aborted, { once: true });
    });
  const arm = (sessionId: string) => {
    const seen = versions.get(sessionId) ?? 0;
    return async (ms: number, signal: AbortSignal): Promise<boolean> => {
      if ((versions.get(sessionId) ?? 0) !== seen) return true;
      return wait(sessionId, ms, signal);
    };
  };
  return {
    notify(sessionId, stored) {
      versions.set(sessionId, (versions.get(sessionId) ?? 0) + 1);
      for (const state of watches.get(sessionId) ?? []) {
        if (stored === undefined || state.events.length + stored.length > WATCH_BUFFER_EVENTS) {
          state.stale = true;
          state.events = [];
        } else state.events.push(...stored);
      }
      const wakers = waiting.get(sessionId);
      if (wakers === undefined) return;
      waiting.delete(sessionId);
      for (const wake of wakers) wake();
    },
    arm: (sessionId) => {
      const armed = arm(sessionId);
      return async (ms, signal) => {
        await armed(ms, signal);
      };
    },
    watch(sessionId) {
      const state: WatchState = { events: [], stale: false };
      const set = watches.get(sessionId) ?? new Set<WatchState>();
      watches.set(sessionId, set);
      set.add(state);
      return {
        arm: () => arm(sessionId),
        take(after) {
          if (state.stale) {
            state.stale = false;
            return undefined;
          }
          state.events = state.events.filter((e) => e.seq > after).sort((a, b) => a.seq - b.seq);
          let run = 0;
          while (state.events[run]?.seq === after + run + 1) run++;
          if (run === 0) return state.events.length === 0 ? [] : undefined;
          return state.events.splice(0, run);
        },
        close() {
          set.delete(state);
          if (set.size === 0 && watches.get(sessionId) === set) watches.delete(sessionId);
        },
      };
    },
  };
}
