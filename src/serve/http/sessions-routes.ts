import type { BetaManagedAgentsAgent } from "@anthropic-ai/sdk/resources/beta/agents/agents";
import type { BetaManagedAgentsSession } from "@anthropic-ai/sdk/resources/beta/sessions/sessions";
import type { Context } from "hono";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import * as z from "zod";
import { ApiError, apiErrorFor, errorBody, invalid, notImplemented } from "../errors.js";
import { batchesOf } from "../events/event-batches.js";
import { withRubricText } from "../sessions/outcome.js";
import { checkUserEvents } from "../sessions/user-events.js";
import { type AgentSkillOverrides, skillOverridesOf } from "../store/agents.js";
import { onThreadStream } from "../store/event-effects.js";
import { pageRequest } from "../store/page.js";
import { primaryThreadId } from "../store/session-threads.js";
import type { SessionEvent } from "../store/sessions.js";
import { attachResources, resourceParam } from "./attach-resources.js";
import type { ServeDeps, ServeEnv } from "./env.js";
import { boolQuery, jsonBody, patchMetadata, refuseUnservedQuery } from "./parse.js";
import { sseMessage } from "./sse-message.js";

const STATUSES = ["rescheduling", "running", "idle", "terminated"] as const;
/** The SDK's `created_at` filters, which serve does not implement (501). */
const CREATED_AT = ["created_at[gt]", "created_at[gte]", "created_at[lt]", "created_at[lte]"] as const;

/** The `statuses` query (repeated, with or without `[]`); an unknown status is a 400. */
function statusesQuery(c: Context<ServeEnv>): (typeof STATUSES)[number][] {
  const statuses = [...(c.req.queries("statuses") ?? []), ...(c.req.queries("statuses[]") ?? [])];
  const unknown = statuses.find((s) => !(STATUSES as readonly string[]).includes(s));
  if (unknown !== undefined) throw invalid(`statuses: unknown status ${JSON.stringify(unknown)}`);
  return statuses.filter((s): s is (typeof STATUSES)[number] => (STATUSES as readonly string[]).includes(s));
}

/**
 * Streams `events` as SSE, each under `event: <type>` (the SDK skips SSE messages without an event line), each
 * batch that arrives together (a stored batch, `batchesOf`) in one write to the socket. A failure while
 * following (the database gone) ends the stream with an `error` message, which the SDK throws.
 */
function sseEvents(c: Context<ServeEnv>, events: AsyncIterable<SessionEvent>, abort: AbortController) {
  return streamSSE(c, async (stream) => {
    stream.onAbort(() => abort.abort());
    try {
      for await (const batch of batchesOf(events)) await stream.write(batch.map(sseMessage).join(""));
    } catch (error) {
      if (abort.signal.aborted) return;
      const api = apiErrorFor(error);
      if (!(error instanceof ApiError)) console.error(error);
      await stream.writeSSE({ event: "error", data: JSON.stringify(errorBody(api, c.get("requestId"))) });
    }
  });
}

async function* only(
  events: AsyncIterable<SessionEvent>,
  keep: (event: SessionEvent) => boolean,
): AsyncGenerator<SessionEvent> {
  for await (const event of events) if (keep(event)) yield event;
}

const agentRef = z.union([
  z.string().min(1),
  z.strictObject({
    type: z.literal("agent"),
    id: z.string().min(1),
    version: z.number().int().positive().optional(),
  }),
  z.looseObject({ type: z.literal("agent_with_overrides"), id: z.string().min(1) }),
]);
const createSchema = z.strictObject({
  agent: agentRef,
  environment_id: z.string().min(1),
  title: z.string().max(512).nullish(),
  metadata: z.record(z.string().max(64), z.string().max(512)).optional(),
  vault_ids: z.array(z.string()).optional(),
  initial_events: z.array(z.looseObject({ type: z.string() })).optional(),
  resources: z.array(resourceParam).optional(),
  budget: z.looseObject({ type: z.string() }).optional(),
});
const updateSchema = z.strictObject({
  title: z.string().max(512).nullish(),
  metadata: z.record(z.string(), z.string().nullable()).nullish(),
  vault_ids: z.array(z.string()).optional(),
  agent: z.looseObject({}).optional(),
  budget: z.looseObject({}).nullish(),
});

