import type { BetaManagedAgentsSession } from "@anthropic-ai/sdk/resources/beta/sessions/sessions";
import type { ModelClient } from "../../agent/model-client.js";
import { createEngine, type Engine } from "../../engine/engine.js";
import { createMemoryFs } from "../../io/memory-fs.js";
import { openSession } from "../../session/open.js";
import type { SessionStore as TranscriptStore } from "../../session/session-store.js";
import type { Session } from "../../session/session-types.js";
import { invalid } from "../errors.js";
import type { EventSignals } from "../events/event-signals.js";
import { followEvents } from "../events/follow-events.js";
import type { SessionRunner } from "../session-runner.js";
import { eventPages, newEventId, type SessionEvent } from "../store/sessions.js";
import type { Store } from "../store/store.js";
import { type EventMapState, type OutEvent, sessionError, sessionEventsFor } from "./agent-event-map.js";
import { type AgentMcp, connectAgentMcp } from "./agent-mcp.js";
import { createUserWaits } from "./await-action.js";
import { checkToolConfirmations } from "./confirmation-check.js";
import { createCustomTool } from "./custom-tool.js";
import { createDbTranscripts, type DbTranscripts } from "./db-transcripts.js";
import { createEventWriter, type EventWriter } from "./event-writer.js";
import { createHeldToolUses } from "./held-tool-uses.js";
import { createLiveCache, type LiveCacheLimits } from "./live-cache.js";
import { answeredWait, completeCalls, lastMainMessage, RESUME_PROMPT } from "./orphan-resume.js";
import {
  createSkillVersionCache,
  createStoreSkillSource,
  type StoreSkillSource,
} from "./store-skill-source.js";
import { createToolConfirmation, hostServedTools, type ToolConfirmation } from "./tool-confirmation.js";
import { checkTurn, latestSkillIds } from "./turn-check.js";
import { createLocalTurnLocks, type TurnLocks } from "./turn-locks.js";

/** The user events a session takes (`POST /v1/sessions/{id}/events`). */
export const USER_EVENT_TYPES = [
  "user.message",
  "user.interrupt",
  "user.custom_tool_result",
  "user.tool_confirmation",
] as const;

/** What the runner needs: the store, the model, and whether sessions may touch the host. */
export interface SessionRunnerOptions {
  store: Store;
  /** The model client; absent: every turn ends with a `session.error` saying no API key is set. */
  client?: ModelClient;
  /**
   * `serve --host-tools`: sessions get the built-in file and shell tools, in `cwd` (with `home`'s user
   * settings). Absent (the default): no host file system at all; skills come from the store only.
   */
  hostTools?: { cwd: string; home: string };
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
   * How often an instance that got the answer to a turn whose owner still held its lock checks again whether
   * the owner died before reading it (default {@link ORPHAN_CHECK_MS}).
   */
  orphanCheckMs?: number;
}

/** How often an answered wait whose owner holds its turn lock is checked again: every second. */
export const ORPHAN_CHECK_MS = 1000;

/** Open sessions kept between turns by default: 256 per instance, each for 5 minutes unused. */
export const LIVE_SESSION_LIMITS: LiveCacheLimits = { max: 256, idleMs: 5 * 60_000 };

/**
 * A served session open on this instance between its turns: its engine (over the agent's store skills), the
 * engine session holding the conversation, and what a turn checks before reusing them.
 */
interface LiveSession {
  /** The agent snapshot the session was opened with (a different one reopens it). */
  agentKey: string;
  engine: Engine;
  session: Session;
  source: StoreSkillSource;
  transcripts: DbTranscripts;
  /** Names of the agent's custom tools. */
  customTools: ReadonlySet<string>;
  /** The agent's MCP servers, connected when the session was opened (closed with it). */
  mcp: AgentMcp;
  /** The tool policies of the agent's toolsets and the waits on `user.tool_confirmation`. */
  confirm: ToolConfirmation;
  /**
   * The current turn's writer (custom tools and compaction notices write through it), and where its tool
   * confirmations tell that the engine asks about a call.
   */
  io: TurnIo;
}

/** A live session's agent snapshot and last transcript entry, as kept and as the database has them now. */
export interface LiveMark {
  agentKey: string;
  transcriptSeq: number;
}

/** Whether a live session may run the next turn: same agent, and no transcript entry written elsewhere. Pure. */
export function liveIsCurrent(kept: LiveMark, now: LiveMark): boolean {
  return kept.agentKey === now.agentKey && kept.transcriptSeq === now.transcriptSeq;
}

/** What a live session's callbacks reach of the turn running now. */
interface TurnIo {
  writer?: EventWriter;
  asked?: (callId: string) => void;
}

