import type { BetaManagedAgentsSession } from "@anthropic-ai/sdk/resources/beta/sessions/sessions";
import type { ModelClient } from "../../agent/model-client.js";
import type { FsOps } from "../../io/fs.js";
import type { DefinedOutcome } from "../../outcome/outcome-prompts.js";
import type { SandboxLimits } from "../../sandbox/sandbox-limits.js";
import type { Telemetry } from "../../telemetry/telemetry.js";
import type { EventSignals } from "../events/event-signals.js";
import type { SessionRunner } from "../session-runner.js";
import { isTurnInput, type SessionEvent } from "../store/sessions.js";
import type { Store } from "../store/store.js";
import type { OutEvent } from "./agent-event-map.js";
import { checkUserAnswers } from "./confirmation-check.js";
import type { AfterAppend } from "./crash-fault.js";
import type { LiveCacheLimits } from "./live-cache.js";
import { createLiveSessions } from "./live-sessions.js";
import { createOrphanTakeover } from "./orphan-takeover.js";
import { acceptOutcome, outcomeOf } from "./outcome.js";
import type { HostTools, OsTierHost } from "./served-capabilities.js";
import type { ServeSandboxTier } from "./served-sandbox-tier.js";
import { createServedTurns, sessionGone } from "./served-turns.js";
import { createServedSessionIo } from "./session-io.js";
import { createSessionQueues } from "./session-queues.js";
import { createLocalTurnLocks, type TurnLocks } from "./turn-locks.js";
import { droppedMessageError, MAX_QUEUED_MESSAGES, queueStep } from "./turn-queue.js";
import { checkUserEvents, type UserEvent, userText } from "./user-events.js";

/** What the runner needs: the store, the model, and whether sessions may touch the host. */
export interface SessionRunnerOptions {
  store: Store;
  /** The model client; absent: every turn ends with a `session.error` saying no API key is set. */
  client?: ModelClient;
  /** Where each served turn's spans and counters go (`SKILLWRIGHT_ENABLE_TELEMETRY=1`); absent: nowhere. */
  telemetry?: Telemetry;
  /**
   * `serve --host-tools`: sessions get the built-in file and shell tools, in `cwd` (with `home`'s user
   * settings). Absent (the default): no host file system at all; skills come from the store only.
   */
  hostTools?: HostTools;
  /** Where sessions without `hostTools` run code: `serve --sandbox` (default `simulated`). */
  sandbox?: ServeSandboxTier;
  /** What `sandbox: "os"` uses of the host (required with it). */
  sandboxOs?: OsTierHost;
  /** Why `sandbox: "none"` runs nothing when it stands in for a tier not installed (`ServedSandboxChoice`). */
  sandboxNoShellReason?: string;
  /** The simulated tier's limits in place of its defaults (tests set its per-command deadline). */
  sandboxLimits?: Partial<SandboxLimits>;
  /**
   * `serve --sandbox-allow-host`: hosts sessions' sandboxed commands may reach even on a loopback, private or
   * link-local address (refused by default, whatever the environment's networking says).
   */
  sandboxAllowHosts?: readonly string[];
  /**
   * The file system sessions see without `hostTools` (default each session's own, over its mounts). The session
   * machinery itself reads no file: skills, rules and agent types come from the store.
   */
  fs?: FsOps;
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
  /**
   * This instance's tag in its NOTIFY payloads: the announcements of its own appends, which its streams took
   * already, are skipped by its listener (the caller's `listenForEvents`). Absent: no tag.
   */
  origin?: string;
  /** The fallback poll interval when `signals` is given. Default 1000 ms. */
  followIntervalMs?: number;
  /**
   * `serve --mcp-allow-host`: hosts an agent's MCP servers may be on even when they resolve to a loopback,
   * private or link-local address (refused by default).
   */
  mcpAllowHosts?: readonly string[];
  /** How long one served Grep or Glob call may run. Default `TOOL_DEADLINE_MS` (10 s); longer only for tests. */
  toolDeadlineMs?: number;
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
  /**
   * The PostgreSQL channel a `user.interrupt`, an archive or a delete is announced on (`pg_notify`), so that
   * the instance running the session's turn stops it (it calls {@link SessionRunner}'s `interrupted`). Absent
   * (PGlite, one instance): none.
   */
  interruptChannel?: string;
  /** What a failure no request or event can tell goes to (default `console.error`). */
  report?: (error: unknown) => void;
  /**
   * Hears each batch of session events once it is stored (`serve` sets it only for a crash test's fault,
   * `SKILLWRIGHT_CRASH_AFTER_EVENT`, crash-fault.ts); absent: nothing.
   */
  afterAppend?: AfterAppend;
}

