import { findAnsweredWaits } from "../store/session-waits.js";
import { eventPages, findBusySessions, type SessionEvent } from "../store/sessions.js";
import type { Store } from "../store/store.js";
import { sessionError } from "./agent-event-map.js";
import { createDbTranscripts } from "./db-transcripts.js";
import { answeredWait, completeCalls, lastMainMessage, RESUME_PROMPT } from "./orphan-resume.js";
import type { ServedTurns } from "./served-turns.js";
import type { ServedSessionIo } from "./session-io.js";
import type { SessionQueues } from "./session-queues.js";
import type { TurnLocks } from "./turn-locks.js";
import { ABANDONED_TURN_TEXT, turnEnd } from "./turn-queue.js";

/** What taking over orphaned turns needs. */
export interface OrphanTakeoverOptions {
  store: Store;
  io: ServedSessionIo;
  locks: TurnLocks;
  turns: ServedTurns;
  queues: SessionQueues;
  /**
   * Has this instance work through the session's queue (its drain takes the session's turn lock first, so it
   * acts only where no live instance does); `resume`: the session may have a wait whose answers are all in.
   */
  kick(ws: string, sessionId: string, resume: boolean): void;
  /**
   * How often this instance sweeps the database for turns no live instance runs (one query each for answered
   * waits and for busy sessions); a sweep starts after the previous one ended. The first sweep runs at once.
   */
  sweepMs: number;
}

/** How one instance takes over turns that another instance (or this one's previous run) left behind. */
export interface OrphanTakeover {
  /**
   * Resumes the session's turn left waiting on the user once every answer it waited for is stored (the caller
   * holds the session's turn lock and runs no task of it). Does nothing when the turn does not wait so.
   */
  resumeAnswered(ws: string, sessionId: string): Promise<void>;
  /**
   * Ends the session's turn whose status is `running` while no instance runs it (the caller holds the
   * session's turn lock and runs no turn of it): its open spans end as errors, then a `session.error`
   * saying the server stopped, then `session.status_idle` (`retries_exhausted`).
   */
  closeAbandoned(ws: string, sessionId: string): Promise<void>;
  /**
   * Ends the session's turn left waiting on the user by a stopped instance (a `user.interrupt` or the archive
   * came instead of the answers): `session.status_idle` with `end_turn` (the caller holds the turn lock).
   */
  closeWait(ws: string, sessionId: string): Promise<void>;
  /** Stops sweeping. */
  close(): void;
}

/** Orphan takeover over `options`. */
export function createOrphanTakeover(options: OrphanTakeoverOptions): OrphanTakeover {
  const { store, io, locks, turns, queues } = options;

  /** The current turn's events (since the last turn-ending `session.status_idle`), in order. */
  const turnEvents = async (ws: string, sessionId: string) => {
    const events: SessionEvent[] = [];
    const after = await store.sessions.turnStartSeq(ws, sessionId);
    for await (const page of eventPages(store.sessions, ws, sessionId, after)) {
      for (const { event } of page) events.push(event);
    }
    return events;
  };

  /**
   * Resumes the turn another instance left waiting on the user, once every answer it waited for is stored:
   * only with the session's turn lock (the owner holds it while its turn runs or waits, and PostgreSQL frees
   * it when the owner dies), and only when the events, read after the lock is taken, still show the turn
   * waiting (a resumption elsewhere ends that), so exactly one instance resumes it. The answers complete the
   * transcript's dangling tool calls, then a turn goes on from them.
   */
  const resumeAnswered = async (ws: string, sessionId: string): Promise<void> => {
    if (!(await locks.tryHold(sessionId))) return;
    try {
      const calls = answeredWait(await turnEvents(ws, sessionId));
      if (calls === undefined) return;
      const session = await store.sessions.get(ws, sessionId);
      const transcripts = createDbTranscripts(store.db, session.id);
      const completed = completeCalls(lastMainMessage(await transcripts.read(session.id)), calls);
      if (completed === undefined) {
        await io.append(
          ws,
          session.id,
          [
            sessionError(
              "the turn waiting on these answers cannot be resumed: its transcript has no tool call",
            ),
            { type: "session.status_idle", stop_reason: { type: "retries_exhausted" }, stop_details: null },
          ],
          "idle",
        );
        return;
      }
      await transcripts.append(session.id, [
        { type: "message", message: completed.message, at: new Date().toISOString() },
      ]);
      await turns.run(ws, session, RESUME_PROMPT, { allowOnce: completed.allowOnce });
    } finally {
      await locks.release(sessionId);
    }
  };

  /**
   * Gives the model's calls that the stopped turn left without a result (its last message) a result saying
   * so, so the session's next request is a valid conversation.
   */
  const completeTranscript = async (sessionId: string): Promise<void> => {
    const transcripts = createDbTranscripts(store.db, sessionId);
    const completed = completeCalls(lastMainMessage(await transcripts.read(sessionId)), []);
    if (completed === undefined) return;
    await transcripts.append(sessionId, [
      { type: "message", message: completed.message, at: new Date().toISOString() },
    ]);
  };

  const closeAbandoned = async (ws: string, sessionId: string): Promise<void> => {
    await completeTranscript(sessionId);
    await io.append(ws, sessionId, turnEnd(await turnEvents(ws, sessionId), ABANDONED_TURN_TEXT), "idle");
  };

  const closeWait = async (ws: string, sessionId: string): Promise<void> => {
    await completeTranscript(sessionId);
    await io.append(
      ws,
      sessionId,
      [{ type: "session.status_idle", stop_reason: { type: "end_turn" }, stop_details: null }],
      "idle",
    );
  };

  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * One sweep: every answered wait and every busy session (running, or with queued messages) the database
   * shows, except sessions with a task here (this instance runs them), is kicked; a session whose owner is
   * alive fails its lock in the drain and is left to the owner. A failed query is tried again at the next
   * sweep.
   */
  const sweep = async (): Promise<void> => {
    const waits = await findAnsweredWaits(store.db).catch(() => []);
    const busy = await findBusySessions(store.db).catch(() => []);
    for (const { workspaceId, sessionId } of waits) {
      if (closed || queues.has(sessionId)) continue;
      options.kick(workspaceId, sessionId, true);
    }
    for (const { workspaceId, sessionId } of busy) {
      if (closed || queues.has(sessionId)) continue;
      options.kick(workspaceId, sessionId, false);
    }
  };
  const schedule = (ms: number): void => {
    if (closed) return;
    timer = setTimeout(() => {
      void sweep().finally(() => schedule(options.sweepMs));
    }, ms);
    timer.unref();
  };
  schedule(0);

  return {
    resumeAnswered,
    closeAbandoned,
    closeWait,
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
