import type { Context } from "hono";
import { Hono } from "hono";
import * as z from "zod";
import { ApiError, invalid } from "../errors.js";
import type { SqlQuery } from "../store/driver.js";
import { hashApiKey, newApiKey } from "../store/ids.js";
import {
  type ApiKeyInfo,
  addApiKey,
  apiKeyId,
  ensureWorkspace,
  keyIdProblem,
  listApiKeys,
  revokeApiKey,
} from "../store/workspaces.js";
import type { ApiKeyCache } from "./api-key-cache.js";
import type { ServeEnv } from "./env.js";
import { jsonBody } from "./parse.js";
import { OWN_ROUTES_PREFIX } from "./sdk-routes.js";

/** Where `skillwright keys … --server URL` administers keys (not part of the Anthropic API). */
export const KEYS_PATH = `${OWN_ROUTES_PREFIX}keys`;

const workspaceName = z.string().trim().min(1).max(256);

/** A stored key as the routes show it: its id (a prefix of its hash), workspace and creation time. */
export const keyInfoSchema = z.object({
  type: z.literal("api_key"),
  id: z.string(),
  workspace: z.string(),
  created_at: z.string(),
});

/** The answer to `POST` {@link KEYS_PATH}: the new key, shown this once, and its id. */
export const createdKeySchema = z.object({
  type: z.literal("api_key"),
  id: z.string(),
  workspace: z.string(),
  key: z.string(),
});

/** The answer to `GET` {@link KEYS_PATH}. */
export const keyListSchema = z.object({ data: z.array(keyInfoSchema) });

/** A key in the routes' shape. Pure. */
function shown(key: ApiKeyInfo): z.infer<typeof keyInfoSchema> {
  return { type: "api_key", id: key.id, workspace: key.workspace, created_at: key.createdAt };
}

/** What the key routes need: the database, the instance's key cache, and who may use them. */
export interface KeysRoutesDeps {
  db: SqlQuery;
  apiKeys: ApiKeyCache;
  /** Whether the request's API key is the operator's (serve's own key). */
  isOperator(c: Context<ServeEnv>): boolean;
}

/**
 * Key administration while `serve` runs, for the operator's key only (any other key: 403). `POST {workspace}`
 * makes a key (the workspace is created when missing) and answers it once; `GET ?workspace=` lists the keys
 * that are not revoked; `DELETE /{id-or-prefix}?workspace=` revokes the one key the prefix names (404 none,
 * 409 several) and this instance refuses it from the next request on.
 */
export function keysRoutes(deps: KeysRoutesDeps): Hono<ServeEnv> {
  const routes = new Hono<ServeEnv>();
  routes.use("*", async (c, next) => {
    if (!deps.isOperator(c)) {
      throw new ApiError(
        "permission_error",
        "key administration needs the operator key (the --api-key serve was started with)",
      );
    }
    await next();
  });
  const workspaceQuery = (c: Context<ServeEnv>): string | undefined => {
    const value = c.req.query("workspace");
    if (value === undefined) return undefined;
    const parsed = workspaceName.safeParse(value);
    if (!parsed.success) throw invalid("workspace needs a name");
    return parsed.data;
  };
  routes.post("/", async (c) => {
    const body = await jsonBody(c, z.strictObject({ workspace: workspaceName }));
    const key = newApiKey();
    await addApiKey(deps.db, await ensureWorkspace(deps.db, body.workspace), key);
    return c.json({ type: "api_key", id: apiKeyId(hashApiKey(key)), workspace: body.workspace, key });
  });
  routes.get("/", async (c) => {
    const keys = await listApiKeys(deps.db, workspaceQuery(c));
    return c.json({ data: keys.map(shown) });
  });
  routes.delete("/:id", async (c) => {
    const id = c.req.param("id");
    const workspace = workspaceQuery(c);
    const result = await revokeApiKey(deps.db, id, workspace);
    const where = workspace === undefined ? "" : ` in workspace ${workspace}`;
    if (result.kind === "invalid") throw invalid(keyIdProblem(id));
    if (result.kind === "none") throw new ApiError("not_found_error", `no key${where} matches "${id}"`);
    if (result.kind === "several") {
      throw new ApiError(
        "conflict_error",
        `${result.ids.length} keys${where} match "${id}" (${result.ids.join(", ")}): give more of the id`,
      );
    }
    deps.apiKeys.forgetAll();
    return c.json(shown(result.key));
  });
  return routes;
}
