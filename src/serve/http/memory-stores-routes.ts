import { Hono } from "hono";
import * as z from "zod";
import { invalid } from "../errors.js";
import { pageRequest } from "../store/page.js";
import type { ServeDeps, ServeEnv } from "./env.js";
import { timeQuery } from "./memory-query.js";
import { boolQuery, jsonBody, patchMetadata } from "./parse.js";

/** No control characters (a store's name becomes its mount directory's name). */
const NO_CONTROL = /^[^\p{Cc}]*$/u;
const name = z.string().min(1).max(255).regex(NO_CONTROL, "a name has no control characters");
const description = z.string().max(1024);
const MAX_METADATA = 16;
const metadata = z
  .record(z.string().min(1).max(64), z.string().max(512))
  .refine((m) => Object.keys(m).length <= MAX_METADATA, `at most ${MAX_METADATA} metadata pairs`);

const createSchema = z.strictObject({
  name,
  description: description.optional(),
  metadata: metadata.optional(),
});
const updateSchema = z.strictObject({
  name: name.nullish(),
  description: description.nullish(),
  metadata: z.record(z.string().min(1).max(64), z.string().max(512).nullable()).nullish(),
});

/** `/v1/memory_stores`: the SDK's `client.beta.memoryStores`. */
export function memoryStoresRoutes({ store }: ServeDeps): Hono<ServeEnv> {
  const app = new Hono<ServeEnv>();
  app.post("/", async (c) => {
    const body = await jsonBody(c, createSchema);
    return c.json(
      await store.memoryStores.create(c.var.workspaceId, {
        name: body.name,
        description: body.description ?? "",
        metadata: body.metadata ?? {},
      }),
    );
  });
  app.get("/", async (c) => {
    const page = pageRequest(c.req.query("limit"), c.req.query("page"));
    return c.json(
      await store.memoryStores.list(c.var.workspaceId, page, {
        includeArchived: boolQuery(c, "include_archived"),
        createdFrom: timeQuery(c, "created_at[gte]"),
        createdTo: timeQuery(c, "created_at[lte]"),
      }),
    );
  });
  app.get("/:id", async (c) => c.json(await store.memoryStores.get(c.var.workspaceId, c.req.param("id"))));
  app.post("/:id", async (c) => {
    const body = await jsonBody(c, updateSchema);
    return c.json(
      await store.memoryStores.update(c.var.workspaceId, c.req.param("id"), (current) => {
        const next = {
          name: body.name ?? current.name,
          description:
            body.description === undefined || body.description === null
              ? current.description
              : body.description,
          metadata: patchMetadata(current.metadata, body.metadata),
        };
        if (Object.keys(next.metadata).length > MAX_METADATA) {
          throw invalid(`a memory store has at most ${MAX_METADATA} metadata pairs`);
        }
        return next;
      }),
    );
  });
  app.delete("/:id", async (c) => {
    const id = c.req.param("id");
    await store.memoryStores.delete(c.var.workspaceId, id);
    return c.json({ id, type: "memory_store_deleted" });
  });
  app.post("/:id/archive", async (c) =>
    c.json(await store.memoryStores.archive(c.var.workspaceId, c.req.param("id"))),
  );
  return app;
}