type UserEvent = { type: string } & Record<string, unknown>;

/** The text of a `user.message`'s content blocks. Pure. */
export function userText(event: UserEvent): string {
  const content = event.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .flatMap((b: unknown) => {
      if (typeof b !== "object" || b === null) return [];
      const block: Record<string, unknown> = { ...b };
      return block.type === "text" && typeof block.text === "string" ? [block.text] : [];
    })
    .join("\n");
}

/** Refuses (400) events the session does not take, or that lack their required fields. Pure. */
export function checkUserEvents(events: readonly UserEvent[]): void {
  for (const [i, event] of events.entries()) {
    if (!(USER_EVENT_TYPES as readonly string[]).includes(event.type)) {
      throw invalid(
        `events[${i}].type: expected one of ${USER_EVENT_TYPES.join(", ")}, got ${JSON.stringify(event.type)}`,
      );
    }
    if (event.type === "user.message" && !Array.isArray(event.content)) {
      throw invalid(`events[${i}].content: expected an array of content blocks`);
    }
    if (event.type === "user.custom_tool_result" && typeof event.custom_tool_use_id !== "string") {
      throw invalid(`events[${i}].custom_tool_use_id: expected a string`);
    }
    if (
      event.type === "user.tool_confirmation" &&
      (typeof event.tool_use_id !== "string" || (event.result !== "allow" && event.result !== "deny"))
    ) {
      throw invalid(`events[${i}]: a tool confirmation needs tool_use_id and result "allow" or "deny"`);
    }
  }
}

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
  const queues = new Map<string, Promise<void>>();
  const appendEvents = async (
    ws: string,
    sessionId: string,
    events: readonly UserEvent[],
    status?: BetaManagedAgentsSession["status"],
    ids?: readonly string[],
  ): Promise<SessionEvent[]> => {
    const stored = await store.sessions.appendEvents(ws, sessionId, events, {
      ...(status === undefined ? {} : { status }),
      ...(ids === undefined ? {} : { eventIds: ids }),
      ...(options.notifyChannel === undefined ? {} : { notify: options.notifyChannel }),
    });
    options.signals?.notify(sessionId);
    return stored;
  };
  const follow = (ws: string, sessionId: string, signal: AbortSignal) => {
    const signals = options.signals;
    return signals === undefined
      ? followEvents(store.sessions, ws, sessionId, signal)
      : followEvents(
          store.sessions,
          ws,
          sessionId,
          signal,
          () => signals.arm(sessionId),
          options.followIntervalMs ?? 1000,
        );
  };
  const running = new Map<string, AbortController>();
  // Parsed skill versions, shared by every turn and session of this runner (versions are immutable).
  const skillCache = createSkillVersionCache();
  const closeLive = async (live: LiveSession): Promise<void> => {
    try {
      await live.session.close();
    } finally {
      await live.engine.close();
      await live.mcp.close();
    }
  };
  const lives = createLiveCache<LiveSession>(options.liveSessions ?? LIVE_SESSION_LIMITS, closeLive);
  // Sessions whose next turn's `session.status_running` was stored with the user.message that started it.
  const announced = new Set<string>();
  // Sessions deleted or archived while a turn of theirs runs: closed after it instead of kept.
  const forgotten = new Set<string>();

  /** Opens the session on a new engine: every engine and session option of a served session is here. */
  const openLive = async (
    ws: string,
    session: BetaManagedAgentsSession,
    client: ModelClient,
    agentKey: string,
    resume: boolean,
    writer: EventWriter,
  ): Promise<LiveSession> => {
    const agent = session.agent;
    const source = createStoreSkillSource({
      db: store.db,
      skills: store.skills,
      workspaceId: ws,
      refs: agent.skills,
      cache: skillCache,
    });
    const host = options.hostTools;
    const engine = createEngine({
      cwd: host?.cwd ?? "/workspace",
      home: host?.home ?? "/home",
      ...(host === undefined ? { fs: createMemoryFs() } : {}),
      sources: [source],
      startMcp: false,
    });
    const io: TurnIo = { writer };
    const write = (
      events: OutEvent[],
      status?: BetaManagedAgentsSession["status"],
    ): Promise<SessionEvent[]> => {
      if (io.writer === undefined) return Promise.reject(new Error("no turn is running"));
      return io.writer.write(events, status).stored;
    };
    const transcripts = createDbTranscripts(store.db, session.id);
    const engineTranscripts: TranscriptStore = {
      ...transcripts,
      async append(id, entries) {
        await transcripts.append(id, entries);
        if (entries.some((e) => e.type === "compaction"))
          await write([{ type: "agent.thread_context_compacted" }]);
      },
    };
    const customTools = agent.tools.flatMap((t) => (t.type === "custom" ? [t] : []));
    // The agent's MCP servers: connected here, closed with the engine.
    const mcp = await connectAgentMcp(agent, { allowHosts: options.mcpAllowHosts ?? [] });
    try {
      if (mcp.errors.length > 0) writer.write(mcp.errors);
      const waits = createUserWaits({
        append: write,
        follow: (signal) => follow(ws, session.id, signal),
        lock: { tryHold: () => locks.tryHold(session.id), release: () => locks.release(session.id) },
      });
      const confirm = createToolConfirmation({
        tools: agent.tools,
        served: [...(host === undefined ? [] : hostServedTools()), ...mcp.served],
        customToolNames: customTools.map((t) => t.name),
        waits,
        asked: (callId) => io.asked?.(callId),
      });
      const opened = await openSession(engine, {
        client,
        model: agent.model.id,
        ...(agent.system === null ? {} : { systemPrompt: agent.system }),
        builtinTools: host !== undefined,
        // Tool policies (always_allow / always_ask); the agent's custom tools are never asked.
        ...confirm.sessionOptions,
        filesystem: host !== undefined,
        store: engineTranscripts,
        extraTools: [...customTools.map((spec) => createCustomTool(spec, waits)), ...mcp.tools],
        ...(resume ? { resume: session.id } : {}),
      });
      const live: LiveSession = {
        agentKey,
        engine,
        session: opened.session,
        source,
        transcripts,
        customTools: new Set(customTools.map((t) => t.name)),
        mcp,
        confirm,
        io,
      };
      return live;
    } catch (error) {
      await engine.close();
      await mcp.close();
      throw error;
    }
  };

  /**
   * The session's live copy for this turn: the one kept here when it is current (one query checks), else a
   * new one (resumed from the database when it has a transcript).
   */
  const acquire = async (
    ws: string,
    session: BetaManagedAgentsSession,
    client: ModelClient,
    writer: EventWriter,
  ): Promise<LiveSession> => {
    const kept = lives.take(session.id);
    const agentKey = JSON.stringify(session.agent);
    const check = await checkTurn(store.db, ws, session.id, latestSkillIds(session.agent.skills)).catch(
      async (error: unknown) => {
        if (kept !== undefined) await closeLive(kept).catch(() => {});
        throw error;
      },
    );
    if (
      kept !== undefined &&
      liveIsCurrent(
        { agentKey: kept.agentKey, transcriptSeq: kept.transcripts.lastSeq() },
        { agentKey, transcriptSeq: check.transcriptSeq },
      )
    ) {
      kept.source.checkLatest(check.latest);
      kept.io.writer = writer;
      return kept;
    }
    if (kept !== undefined) await closeLive(kept).catch(() => {});
    return openLive(ws, session, client, agentKey, check.transcriptSeq > 0, writer);
  };

  const turn = async (
    ws: string,
    session: BetaManagedAgentsSession,
    text: string,
    allowOnce: readonly { name: string; input: unknown }[] = [],
  ): Promise<void> => {
    const writer = createEventWriter({
      append: (events, status, ids) => appendEvents(ws, session.id, events, status, ids),
      newId: newEventId,
    });
    const abort = new AbortController();
    running.set(session.id, abort);
    // `send` stored it with the user.message when the turn was to start at once (one statement less).
    if (!announced.delete(session.id)) writer.write([{ type: "session.status_running" }], "running");
    let stopReason: OutEvent = { type: "end_turn" };
    let live: LiveSession | undefined;
    let keep = false;
    try {
      const client = options.client;
      if (client === undefined) {
        writer.write([
          sessionError("the server has no model API key: set ANTHROPIC_API_KEY before `skillwright serve`"),
        ]);
        stopReason = { type: "retries_exhausted" };
        return;
      }
      live = await acquire(ws, session, client, writer);
      for (const call of allowOnce) live.confirm.allowOnce(call.name, call.input);
      const state: EventMapState = {
        requestStarts: new Map(),
        toolUses: new Map(),
        customTools: live.customTools,
        mcpTools: live.mcp.refs,
      };
      const confirm = live.confirm;
      // Each tool use is stored once the engine decides on its call, with that decision.
      const held = createHeldToolUses({
        write: (event, decision) => writer.write([confirm.annotate(event, decision)]).ids[0],
        stored(callId, id) {
          state.toolUses.set(callId, id);
          confirm.stored(callId, id);
        },
      });
      live.io.asked = (callId) => held.decide(callId, { behavior: "ask" });
      for await (const event of live.session.send(text, { signal: abort.signal })) {
        if (event.type === "error" && event.agentId === undefined) stopReason = { type: "retries_exhausted" };
        if (event.type === "tool_decision" && event.agentId === undefined)
          held.decide(event.id, { behavior: event.behavior, ...(event.refused ? { refused: true } : {}) });
        if (event.type === "tool_end" && event.agentId === undefined) held.end(event.id);
        for (const out of sessionEventsFor(event, state)) {
          if (out.remember?.map === "toolUses") {
            held.hold(out.remember.key, out.event);
            continue;
          }
          const [id] = writer.write([out.event]).ids;
          if (id !== undefined && out.remember !== undefined)
            state[out.remember.map].set(out.remember.key, id);
        }
      }
      // Only a turn that ended cleanly, with every MCP server connected, leaves a session worth keeping;
      // anything else reopens from the database (and tries its MCP servers again) on the next turn.
      keep = stopReason.type === "end_turn" && !abort.signal.aborted && live.mcp.errors.length === 0;
    } catch (error) {
      writer.write([sessionError(error instanceof Error ? error.message : String(error))]);
    } finally {
      running.delete(session.id);
      if (live !== undefined) live.io.asked = undefined;
      writer.write([{ type: "session.status_idle", stop_reason: stopReason, stop_details: null }], "idle");
      if (live !== undefined) {
        if (keep && !forgotten.has(session.id)) lives.put(session.id, live);
        else await closeLive(live).catch(() => {});
      }
      forgotten.delete(session.id);
      await writer.flush();
    }
  };

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
        await appendEvents(
          ws,
          session.id,
          [
            sessionError(
              "the turn waiting on these answers cannot be resumed: its transcript has no tool call",
            ),
            { type: "session.status_idle", stop_reason: { type: "end_turn" }, stop_details: null },
          ],
          "idle",
        );
        return "done";
      }
      await transcripts.append(session.id, [
        { type: "message", message: completed.message, at: new Date().toISOString() },
      ]);
      await turn(ws, session, RESUME_PROMPT, completed.allowOnce);
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
   * tries again every `orphanCheckMs` (the lock still makes one instance resume it, once). Stops when the
   * turn goes on (or waits on more), when a task of the session runs here, and when the runner closes.
   */
  const resumeOrWatch = async (ws: string, session: BetaManagedAgentsSession): Promise<void> => {
    if ((await resumeWaiting(ws, session)) === "done") return;
    if (closed || watched.has(session.id) || (await answeredCalls(ws, session.id)) === undefined) return;
    const timer = setTimeout(() => {
      watched.delete(session.id);
      if (closed || queues.has(session.id)) return;
      enqueueTask(session.id, () => resumeOrWatch(ws, session));
    }, options.orphanCheckMs ?? ORPHAN_CHECK_MS);
    timer.unref();
    watched.set(session.id, timer);
  };

  /** Runs `task` after the session's earlier turns on this instance. */
  const enqueueTask = (sessionId: string, task: () => Promise<void>): void => {
    const previous = queues.get(sessionId) ?? Promise.resolve();
    const next = previous
      .then(task)
      .catch((error: unknown) => console.error(error))
      .finally(() => {
        if (queues.get(sessionId) === next) queues.delete(sessionId);
      });
    queues.set(sessionId, next);
  };

  return {
    async send(ws, session, events) {
      checkUserEvents(events);
      await checkToolConfirmations(store.sessions, ws, session.id, events);
      // A lone user.message to a session with no turn here starts one at once: its running status goes in the
      // same statement.
      const startsNow = events.length === 1 && events[0]?.type === "user.message" && !queues.has(session.id);
      const stored = startsNow
        ? (
            await appendEvents(ws, session.id, [...events, { type: "session.status_running" }], "running")
          ).slice(0, 1)
        : await appendEvents(ws, session.id, events);
      if (startsNow) announced.add(session.id);
      // An answer to a turn this instance does not run: its owner may be gone (see resumeWaiting).
      const answers = events.some(
        (e) => e.type === "user.custom_tool_result" || e.type === "user.tool_confirmation",
      );
      if (answers && !queues.has(session.id)) enqueueTask(session.id, () => resumeOrWatch(ws, session));
      for (const event of events) {
        if (event.type === "user.interrupt") running.get(session.id)?.abort();
        if (event.type === "user.message") enqueueTask(session.id, () => turn(ws, session, userText(event)));
      }
      return stored;
    },
    subscribe: (ws, id, signal) => follow(ws, id, signal),
    async forget(_ws, sessionId) {
      if (running.has(sessionId)) forgotten.add(sessionId);
      await lives.drop(sessionId);
    },
    close: () => {
      closed = true;
      for (const timer of watched.values()) clearTimeout(timer);
      watched.clear();
      return lives.close();
    },
    liveCount: () => lives.size(),
  };
}
