import type { BetaManagedAgentsSession } from "@anthropic-ai/sdk/resources/beta/sessions/sessions";
import type { ModelClient } from "../../agent/model-client.js";
import { createEngine } from "../../engine/engine.js";
import { createMemoryFs } from "../../io/memory-fs.js";
import { openSession } from "../../session/open.js";
import type { SessionStore as TranscriptStore } from "../../session/session-store.js";
import { invalid } from "../errors.js";
import type { EventSignals } from "../events/event-signals.js";
import { followEvents } from "../events/follow-events.js";
import type { SessionRunner } from "../session-runner.js";
import type { SessionEvent } from "../store/sessions.js";
import type { Store } from "../store/store.js";
import { type EventMapState, type OutEvent, sessionError, sessionEventsFor } from "./agent-event-map.js";
import { connectAgentMcp } from "./agent-mcp.js";
import { createUserWaits } from "./await-action.js";
import { checkToolConfirmations } from "./confirmation-check.js";
import { createCustomTool } from "./custom-tool.js";
import { createDbTranscripts } from "./db-transcripts.js";
import { createSkillVersionCache, createStoreSkillSource } from "./store-skill-source.js";
import { createToolConfirmation, hostServedTools } from "./tool-confirmation.js";

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
  /** Tells the other instances that a session has new events (PostgreSQL NOTIFY). */
  publish?: (sessionId: string) => Promise<void>;
  /** The fallback poll interval when `signals` is given. Default 1000 ms. */
  followIntervalMs?: number;
  /**
   * `serve --mcp-allow-host`: hosts an agent's MCP servers may be on even when they resolve to a loopback,
   * private or link-local address (refused by default).
   */
  mcpAllowHosts?: readonly string[];
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
 * prompt and custom tools, and every event the turn emits is appended before any stream sees it (streams read
 * the store, so any instance on the same database serves them). The conversation itself is kept in the
 * database too, so a session continues on whichever instance gets its next message. `user.interrupt` stops
 * this instance's turn of that session.
 */
export function createSessionRunner(options: SessionRunnerOptions): SessionRunner {
  const { store } = options;
  const queues = new Map<string, Promise<void>>();
  const appendEvents = async (
    ws: string,
    sessionId: string,
    events: readonly UserEvent[],
    status?: BetaManagedAgentsSession["status"],
  ): Promise<SessionEvent[]> => {
    const stored = await store.sessions.appendEvents(ws, sessionId, events, status);
    options.signals?.notify(sessionId);
    await options.publish?.(sessionId).catch(() => {});
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

  const turn = async (ws: string, session: BetaManagedAgentsSession, text: string): Promise<void> => {
    const append = (
      events: OutEvent[],
      status?: BetaManagedAgentsSession["status"],
    ): Promise<SessionEvent[]> => appendEvents(ws, session.id, events, status);
    const abort = new AbortController();
    running.set(session.id, abort);
    await appendEvents(ws, session.id, [{ type: "session.status_running" }], "running");
    let stopReason: OutEvent = { type: "end_turn" };
    try {
      const client = options.client;
      if (client === undefined) {
        await append([
          sessionError("the server has no model API key: set ANTHROPIC_API_KEY before `skillwright serve`"),
        ]);
        stopReason = { type: "retries_exhausted" };
        return;
      }
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
      const base = createDbTranscripts(store.db, session.id);
      const transcripts: TranscriptStore = {
        ...base,
        async append(id, entries) {
          await base.append(id, entries);
          if (entries.some((e) => e.type === "compaction"))
            await append([{ type: "agent.thread_context_compacted" }]);
        },
      };
      const customTools = agent.tools.flatMap((t) => (t.type === "custom" ? [t] : []));
      const resumed = await base.exists();
      // The agent's MCP servers, for this turn: connected here, closed with the engine.
      const mcp = await connectAgentMcp(agent, { allowHosts: options.mcpAllowHosts ?? [] });
      const state: EventMapState = {
        requestStarts: new Map(),
        toolUses: new Map(),
        customTools: new Set(customTools.map((t) => t.name)),
        mcpTools: mcp.refs,
      };
      const waits = createUserWaits({ append, follow: (signal) => follow(ws, session.id, signal) });
      const confirm = createToolConfirmation({
        tools: agent.tools,
        served: [...(host === undefined ? [] : hostServedTools()), ...mcp.served],
        customToolNames: customTools.map((t) => t.name),
        waits,
      });
      try {
        if (mcp.errors.length > 0) await append(mcp.errors);
        const opened = await openSession(engine, {
          client,
          model: agent.model.id,
          ...(agent.system === null ? {} : { systemPrompt: agent.system }),
          builtinTools: host !== undefined,
          // Tool policies (always_allow / always_ask); the agent's custom tools are never asked.
          ...confirm.sessionOptions,
          filesystem: host !== undefined,
          store: transcripts,
          extraTools: [...customTools.map((spec) => createCustomTool(spec, waits)), ...mcp.tools],
          ...(resumed ? { resume: session.id } : {}),
        });
        try {
          for await (const event of opened.session.send(text, { signal: abort.signal })) {
            if (event.type === "error" && event.agentId === undefined)
              stopReason = { type: "retries_exhausted" };
            for (const out of sessionEventsFor(event, state)) {
              const [stored] = await append([confirm.annotate(out.event)]);
              if (stored === undefined || out.remember === undefined) continue;
              state[out.remember.map].set(out.remember.key, stored.id);
              if (out.remember.map === "toolUses") confirm.stored(out.remember.key, stored.id);
            }
          }
        } finally {
          await opened.session.close();
        }
      } finally {
        await engine.close();
        await mcp.close();
      }
    } catch (error) {
      await append([sessionError(error instanceof Error ? error.message : String(error))]);
    } finally {
      running.delete(session.id);
      await appendEvents(
        ws,
        session.id,
        [{ type: "session.status_idle", stop_reason: stopReason, stop_details: null }],
        "idle",
      );
    }
  };

  const enqueue = (ws: string, session: BetaManagedAgentsSession, text: string): void => {
    const previous = queues.get(session.id) ?? Promise.resolve();
    const next = previous
      .then(() => turn(ws, session, text))
      .catch((error: unknown) => console.error(error))
      .finally(() => {
        if (queues.get(session.id) === next) queues.delete(session.id);
      });
    queues.set(session.id, next);
  };

  return {
    async send(ws, session, events) {
      checkUserEvents(events);
      await checkToolConfirmations(store.sessions, ws, session.id, events);
      const stored = await appendEvents(ws, session.id, events);
      for (const event of events) {
        if (event.type === "user.interrupt") running.get(session.id)?.abort();
        if (event.type === "user.message") enqueue(ws, session, userText(event));
      }
      return stored;
    },
    subscribe: (ws, id, signal) => follow(ws, id, signal),
  };
}
