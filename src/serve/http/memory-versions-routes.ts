import { Hono } from "hono";
import * as z from "zod";
import { invalid } from "../errors.js";
import { pageRequest } from "../store/page.js";
import type { ServeDeps, ServeEnv } from "./env.js";
import { FULL_VIEW_LIMIT, timeQuery, viewQuery } from "./memory-query.js";
import { refuseUnservedQuery } from "./parse.js";

const operation = z.enum(["created", "modified", "deleted"]);

/** `/v1/memory_stores/:memory_store_id/memory_versions`: the SDK's `client.beta.memoryStores.memoryVersions`. */
export function memoryVersionsRoutes({ store }: ServeDeps): Hono<ServeEnv> {
  const app = new Hono<ServeEnv>();
  const storeId = (c: { req: { param(name: string): string | undefined } }) =>
    c.req.param("memory_store_id") ?? "";
  app.get("/", async (c) => {
    // No service accounts here: every write is by an API key or a session.
    refuseUnservedQuery(c, "memoryStores.memoryVersions.list", ["service_account_id"]);
    const full = viewQuery(c, "basic");
    const page = pageRequest(c.req.query("limit"), c.req.query("page"));
    const op = c.req.query("operation");
    const parsedOp = op === undefined ? undefined : operation.safeParse(op);
    if (parsedOp !== undefined && !parsedOp.success) {
      throw invalid(`operation must be created, modified or deleted, got ${JSON.stringify(op)}`);
    }
    return c.json(
      await store.memoryVersions.list(
        c.var.workspaceId,
        storeId(c),
        { ...page, limit: full ? Math.min(page.limit, FULL_VIEW_LIMIT) : page.limit },
        {
          memoryId: c.req.query("memory_id"),
          operation: parsedOp?.data,
          apiKeyId: c.req.query("api_key_id"),
          sessionId: c.req.query("session_id"),
          createdFrom: timeQuery(c, "created_at[gte]"),
          createdTo: timeQuery(c, "created_at[lte]"),
        },
        full,
      ),
    );
  });
  app.get("/:id", async (c) =>
    c.json(
      await store.memoryVersions.get(c.var.workspaceId, storeId(c), c.req.param("id"), viewQuery(c, "full")),
    ),
  );
  app.post("/:id/redact", async (c) =>
    c.json(
      await store.memoryVersions.redact(c.var.workspaceId, storeId(c), c.req.param("id"), {
        type: "api_actor",
        api_key_id: c.var.apiKeyId,
      }),
    ),
  );
  return app;
}