/** The agent as a session pins it (the SDK's `BetaManagedAgentsSessionAgent`). Pure. */
function sessionAgent(agent: BetaManagedAgentsAgent): BetaManagedAgentsSession["agent"] {
  return {
    type: "agent",
    id: agent.id,
    version: agent.version,
    name: agent.name,
    description: agent.description,
    model: agent.model,
    system: agent.system,
    skills: agent.skills,
    tools: agent.tools,
    mcp_servers: agent.mcp_servers,
    execution_identity: agent.execution_identity,
    multiagent: null,
    ...pinnedOverrides(agent),
  };
}

/** The agent's `skill_overrides` (skillwright's field), pinned with the session's agent when it has any. Pure. */
function pinnedOverrides(agent: BetaManagedAgentsAgent): { skill_overrides?: AgentSkillOverrides } {
  const overrides = skillOverridesOf(agent);
  return overrides === undefined ? {} : { skill_overrides: overrides };
}

function optionalInt(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw invalid(`${name} must be a positive whole number`);
  return n;
}

/** `/v1/sessions` (+ `/events`): the SDK's `client.beta.sessions` (+ `events`). */
export function sessionsRoutes({ store, runner }: ServeDeps): Hono<ServeEnv> {
  const app = new Hono<ServeEnv>();
  app.post("/", async (c) => {
    const body = await jsonBody(c, createSchema);
    const ws = c.var.workspaceId;
    if (typeof body.agent === "object" && body.agent.type === "agent_with_overrides") {
      throw notImplemented("agent_with_overrides");
    }
    // Checked before the session is made: a refused event leaves no session behind.
    checkUserEvents(body.initial_events ?? []);
    const initialEvents = await withRubricText(body.initial_events ?? [], (id) =>
      store.mounts.readFile(ws, id),
    );
    if (body.budget !== undefined) throw notImplemented("session budgets");
    if ((body.vault_ids ?? []).length > 0) throw notImplemented("vault_ids (vaults)");
    if ((body.initial_events ?? []).length > 0 && runner === undefined) {
      throw notImplemented("initial_events (session events)");
    }
    const ref = typeof body.agent === "string" ? { id: body.agent, version: undefined } : body.agent;
    const agent = await store.agents.get(ws, ref.id, "version" in ref ? ref.version : undefined);
    if (agent.archived_at !== null) throw invalid(`agent ${agent.id} is archived`);
    const environment = await store.environments.get(ws, body.environment_id);
    if (environment.archived_at !== null) throw invalid(`environment ${environment.id} is archived`);
    // Every resource checked (its store or file in this workspace, its mount path free) before the session is made.
    const resources = await attachResources(store, ws, body.resources ?? [], [], true);
    const session = await store.sessions.create(ws, {
      agent: sessionAgent(agent),
      environmentId: environment.id,
      title: body.title ?? null,
      metadata: body.metadata ?? {},
      vault_ids: body.vault_ids ?? [],
      ...(resources.length === 0 ? {} : { resources }),
    });
    if (runner !== undefined && initialEvents.length > 0) {
      await runner.send(ws, session, initialEvents);
    }
    return c.json(session);
  });
  app.get("/", async (c) => {
    const page = pageRequest(c.req.query("limit"), c.req.query("page"));
    const order = c.req.query("order") ?? "desc";
    if (order !== "asc" && order !== "desc")
      throw invalid(`order must be asc or desc, got ${JSON.stringify(order)}`);
    const statuses = statusesQuery(c);
    refuseUnservedQuery(c, "sessions.list", [...CREATED_AT, "deployment_id", "memory_store_id"]);
    const agentId = c.req.query("agent_id");
    const agentVersion = optionalInt(c.req.query("agent_version"), "agent_version");
    return c.json(
      await store.sessions.list(c.var.workspaceId, page, {
        order,
        includeArchived: boolQuery(c, "include_archived"),
        ...(agentId === undefined ? {} : { agentId }),
        ...(agentVersion === undefined ? {} : { agentVersion }),
        ...(statuses.length === 0 ? {} : { statuses }),
      }),
    );
  });
  app.get("/:id", async (c) => c.json(await store.sessions.get(c.var.workspaceId, c.req.param("id"))));
  app.post("/:id", async (c) => {
    const body = await jsonBody(c, updateSchema);
    if (body.agent !== undefined) throw notImplemented("changing a session's agent");
    if (body.budget !== undefined && body.budget !== null) throw notImplemented("session budgets");
    if ((body.vault_ids ?? []).length > 0) throw notImplemented("vault_ids (vaults)");
    return c.json(
      await store.sessions.update(c.var.workspaceId, c.req.param("id"), (current) => ({
        ...current,
        ...(body.title === undefined ? {} : { title: body.title }),
        ...(body.vault_ids === undefined ? {} : { vault_ids: body.vault_ids }),
        metadata: patchMetadata(current.metadata, body.metadata),
      })),
    );
  });
  app.delete("/:id", async (c) => {
    const id = c.req.param("id");
    await store.sessions.delete(c.var.workspaceId, id);
    await runner?.forget?.(c.var.workspaceId, id);
    return c.json({ id, type: "session_deleted" });
  });
  app.post("/:id/archive", async (c) => {
    const archived = await store.sessions.archive(c.var.workspaceId, c.req.param("id"));
    await runner?.forget?.(c.var.workspaceId, archived.id);
    return c.json(archived);
  });
  app.get("/:id/events", async (c) => {
    refuseUnservedQuery(c, "sessions.events.list", [...CREATED_AT, "types"]);
    if (c.req.query("order") === "desc")
      throw notImplemented("the sessions.events.list parameter order=desc");
    const page = pageRequest(c.req.query("limit"), c.req.query("page"));
    return c.json(await store.sessions.listEvents(c.var.workspaceId, c.req.param("id"), page));
  });
  app.post("/:id/events", async (c) => {
    const session = await store.sessions.get(c.var.workspaceId, c.req.param("id"));
    if (runner === undefined) throw notImplemented("sending session events (running the agent)");
    const body = await jsonBody(
      c,
      z.strictObject({ events: z.array(z.looseObject({ type: z.string() })).min(1) }),
    );
    // A file rubric's text is read before anything is stored (a missing file is a 404, nothing sent).
    checkUserEvents(body.events);
    const events = await withRubricText(body.events, (id) => store.mounts.readFile(c.var.workspaceId, id));
    return c.json({ data: await runner.send(c.var.workspaceId, session, events) });
  });
  app.get("/:id/events/stream", async (c) => {
    const ws = c.var.workspaceId;
    const id = c.req.param("id");
    if (runner === undefined) {
      await store.sessions.get(ws, id);
      throw notImplemented("streaming session events");
    }
    // An unknown session is a 404 from the subscription's first read (the stream's starting point).
    const abort = new AbortController();
    // Subscribed before the response starts: an event sent once the client has the stream is never missed.
    return sseEvents(c, await runner.subscribe(ws, id, abort.signal), abort);
  });
  // Threads: the session's primary thread and its forks' child threads (`client.beta.sessions.threads`).
  app.get("/:id/threads", async (c) => {
    const page = pageRequest(c.req.query("limit"), c.req.query("page"));
    return c.json(await store.threads.list(c.var.workspaceId, c.req.param("id"), page, statusesQuery(c)));
  });
  app.get("/:id/threads/:thread", async (c) =>
    c.json(await store.threads.get(c.var.workspaceId, c.req.param("id"), c.req.param("thread"))),
  );
  app.post("/:id/threads/:thread/archive", async (c) =>
    c.json(await store.threads.archive(c.var.workspaceId, c.req.param("id"), c.req.param("thread"))),
  );
  app.get("/:id/threads/:thread/events", async (c) => {
    const page = pageRequest(c.req.query("limit"), c.req.query("page"));
    return c.json(
      await store.threads.listEvents(c.var.workspaceId, c.req.param("id"), c.req.param("thread"), page),
    );
  });
  app.get("/:id/threads/:thread/stream", async (c) => {
    const ws = c.var.workspaceId;
    const id = c.req.param("id");
    const thread = await store.threads.get(ws, id, c.req.param("thread"));
    if (runner === undefined) throw notImplemented("streaming session thread events");
    const abort = new AbortController();
    const events = await runner.subscribe(ws, id, abort.signal);
    const threadId = thread.id === primaryThreadId(id) ? null : thread.id;
    return sseEvents(
      c,
      only(events, (event) => onThreadStream(event, threadId)),
      abort,
    );
  });
  return app;
}
