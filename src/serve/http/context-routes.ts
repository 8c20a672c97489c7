import { Hono } from "hono";
import { skillContextUsage } from "../../session/skill-context/context-usage.js";
import { modelInput } from "../../session/skill-context/model-input.js";
import { createDbTranscripts } from "../sessions/db-transcripts.js";
import type { ServeDeps, ServeEnv } from "./env.js";
import { OWN_ROUTES_PREFIX } from "./sdk-routes.js";

/** Where a served session's context accounting is read (skillwright's own route: no SDK call names it). */
export const SESSION_CONTEXT_PATH = `${OWN_ROUTES_PREFIX}sessions`;

/**
 * Two reads of a served session's stored transcript. `GET /v1/skillwright/sessions/:id/context`: what each skill costs the served session's context now, from its
 * stored transcript: the numbers `/context`, `skillwright stats --session` and `session.contextUsage()` give,
 * by the one function that computes them. `GET /v1/skillwright/sessions/:id/model-input`: what the model was
 * given (`modelInput`: the listing blocks as sent and their deltas, the skills expanded, forked and expired, the
 * tool calls with their results), for the web page's view of it. Another workspace's or a missing session is a 404.
 */
export function contextRoutes({ store }: Pick<ServeDeps, "store">): Hono<ServeEnv> {
  const app = new Hono<ServeEnv>();
  app.get("/:id/context", async (c) => {
    const id = c.req.param("id");
    await store.sessions.get(c.var.workspaceId, id);
    const entries = await createDbTranscripts(store.db, id).read(id);
    return c.json({ session_id: id, ...skillContextUsage(entries) });
  });
  app.get("/:id/model-input", async (c) => {
    const id = c.req.param("id");
    await store.sessions.get(c.var.workspaceId, id);
    const entries = await createDbTranscripts(store.db, id).read(id);
    return c.json({ session_id: id, ...modelInput(entries) });
  });
  return app;
}
