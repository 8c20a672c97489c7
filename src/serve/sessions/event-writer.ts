import type { BetaManagedAgentsSession } from "@anthropic-ai/sdk/resources/beta/sessions/sessions";
import type { NewThread, SessionEvent } from "../store/sessions.js";

type Status = BetaManagedAgentsSession["status"];
type OutgoingEvent = { type: string } & Record<string, unknown>;

/**
 * How a writer stores a batch: one append (and one announcement) of `events`, named `ids`, in order, creating
 * `threads` first.
 */
export interface EventWriterIo {
  append(
    events: OutgoingEvent[],
    status: Status | undefined,
    ids: string[],
    threads: NewThread[],
  ): Promise<SessionEvent[]>;
  /** A new event id. */
  newId(): string;
}

/** One `write`: the events' ids at once, and the events as stored once their batch is written. */
export interface Written {
  ids: string[];
  stored: Promise<SessionEvent[]>;
}

/**
 * A session's outgoing events, written in order and coalesced: while one batch is being stored, every event
 * written meanwhile waits and goes in the next batch, so a burst of events is one statement and one NOTIFY
 * instead of one each, and the turn producing them never waits for the database.
 */
export interface EventWriter {
  /**
   * Queues `events` (and `status`, set on the session row with them; `threads`, created before them) after
   * everything queued before. Their ids are known at once; `stored` settles when their batch is written (a
   * failure is also reported by `flush`, so it may go unobserved).
   */
  write(events: OutgoingEvent[], status?: Status, threads?: NewThread[]): Written;
  /** Resolves when everything queued so far is stored; rejects with the first failure since the last flush. */
  flush(): Promise<void>;
}

interface Pending {
  events: OutgoingEvent[];
  ids: string[];
  status: Status | undefined;
  threads: NewThread[];
  resolve(stored: SessionEvent[]): void;
  reject(error: unknown): void;
}

/** The status a batch sets: the last one written in it. Pure. */
export function batchStatus(batch: readonly { status: Status | undefined }[]): Status | undefined {
  return batch.findLast((p) => p.status !== undefined)?.status;
}

/** An {@link EventWriter} over `io`. */
export function createEventWriter(io: EventWriterIo): EventWriter {
  let pending: Pending[] = [];
  let draining: Promise<void> | undefined;
  let failure: { error: unknown } | undefined;
  const drain = async (): Promise<void> => {
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      try {
        const stored = await io.append(
          batch.flatMap((p) => p.events),
          batchStatus(batch),
          batch.flatMap((p) => p.ids),
          batch.flatMap((p) => p.threads),
        );
        let offset = 0;
        for (const p of batch) {
          p.resolve(stored.slice(offset, offset + p.events.length));
          offset += p.events.length;
        }
      } catch (error) {
        failure ??= { error };
        for (const p of batch) p.reject(error);
      }
    }
    // Set in the same synchronous step as the emptiness check above: a write after it starts a new drain.
    draining = undefined;
  };
  return {
    write(events, status, threads = []) {
      const ids = events.map(() => io.newId());
      const stored = new Promise<SessionEvent[]>((resolve, reject) => {
        pending.push({ events, ids, status, threads, resolve, reject });
      });
      stored.catch(() => {});
      draining ??= drain();
      return { ids, stored };
    },
    async flush() {
      while (draining !== undefined) await draining;
      const failed = failure;
      failure = undefined;
      if (failed !== undefined) throw failed.error;
    },
  };
}
