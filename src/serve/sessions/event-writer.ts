import type { BetaManagedAgentsSession } from "@anthropic-ai/sdk/resources/beta/sessions/sessions";
import type { TranscriptRows } from "../store/session-transcripts.js";
import type { NewThread, SessionEvent } from "../store/sessions.js";

type Status = BetaManagedAgentsSession["status"];
type OutgoingEvent = { type: string } & Record<string, unknown>;

/**
 * How a writer stores a batch: one append (and one announcement) of `events`, named `ids`, in order, creating
 * `threads` first, with the batch's transcript rows (absent: none) in the same statement.
 */
export interface EventWriterIo {
  append(
    events: OutgoingEvent[],
    status: Status | undefined,
    ids: string[],
    threads: NewThread[],
    transcript?: TranscriptRows,
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
 * A session's outgoing events (and its transcript rows), written in order and coalesced: what is written in one
 * turn of the event loop is one batch, and while a batch is being stored, everything written meanwhile waits
 * and goes in the next, so a burst of events is one statement and one NOTIFY instead of one each, and the turn
 * producing them never waits for the database.
 */
export interface EventWriter {
  /**
   * Queues `events` (and `status`, set on the session row with them; `threads`, created before them) after
   * everything queued before. Their ids are known at once; `stored` settles when their batch is written (a
   * failure is also reported by `flush`, so it may go unobserved).
   */
  write(events: OutgoingEvent[], status?: Status, threads?: NewThread[]): Written;
  /**
   * Queues transcript rows after everything queued before: they are stored with the next batch of events, in
   * its statement. Resolves when they are stored (a failure is also reported by `flush`).
   */
  record(rows: TranscriptRows): Promise<void>;
  /** Resolves when everything queued so far is stored; rejects with the first failure since the last flush. */
  flush(): Promise<void>;
  /**
   * Resolves when everything queued so far was written or failed; never rejects (a failure is left for
   * `flush`). For a read of what the turn has recorded so far.
   */
  settled(): Promise<void>;
}

interface Pending {
  events: OutgoingEvent[];
  ids: string[];
  status: Status | undefined;
  threads: NewThread[];
  transcript?: TranscriptRows;
  resolve(stored: SessionEvent[]): void;
  reject(error: unknown): void;
}

/** The status a batch sets: the last one written in it. Pure. */
export function batchStatus(batch: readonly { status: Status | undefined }[]): Status | undefined {
  return batch.findLast((p) => p.status !== undefined)?.status;
}

/** The transcript rows of a batch, in order, as one set of rows: each part hears the last seq stored. Pure. */
export function batchTranscript(
  batch: readonly { transcript?: TranscriptRows }[],
): TranscriptRows | undefined {
  const parts = batch.flatMap((p) => (p.transcript === undefined ? [] : [p.transcript]));
  if (parts.length === 0) return undefined;
  return {
    entries: parts.flatMap((p) => p.entries),
    stored(lastSeq) {
      for (const part of parts) part.stored(lastSeq);
    },
  };
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
          batchTranscript(batch),
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
  const enqueue = (item: Omit<Pending, "resolve" | "reject">): Promise<SessionEvent[]> => {
    const stored = new Promise<SessionEvent[]>((resolve, reject) => {
      pending.push({ ...item, resolve, reject });
    });
    stored.catch(() => {});
    // The first write after a quiet spell waits for the event loop's turn: what the turn writes meanwhile (its
    // transcript rows, the events of one model response) goes in the same statement.
    draining ??= new Promise<void>((resolve) => setImmediate(resolve)).then(drain);
    return stored;
  };
  return {
    write(events, status, threads = []) {
      const ids = events.map(() => io.newId());
      return { ids, stored: enqueue({ events, ids, status, threads }) };
    },
    async record(transcript) {
      await enqueue({ events: [], ids: [], status: undefined, threads: [], transcript });
    },
    async settled() {
      while (draining !== undefined) await draining;
    },
    async flush() {
      while (draining !== undefined) await draining;
      const failed = failure;
      failure = undefined;
      if (failed !== undefined) throw failed.error;
    },
  };
}