/** The turn option of a taken `user.define_outcome` (its write–grade–revise loop); none for a message. Pure. */
function outcomeOption(event: Record<string, unknown>): { outcome?: DefinedOutcome } {
  const outcome = outcomeOf(event);
  return outcome === undefined ? {} : { outcome };
}

/** How often each instance sweeps for turns no live instance runs: every 2 seconds (two indexed queries). */
export const ORPHAN_SWEEP_MS = 2000;

/** Open sessions kept between turns by default: 256 per instance, each for 5 minutes unused. */
export const LIVE_SESSION_LIMITS: LiveCacheLimits = { max: 256, idleMs: 5 * 60_000 };

/** How long a shutdown waits for running turns to end by themselves before it stops them: 10 seconds. */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * How long a shutdown waits for the turns it stopped to store their last events (a bound on a stuck write, not
 * a grace: a stopped turn ends as soon as its writes are stored): 10 seconds, whatever the grace was.
 */
export const STOPPED_TURNS_END_MS = 10_000;

/** Resolves after `ms` (a bound on a shutdown step, not a wait for work). */
function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * The engine behind `serve`'s events routes. User events are appended to the store, and the session's queue
 * lives there too: each `user.message` waits (at most {@link MAX_QUEUED_MESSAGES}) until the instance holding
 * the session's turn lock takes it and runs one engine turn over the agent's store skills, model, system
 * prompt and custom tools; every event the turn emits is appended (in coalesced batches, one NOTIFY each)
 * before any stream sees it (streams read the store, so any instance on the same database serves them). The
 * conversation itself is kept in the database too, so a session continues on whichever instance gets its
 * next message, and what a stopped instance left is picked up by a live one: a turn left `running` is ended
 * with a `session.error`, its queued messages run. Between turns the session stays open on this instance
 * (bounded, see `liveSessions`). `user.interrupt` stops this instance's turn of that session and drops the
 * messages queued before it (each told by a `session.error`); archiving does that and drops every queued
 * message.
 */
