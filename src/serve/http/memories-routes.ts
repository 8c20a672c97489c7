import { Hono } from "hono";
import * as z from "zod";
import { invalid } from "../errors.js";
import { MEMORY_LIMITS } from "../store/memory-paths.js";
import { pageRequest } from "../store/page.js";
import type { ServeDeps, ServeEnv } from "./env.js";
import { FULL_VIEW_LIMIT, viewQuery } from "./memory-query.js";
import { jsonBody } from "./parse.js";

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, "a content_sha256 is 64 lowercase hexadecimal characters");
const createSchema = z.strictObject({ path: z.string(), content: z.string().nullable() });
const updateSchema = z.strictObject({
  path: z.string().nullish(),
  content: z.string().nullish(),
  precondition: z
    .strictObject({ type: z.literal("content_sha256"), content_sha256: sha256.optional() })
    .optional(),
});

/** The memory store id of a route under `/v1/memory_stores/:memory_store_id`. */
function storeIdOf(c: { req: { param(name: string): string | undefined } }): string {
  return c.req.param("memory_store_id") ?? "";
}

/** `/v1/memory_stores/:memory_store_id/memories`: the SDK's `client.beta.memoryStores.memories`. */
export function memoriesRoutes({ store }: ServeDeps): Hono<ServeEnv> {
  const app = new Hono<ServeEnv>();
  const actor = (apiKeyId: string) => ({ type: "api_actor" as const, api_key_id: apiKeyId });
  app.post("/", async (c) => {
    const full = viewQuery(c, "basic");
    const body = await jsonBody(c, createSchema);
    const memory = await store.memories.create(
      c.var.workspaceId,
      storeIdOf(c),
      { path: body.path, content: body.content ?? "" },
      actor(c.var.apiKeyId),
    );
    return c.json(full ? await store.memories.get(c.var.workspaceId, storeIdOf(c), memory.id) : memory);
  });
  app.get("/", async (c) => {
    const full = viewQuery(c, "basic");
    const { limit } = pageRequest(c.req.query("limit"), undefined);
    const depthText = c.req.query("depth") ?? "0";
    const depth = Number(depthText);
    if (!Number.isInteger(depth) || depth < 0 || depth > MEMORY_LIMITS.maxSegments) {
      throw invalid(
        `depth must be a whole number from 0 to ${MEMORY_LIMITS.maxSegments}, got ${JSON.stringify(depthText)}`,
      );
    }
    return c.json(
      await store.memories.list(c.var.workspaceId, storeIdOf(c), {
        prefix: c.req.query("path_prefix") ?? "/",
        depth,
        limit: full ? Math.min(limit, FULL_VIEW_LIMIT) : limit,
        page: c.req.query("page"),
        full,
      }),
    );
  });
  app.get("/:id", async (c) => {
    const full = viewQuery(c, "full");
    const memory = await store.memories.get(c.var.workspaceId, storeIdOf(c), c.req.param("id"));
    return c.json(full ? memory : { ...memory, content: null });
  });
  app.post("/:id", async (c) => {
    const full = viewQuery(c, "basic");
    const body = await jsonBody(c, updateSchema);
    const memory = await store.memories.update(
      c.var.workspaceId,
      storeIdOf(c),
      c.req.param("id"),
      {
        path: body.path ?? undefined,
        content: body.content ?? undefined,
        expectedSha256: body.precondition?.content_sha256,
      },
      actor(c.var.apiKeyId),
    );
    return c.json(full ? await store.memories.get(c.var.workspaceId, storeIdOf(c), memory.id) : memory);
  });
  app.delete("/:id", async (c) => {
    const id = c.req.param("id");
    const expected = c.req.query("expected_content_sha256");
    if (expected !== undefined && !sha256.safeParse(expected).success) {
      throw invalid("expected_content_sha256 is 64 lowercase hexadecimal characters");
    }
    await store.memories.delete(c.var.workspaceId, storeIdOf(c), id, expected, actor(c.var.apiKeyId));
    return c.json({ id, type: "memory_deleted" });
  });
  return app;
}
