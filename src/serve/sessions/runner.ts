import type { ModelClient } from "../../agent/model-client.js";
import type { EventSignals } from "../events/event-signals.js";
import type { SessionRunner } from "../session-runner.js";
import type { Store } from "../store/store.js";
import { checkUserAnswers } from "./confirmation-check.js";
import type { LiveCacheLimits } from "./live-cache.js";
import { createLiveSessions } from "./live-sessions.js";
import { createOrphanTakeover } from "./orphan-takeover.js";
import type { HostTools } from "./served-capabilities.js";
import { createServedTurns } from "./served-turns.js";
import { createServedSessionIo } from "./session-io.js";
import { createSessionQueues } from "./session-queues.js";
import { createLocalTurnLocks, type TurnLocks } from "./turn-locks.js";
import { checkUserEvents, userText } from "./user-events.js";

/** What the runner needs: the store, the model, and whether sessions may touch the host. */
export interface SessionRunnerOptions {
  store: Store;
  /** The model client; absent: every turn ends with a `session.error` saying no API key is set. */
  client?: ModelClient;
  /**
   * `serve --host-tools`: sessions get the built-in file and shell tools, in `cwd` (with `home`'s user
   * settings). Absent (the default): no host file system at all; skills come from the store only.
   */
  hostTools?: HostTools;
  /**
   * Wakes streams when events are appended. Absent: streams poll every `FOLLOW_INTERVAL_MS`; present, they
   * wait on it, polling every `followIntervalMs` as a fallback.
   */
  signals?: EventSignals;
  /**
   * The PostgreSQL channel that tells the other instances a session has new events: every append NOTIFYs it
   * in the same statement. Absent (PGlite, one instance): no NOTIFY.
   */
  notifyChannel?: string;
  /** The fallback poll interval when `signals` is given. Default 1000 ms. */
  followIntervalMs?: number;
  /**
   * `serve --mcp-allow-host`: hosts an agent's MCP servers may be on even when they resolve to a loopback,
   * private or link-local address (refused by default).
   */
  mcpAllowHosts?: readonly string[];
  /**
   * How many served sessions stay open between turns on this instance, and for how long unused (default
   * {@link LIVE_SESSION_LIMITS}); `max: 0` reopens every turn from the database.
   */
  liveSessions?: LiveCacheLimits;
  /**
   * Who owns a waiting turn (`openPgTurnLocks` on a shared PostgreSQL); default {@link createLocalTurnLocks}
   * (one process owns the database).
   */
  turnLocks?: TurnLocks;
  /**
   * How often this instance sweeps the database for turns left waiting on answers that are all stored, whose
   * owner (the instance holding the turn lock) is gone, to resume them (default {@link ORPHAN_SWEEP_MS}).
   */
  orphanSweepMs?: number;
}

/** How often each instance sweeps for answered waits whose owner is gone: every 2 seconds (one query). */
export const ORPHAN_SWEEP_MS = 2000;

/** Open sessions kept between turns by default: 256 per instance, each for 5 minutes unused. */
export const LIVE_SESSION_LIMITS: LiveCacheLimits = { max: 256, idleMs: 5 * 60_000 };

/**
 * The engine behind `serve`'s events routes: user events are appended to the store; each `user.message` runs
 * one engine turn (one at a time per session on this instance) over the agent's store skills, model, system
 * prompt and custom tools, and every event the turn emits is appended (in coalesced batches, one NOTIFY each)
 * before any stream sees it (streams read the store, so any instance on the same database serves them). The
 * conversation itself is kept in the database too, so a session continues on whichever instance gets its next
 * message. Between turns the session stays open on this instance (bounded, see `liveSessions`); a turn reuses
 * it unless the transcript moved on elsewhere or the agent changed, and tells its skill source the current
 * `latest` versions (one query for both). `user.interrupt` stops this instance's turn of that session.
 */
export function createSessionRunner(options: SessionRunnerOptions): SessionRunner & {
  /** Closes the sessions kept open. */
  close(): Promise<void>;
  /** How many sessions are kept open between turns now. */
  liveCount(): number;
} {
  const { store } = options;
  const locks = options.turnLocks ?? createLocalTurnLocks();
  const io = createServedSessionIo(options);
  const queues = createSessionQueues((error) => console.error(error));
  const lives = createLiveSessions({
    store,
    io,
    locks,
    limits: options.liveSessions ?? LIVE_SESSION_LIMITS,
    ...(options.hostTools === undefined ? {} : { hostTools: options.hostTools }),
    mcpAllowHosts: options.mcpAllowHosts ?? [],
  });
  const turns = createServedTurns({
    io,
    lives,
    ...(options.client === undefined ? {} : { client: options.client }),
  });
  const orphans = createOrphanTakeover({
    store,
    io,
    locks,
    turns,
    queues,
    sweepMs: options.orphanSweepMs ?? ORPHAN_SWEEP_MS,
  });

  return {
    async send(ws, session, events) {
      checkUserEvents(events);
      await checkUserAnswers(store.sessions, ws, session.id, events);
      // A lone user.message to a session with no turn here starts one at once: its running status goes in the
      // same statement.
      const startsNow = events.length === 1 && events[0]?.type === "user.message" && !queues.has(session.id);
      const stored = startsNow
        ? (await io.append(ws, session.id, [...events, { type: "session.status_running" }], "running")).slice(
            0,
            1,
          )
        : await io.append(ws, session.id, events);
      if (startsNow) turns.announced(session.id);
      // An answer to a turn this instance does not run: its owner may be gone (see OrphanTakeover).
      const answers = events.some(
        (e) => e.type === "user.custom_tool_result" || e.type === "user.tool_confirmation",
      );
      if (answers && !queues.has(session.id)) orphans.answered(ws, session);
      for (const event of events) {
        if (event.type === "user.interrupt") turns.interrupt(session.id);
        if (event.type === "user.message")
          queues.enqueue(session.id, () => turns.run(ws, session, userText(event)));
      }
      return stored;
    },
    subscribe: (ws, id, signal) => io.follow(ws, id, signal),
    async forget(_ws, sessionId) {
      turns.forget(sessionId);
      await lives.drop(sessionId);
    },
    close: () => {
      orphans.close();
      return lives.closeAll();
    },
    liveCount: () => lives.size(),
  };
}