export function createSessionRunner(options: SessionRunnerOptions): SessionRunner & {
  /** Stops sweeping and closes the sessions kept open (running turns are left as they are). */
  close(): Promise<void>;
  /**
   * Stops for good: no new turn starts; running turns get `graceMs` to end, then are stopped (each ends with
   * a `session.error` and `session.status_idle`, stored within {@link STOPPED_TURNS_END_MS} whatever `graceMs`
   * is; a turn waiting on the user is left waiting, to be resumed by the next instance); open streams then read
   * what is left and end.
   */
  shutdown(graceMs?: number): Promise<void>;
  /** How many sessions are kept open between turns now. */
  liveCount(): number;
  /** Resolves when this instance runs no task of any session (turns, drains of queues). */
  settled(): Promise<void>;
  /**
   * Another instance announced a `user.interrupt` (or an archive, a delete) of a session (`announced`: its id,
   * then the interrupt's `processed_at`, space-separated): its turn here stops unless it started after that.
   */
  interrupted(announced: string): void;
} {
  const { store } = options;
  const report = options.report ?? ((error: unknown) => console.error(error));
  const locks = options.turnLocks ?? createLocalTurnLocks();
  const io = createServedSessionIo(options);
  let stopping = false;
  const queues = createSessionQueues((error) => {
    if (!stopping && !sessionGone(error)) report(error);
  });
  const lives = createLiveSessions({
    store,
    io,
    locks,
    limits: options.liveSessions ?? LIVE_SESSION_LIMITS,
    sandbox: {
      hostTools: options.hostTools,
      tier: options.sandbox,
      limits: options.sandboxLimits,
      os: options.sandboxOs,
      ...(options.sandboxNoShellReason === undefined ? {} : { noShellReason: options.sandboxNoShellReason }),
    },
    sandboxAllowHosts: options.sandboxAllowHosts ?? [],
    ...(options.fs === undefined ? {} : { fs: options.fs }),
    mcpAllowHosts: options.mcpAllowHosts ?? [],
    toolDeadlineMs: options.toolDeadlineMs,
    ...(options.telemetry === undefined ? {} : { telemetry: options.telemetry }),
  });
  const turns = createServedTurns({
    io,
    lives,
    ...(options.client === undefined ? {} : { client: options.client }),
  });
  // Sessions whose drain should first try to resume a wait whose answers are all in.
  const resumes = new Set<string>();
  // Ends open streams once a shutdown has written everything: each reads to the end, then stops.
  const finishStreams = new AbortController();

  /**
   * Works through the session's queue while this instance holds its turn lock: a turn left running by a
   * stopped instance is ended, an answered wait resumed; then the messages before the last interrupt are
   * dropped (each told) and the next one's turn runs, until none is left.
   */
  const drainHeld = async (ws: string, sessionId: string): Promise<void> => {
    for (;;) {
      if (stopping) return;
      if (resumes.delete(sessionId)) await orphans.resumeAnswered(ws, sessionId);
      const queue = await store.sessions.queuedInputs(ws, sessionId);
      // This instance holds the lock and runs no turn of the session: a running status is a stopped owner's.
      if (queue.status === "running") await orphans.closeAbandoned(ws, sessionId);
      const step = queueStep(queue.inputs, queue.archived);
      // An interrupt (or the archive) ends a wait no instance runs any more.
      if (queue.waiting && (step.interrupted || queue.archived)) await orphans.closeWait(ws, sessionId);
      const drops: OutEvent[] = step.drop.map((d) =>
        droppedMessageError(d.input.event.id, d.cause, d.input.event.type),
      );
      const take = { upTo: step.upTo, messages: step.drop.length + (step.take === undefined ? 0 : 1) };
      if (step.take === undefined) {
        if (step.upTo > 0 || drops.length > 0)
          await io.append(ws, sessionId, drops, drops.length > 0 ? "idle" : undefined, undefined, { take });
        return;
      }
      const session = await store.sessions.get(ws, sessionId);
      const started = await io.append(
        ws,
        sessionId,
        [...drops, { type: "session.status_running" }],
        "running",
        undefined,
        { take },
      );
      const startedAt = started.at(-1)?.processed_at;
      await turns.run(ws, session, userText(step.take.event), {
        announced: true,
        ...(startedAt === undefined ? {} : { startedAt }),
        ...outcomeOption(step.take.event),
      });
    }
  };

  /**
   * The session's drain on this instance: only with its turn lock (a live holder elsewhere drains it itself);
   * after letting the lock go it looks once more, so work sent while the lock was held here is never left.
   */
  const drain = async (ws: string, sessionId: string): Promise<void> => {
    for (;;) {
      if (stopping || !(await locks.tryHold(sessionId))) return;
      try {
        await drainHeld(ws, sessionId);
      } finally {
        await locks.release(sessionId);
      }
      // Alone on the database, a send made while the lock was held kicked the queue: it runs once more anyway.
      if (stopping || locks.exclusive) return;
      const queue = await store.sessions.queuedInputs(ws, sessionId);
      const step = queueStep(queue.inputs, queue.archived);
      if (step.take === undefined && step.upTo === 0 && queue.status !== "running") return;
    }
  };
  /** Tells the other instances (their turn of the session stops); a failure leaves their turn to end by itself. */
  const announceInterrupt = async (sessionId: string, sentAt?: string): Promise<void> => {
    const channel = options.interruptChannel;
    if (channel === undefined) return;
    const payload = sentAt === undefined ? sessionId : `${sessionId} ${sentAt}`;
    await store.db.query("SELECT pg_notify($1, $2)", [channel, payload]).catch(() => {});
  };
  const kick = (ws: string, sessionId: string, resume: boolean): void => {
    if (resume) resumes.add(sessionId);
    queues.kick(sessionId, () => drain(ws, sessionId));
  };
  /**
   * A lone `user.message` to a session with no task here: its turn starts at once when nothing else waits or
   * runs on the session, its running status stored in the same statement as the message (one statement
   * less); otherwise the message is queued like any other. The session's task here is claimed before the
   * first await, so no sweep or other send slips in between.
   */
  const startTurn = async (
    ws: string,
    session: BetaManagedAgentsSession,
    message: UserEvent,
  ): Promise<SessionEvent[]> => {
    let settle: (started: boolean) => void = () => {};
    const decided = new Promise<boolean>((resolve) => {
      settle = resolve;
    });
    let startedAt: string | undefined;
    queues.kick(session.id, async () => {
      const ran = await decided;
      if (ran) {
        try {
          await turns.run(ws, session, userText(message), {
            announced: true,
            ...(startedAt === undefined ? {} : { startedAt }),
            ...outcomeOption(message),
          });
        } finally {
          await locks.release(session.id);
        }
      }
      // Alone on the database, every send during the turn kicked the queue itself (its drain runs next): a
      // turn that ran leaves nothing else to look for.
      if (!ran || !locks.exclusive) await drain(ws, session.id);
    });
    let started = false;
    try {
      if (await locks.tryHold(session.id)) {
        const running = [message, { type: "session.status_running" }];
        const stored = await io
          .append(ws, session.id, running, "running", undefined, { startsTurn: true })
          .catch(async (error: unknown) => {
            await locks.release(session.id);
            throw error;
          });
        if (stored.length > 0) {
          started = true;
          startedAt = stored[1]?.processed_at;
          return stored.slice(0, 1);
        }
        await locks.release(session.id);
      }
      return await io.append(ws, session.id, [message], undefined, undefined, {
        maxQueued: MAX_QUEUED_MESSAGES,
      });
    } finally {
      settle(started);
    }
  };
  const orphans = createOrphanTakeover({
    store,
    io,
    locks,
    turns,
    queues,
    kick,
    sweepMs: options.orphanSweepMs ?? ORPHAN_SWEEP_MS,
  });

  return {
    async send(ws, session, sent) {
      checkUserEvents(sent);
      await checkUserAnswers(store.sessions, ws, session.id, sent);
      // Each user.define_outcome gets its outc_ id (and its max_iterations) before it is stored.
      const events = sent.map(acceptOutcome);
      const [only] = events;
      if (
        events.length === 1 &&
        only !== undefined &&
        isTurnInput(only.type) &&
        !stopping &&
        !queues.has(session.id)
      )
        return startTurn(ws, session, only);
      const stored = await io.append(ws, session.id, events, undefined, undefined, {
        maxQueued: MAX_QUEUED_MESSAGES,
      });
      const interrupt = stored.find((e) => e.type === "user.interrupt");
      if (interrupt !== undefined) {
        turns.stop(session.id, "interrupt", interrupt.processed_at);
        await announceInterrupt(session.id, interrupt.processed_at);
      }
      // An answer to a turn this instance does not run: its owner may be gone (see OrphanTakeover).
      const answers = events.some(
        (e) => e.type === "user.custom_tool_result" || e.type === "user.tool_confirmation",
      );
      const resume = answers && !queues.has(session.id);
      const queued = events.some((e) => isTurnInput(e.type) || e.type === "user.interrupt");
      if (resume || queued) kick(ws, session.id, resume);
      return stored;
    },
    subscribe: (ws, id, signal) => io.follow(ws, id, signal, finishStreams.signal),
    async forget(ws, sessionId) {
      turns.stop(sessionId, "forget");
      await announceInterrupt(sessionId);
      await lives.drop(sessionId);
      kick(ws, sessionId, false);
    },
    close: () => {
      stopping = true;
      orphans.close();
      return lives.closeAll();
    },
    async shutdown(graceMs = SHUTDOWN_GRACE_MS) {
      stopping = true;
      orphans.close();
      await Promise.race([turns.quiet(), delay(graceMs)]);
      turns.stopAll("shutdown");
      await Promise.race([turns.quiet(), delay(STOPPED_TURNS_END_MS)]);
      finishStreams.abort();
      await lives.closeAll();
    },
    liveCount: () => lives.size(),
    settled: () => queues.idle(),
    interrupted(announced) {
      const [sessionId = "", sentAt] = announced.split(" ");
      turns.stop(sessionId, "interrupt", sentAt);
    },
  };
}
