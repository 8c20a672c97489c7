import type { BetaManagedAgentsSession } from "@anthropic-ai/sdk/resources/beta/sessions/sessions";
import { findAnsweredWaits } from "../store/session-waits.js";
import { eventPages, type SessionEvent } from "../store/sessions.js";
import type { Store } from "../store/store.js";
import { sessionError } from "./agent-event-map.js";
import { createDbTranscripts } from "./db-transcripts.js";
import { answeredWait, completeCalls, lastMainMessage, RESUME_PROMPT } from "./orphan-resume.js";
import type { ServedTurns } from "./served-turns.js";
import type { ServedSessionIo } from "./session-io.js";
import type { SessionQueues } from "./session-queues.js";
import type { TurnLocks } from "./turn-locks.js";

/** What taking over orphaned turns needs. */
export interface OrphanTakeoverOptions {
  store: Store;
  io: ServedSessionIo;
  locks: TurnLocks;
  turns: ServedTurns;
  queues: SessionQueues;
  /**
   * How often this instance sweeps the database for answered waits whose owner is gone (one query each
   * time); a sweep starts after the previous one ended.
   */
  sweepMs: number;
}

/** How one instance takes over turns that another instance left waiting on the user. */
export interface OrphanTakeover {
  /**
   * The session got an answer (`user.custom_tool_result` / `user.tool_confirmation`) while no task of it
   * runs here: resumes the turn it answers at once if its owner is gone (queued after the session's tasks
   * here). If the owner holds its lock, the sweeps take over should it die before reading the answer.
   */
  answered(ws: string, session: BetaManagedAgentsSession): void;
  /** Stops sweeping. */
  close(): void;
}

/** Orphan takeover over `options`. */
export function createOrphanTakeover(options: OrphanTakeoverOptions): OrphanTakeover {
  const { store, io, locks, turns, queues } = options;

  /** The calls the session's current turn waits on, when every one of them is answered (see answeredWait). */
  const answeredCalls = async (ws: string, sessionId: string) => {
    const events: SessionEvent[] = [];
    const after = await store.sessions.turnStartSeq(ws, sessionId);
    for await (const page of eventPages(store.sessions, ws, sessionId, after)) {
      for (const { event } of page) events.push(event);
    }
    return answeredWait(events);
  };

  /**
   * Resumes the turn another instance left waiting on the user, once every answer it waited for is stored:
   * only with the session's turn lock (the owner holds it while it waits, and PostgreSQL frees it when the
   * owner dies), and only when the events, read after the lock is taken, still show the turn waiting (a
   * resumption elsewhere ends that), so exactly one instance resumes it. The answers complete the
   * transcript's dangling tool calls, then a turn goes on from them. `session` is read (under the lock) when
   * not given.
   */
  const resumeWaiting = async (
    ws: string,
    sessionId: string,
    known?: BetaManagedAgentsSession,
  ): Promise<void> => {
    if (!(await locks.tryHold(sessionId))) return;
    try {
      const calls = await answeredCalls(ws, sessionId);
      if (calls === undefined) return;
      const session = known ?? (await store.sessions.get(ws, sessionId));
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
      await turns.run(ws, session, RESUME_PROMPT, completed.allowOnce);
    } finally {
      await locks.release(sessionId);
    }
  };

  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * One sweep: every answered wait the database shows (one query), except sessions with a task here (this
   * instance owns or is resuming them), is queued for {@link resumeWaiting}; a wait whose owner is alive
   * fails its lock and is left to the owner. A failed query is tried again at the next sweep.
   */
  const sweep = async (): Promise<void> => {
    const waits = await findAnsweredWaits(store.db).catch(() => []);
    for (const { workspaceId, sessionId } of waits) {
      if (closed || queues.has(sessionId)) continue;
      queues.enqueue(sessionId, () => resumeWaiting(workspaceId, sessionId));
    }
  };
  const schedule = (): void => {
    if (closed) return;
    timer = setTimeout(() => {
      void sweep().finally(schedule);
    }, options.sweepMs);
    timer.unref();
  };
  schedule();

  return {
    answered: (ws, session) => queues.enqueue(session.id, () => resumeWaiting(ws, session.id, session)),
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
