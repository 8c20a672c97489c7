import type { BetaManagedAgentsSession } from "@anthropic-ai/sdk/resources/beta/sessions/sessions";
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
  /** How often an answered wait whose owner holds its turn lock is checked again. */
  checkMs: number;
}

/** How one instance takes over turns that another instance left waiting on the user. */
export interface OrphanTakeover {
  /**
   * The session got an answer (`user.custom_tool_result` / `user.tool_confirmation`) while no task of it
   * runs here: resumes the turn it answers if its owner is gone (queued after the session's tasks here).
   */
  answered(ws: string, session: BetaManagedAgentsSession): void;
  /** Stops watching. */
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
   * owner dies), and only when the events still show the turn waiting (a resumption elsewhere ends that), so
   * exactly one instance resumes it. The answers complete the transcript's dangling tool calls, then a turn
   * goes on from them. Resolves `locked` when another instance holds the lock.
   */
  const resumeWaiting = async (ws: string, session: BetaManagedAgentsSession): Promise<"locked" | "done"> => {
    if (!(await locks.tryHold(session.id))) return "locked";
    try {
      const calls = await answeredCalls(ws, session.id);
      if (calls === undefined) return "done";
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
        return "done";
      }
      await transcripts.append(session.id, [
        { type: "message", message: completed.message, at: new Date().toISOString() },
      ]);
      await turns.run(ws, session, RESUME_PROMPT, completed.allowOnce);
      return "done";
    } finally {
      await locks.release(session.id);
    }
  };

  // Sessions whose answered wait this instance watches (their owner held the lock), and the timers doing it.
  const watched = new Map<string, ReturnType<typeof setTimeout>>();
  let closed = false;

  /**
   * Resumes the waiting turn (see resumeWaiting); when its owner holds the lock, it reads the answer itself,
   * unless it dies first: then, for as long as the events show every call of the wait answered, this instance
   * tries again every `checkMs` (the lock still makes one instance resume it, once). Stops when the turn goes
   * on (or waits on more), when a task of the session runs here, and when the takeover closes.
   */
  const resumeOrWatch = async (ws: string, session: BetaManagedAgentsSession): Promise<void> => {
    if ((await resumeWaiting(ws, session)) === "done") return;
    if (closed || watched.has(session.id) || (await answeredCalls(ws, session.id)) === undefined) return;
    const timer = setTimeout(() => {
      watched.delete(session.id);
      if (closed || queues.has(session.id)) return;
      queues.enqueue(session.id, () => resumeOrWatch(ws, session));
    }, options.checkMs);
    timer.unref();
    watched.set(session.id, timer);
  };

  return {
    answered: (ws, session) => queues.enqueue(session.id, () => resumeOrWatch(ws, session)),
    close() {
      closed = true;
      for (const timer of watched.values()) clearTimeout(timer);
      watched.clear();
    },
  };
}
