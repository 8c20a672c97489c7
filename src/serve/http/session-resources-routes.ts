import { Hono } from "hono";
import { invalid, notFound } from "../errors.js";
import { encodeCursor, pageRequest } from "../store/page.js";
import { mountsClash } from "../store/session-resources.js";
import { attachResources, resourceParam } from "./attach-resources.js";
import type { ServeDeps, ServeEnv } from "./env.js";
import { jsonBody } from "./parse.js";

/**
 * `/v1/sessions/:session_id/resources`: the SDK's `client.beta.sessions.resources`. A resource added here is
 * mounted from the session's next turn on and announced to the model in that turn's message (the system
 * prompt does not change); a deleted one is unmounted. `update` (a GitHub token rotation) is not routed: 501.
 */
export function sessionResourcesRoutes({ store }: ServeDeps): Hono<ServeEnv> {
  const app = new Hono<ServeEnv>();
  const sessionId = (c: { req: { param(name: "session_id"): string | undefined } }) =>
    c.req.param("session_id") ?? "";
  app.post("/", async (c) => {
    const ws = c.var.workspaceId;
    const id = sessionId(c);
    const param = await jsonBody(c, resourceParam);
    const existing = (await store.sessions.storedResources(ws, id)).map((r) => r.resource);
    const [added] = await attachResources(store, ws, [param], existing, false);
    if (added === undefined) throw new Error("no resource attached");
    // Checked again under the row's lock: a resource added meanwhile may have taken the mount path.
    await store.sessions.update(ws, id, (current) => {
      const kept = current.resources ?? [];
      const clash = kept.find((r) => mountsClash(r.resource.mount_path, added.resource.mount_path));
      if (clash !== undefined) {
        throw invalid(
          `resource mount path ${added.resource.mount_path} clashes with ${clash.resource.mount_path}`,
        );
      }
      return { ...current, resources: [...kept, { ...added, announced: false }] };
    });
    return c.json(added.resource);
  });
  app.get("/", async (c) => {
    const page = pageRequest(c.req.query("limit"), c.req.query("page"));
    const session = await store.sessions.get(c.var.workspaceId, sessionId(c));
    const start = page.after ?? 0;
    const data = session.resources.slice(start, start + page.limit);
    const more = start + page.limit < session.resources.length;
    return c.json({
      data,
      has_more: more,
      first_id: null,
      last_id: null,
      next_page: more ? encodeCursor(start + page.limit) : null,
      prev_page: null,
    });
  });
  app.get("/:resource_id", async (c) => {
    const session = await store.sessions.get(c.var.workspaceId, sessionId(c));
    const id = c.req.param("resource_id");
    const found = session.resources.find((r) => "id" in r && r.id === id);
    if (found === undefined) throw notFound("session resource", id);
    return c.json(found);
  });
  app.delete("/:resource_id", async (c) => {
    const id = c.req.param("resource_id");
    await store.sessions.update(c.var.workspaceId, sessionId(c), (current) => {
      const kept = current.resources ?? [];
      if (!kept.some((r) => r.resource.id === id)) throw notFound("session resource", id);
      return { ...current, resources: kept.filter((r) => r.resource.id !== id) };
    });
    return c.json({ id, type: "session_resource_deleted" });
  });
  return app;
}
