import type { BetaManagedAgentsSession } from "@anthropic-ai/sdk/resources/beta/sessions/sessions";
import type { ModelClient } from "../../agent/model-client.js";
import { newId } from "../store/ids.js";
import { primaryThreadId } from "../store/session-threads.js";
import { newEventId } from "../store/sessions.js";
import {
  type EventMapState,
  type ForkThread,
  type OutEvent,
  sessionError,
  sessionEventsFor,
} from "./agent-event-map.js";
import { createEventWriter } from "./event-writer.js";
import { threadEnded, threadStarted, threadTerminated } from "./fork-threads.js";
import { createHeldToolUses } from "./held-tool-uses.js";
import type { LiveSession, LiveSessions } from "./live-sessions.js";
import type { ServedSessionIo } from "./session-io.js";

/** What running served turns needs. */
export interface ServedTurnsOptions {
  io: ServedSessionIo;
  lives: LiveSessions;
  /** The model client; absent: every turn ends with a `session.error` saying no API key is set. */
  client?: ModelClient;
}

/** A call a resumed turn allows once without asking (the user allowed it, but it never ran). */
export interface AllowedCall {
  name: string;
  input: unknown;
}

/** The engine turns of one instance's served sessions (one at a time per session: the caller queues them). */
export interface ServedTurns {
  /**
   * Runs one engine turn of `session` on `text` (with `allowOnce` calls allowed without asking), appending
   * every event it emits, and ends it with `session.status_idle`.
   */
  run(
    ws: string,
    session: BetaManagedAgentsSession,
    text: string,
    allowOnce?: readonly AllowedCall[],
  ): Promise<void>;
  /** The session's next turn here need not append `session.status_running`: it was stored already. */
  announced(sessionId: string): void;
  /** Stops the session's turn running here, if any (`user.interrupt`). */
  interrupt(sessionId: string): void;
  /** The session was deleted or archived: a turn of it running here closes its session instead of keeping it. */
  forget(sessionId: string): void;
}

/** Served turns over `options`. */
export function createServedTurns(options: ServedTurnsOptions): ServedTurns {
  const { io, lives } = options;
  const running = new Map<string, AbortController>();
  // Sessions whose next turn's `session.status_running` was stored with the user.message that started it.
  const announced = new Set<string>();
  // Sessions deleted or archived while a turn of theirs runs: closed after it instead of kept.
  const forgotten = new Set<string>();

  const run = async (
    ws: string,
    session: BetaManagedAgentsSession,
    text: string,
    allowOnce: readonly AllowedCall[] = [],
  ): Promise<void> => {
    const writer = createEventWriter({
      append: (events, status, ids, threads) => io.append(ws, session.id, events, status, ids, threads),
      newId: newEventId,
    });
    const abort = new AbortController();
    running.set(session.id, abort);
    // `send` stored it with the user.message when the turn was to start at once (one statement less).
    if (!announced.delete(session.id)) writer.write([{ type: "session.status_running" }], "running");
    let stopReason: OutEvent = { type: "end_turn" };
    let live: LiveSession | undefined;
    let keep = false;
    // The forks' child threads by agent id, and the agent ids of those that ended.
    const threads = new Map<string, ForkThread>();
    const ended = new Set<string>();
    try {
      const client = options.client;
      if (client === undefined) {
        writer.write([
          sessionError("the server has no model API key: set ANTHROPIC_API_KEY before `skillwright serve`"),
        ]);
        stopReason = { type: "retries_exhausted" };
        return;
      }
      live = await lives.acquire(ws, session, client, writer);
      for (const call of allowOnce) live.confirm.allowOnce(call.name, call.input);
      const state: EventMapState = {
        requestStarts: new Map(),
        toolUses: new Map(),
        threads,
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
        if (event.type === "fork_start") {
          const thread = { id: newId("sthr"), name: event.skill };
          const parent =
            event.parentAgentId === undefined ? undefined : state.threads.get(event.parentAgentId)?.id;
          const started = threadStarted(
            event,
            thread,
            parent ?? primaryThreadId(session.id),
            session.agent.execution_identity,
          );
          state.threads.set(event.agentId, thread);
          writer.write(started.events, undefined, [started.thread]);
        }
        if (event.type === "fork_end") {
          const thread = state.threads.get(event.agentId);
          if (thread !== undefined) writer.write(threadEnded(event, thread));
          ended.add(event.agentId);
        }
        for (const out of sessionEventsFor(event, state)) {
          // The main agent's tool uses wait for the engine's decision; a fork's are stored as they start.
          if (out.remember?.map === "toolUses" && event.agentId === undefined) {
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
      stopReason = { type: "retries_exhausted" };
    } finally {
      running.delete(session.id);
      if (live !== undefined) live.io.asked = undefined;
      // A fork the turn left without an end (the turn failed under it) is over with the turn.
      for (const [agentId, thread] of threads)
        if (!ended.has(agentId)) writer.write([threadTerminated(thread)]);
      writer.write([{ type: "session.status_idle", stop_reason: stopReason, stop_details: null }], "idle");
      if (live !== undefined) {
        if (keep && !forgotten.has(session.id)) lives.keep(session.id, live);
        else await lives.close(live).catch(() => {});
      }
      forgotten.delete(session.id);
      await writer.flush();
    }
  };

  return {
    run,
    announced: (sessionId) => void announced.add(sessionId),
    interrupt: (sessionId) => running.get(sessionId)?.abort(),
    forget(sessionId) {
      if (running.has(sessionId)) forgotten.add(sessionId);
    },
  };
}
