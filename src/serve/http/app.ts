import { timingSafeEqual } from "node:crypto";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError, apiErrorFor, errorBody, retryHeader } from "../errors.js";
import { hashApiKey } from "../store/ids.js";
import { apiKeyId, workspaceForKeyHash } from "../store/workspaces.js";
import { UPLOAD_LIMITS } from "../upload/limits.js";
import { accessLog } from "./access-log.js";
import { agentsRoutes } from "./agents-routes.js";
import { createApiKeyCache } from "./api-key-cache.js";
import { contextRoutes, SESSION_CONTEXT_PATH } from "./context-routes.js";
import type { ServeDeps, ServeEnv } from "./env.js";
import { environmentsRoutes } from "./environments-routes.js";
import { filesRoutes } from "./files-routes.js";
import { healthRoutes } from "./health-routes.js";
import { KEYS_PATH, keysRoutes } from "./keys-routes.js";
import { memoriesRoutes } from "./memories-routes.js";
import { memoryStoresRoutes } from "./memory-stores-routes.js";
import { memoryVersionsRoutes } from "./memory-versions-routes.js";
import { messagesRoutes } from "./messages-routes.js";
import { checkStorableUrl } from "./parse.js";
import { PRICES_PATH, pricesRoutes } from "./prices-routes.js";
import { sdkRouteOf, unservedCall } from "./sdk-routes.js";
import { sessionResourcesRoutes } from "./session-resources-routes.js";
import { sessionsRoutes } from "./sessions-routes.js";
import { skillsRoutes } from "./skills-routes.js";
import { webRoutes } from "./web-routes.js";

/** The API key of a request: `Authorization: Bearer KEY` (what the SDK sends) or `x-api-key: KEY`. Pure. */
export function apiKeyOf(authorization: string | undefined, xApiKey: string | undefined): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1];
  return bearer ?? (xApiKey?.trim() || undefined);
}

/** Whether requests with this method carry no body (fetch refuses one on GET and HEAD). Pure. */
function hasNoBody(method: string): boolean {
  return method === "GET" || method === "HEAD";
}

/**
 * The HTTP API: the routes of the SDK's `client.beta.skills`, `.environments`, `.agents`, `.sessions`,
 * `.memoryStores` (+ `memories`, `memoryVersions`), `.files` and `client.messages.create` (GA and beta)
 * under `/v1`, each request authenticated by an API key (see {@link createApiKeyCache}) and confined to that
 * key's workspace; `/healthz` and `/readyz` without one. Every request gets a `request-id` header and an access
 * log line (`deps.accessLog`). Every error
 * is `{type:"error",error:{type,message},request_id}` (as the Anthropic API answers, so the SDK's message names
 * the request) with the status the SDK maps to its error classes.
 */
export function createServeApp(deps: ServeDeps): Hono<ServeEnv> {
  const app = new Hono<ServeEnv>();
  const apiKeys =
    deps.apiKeys ??
    createApiKeyCache({ lookup: (hash) => workspaceForKeyHash(deps.store.db, hash), now: Date.now });
  const operatorHash = deps.operatorKey === undefined ? undefined : Buffer.from(hashApiKey(deps.operatorKey));
  // Compared by hash in constant time: how long a wrong key takes tells nothing about the right one.
  const isOperator = (c: Context<ServeEnv>): boolean => {
    const key = apiKeyOf(c.req.header("authorization"), c.req.header("x-api-key"));
    return (
      key !== undefined &&
      operatorHash !== undefined &&
      timingSafeEqual(Buffer.from(hashApiKey(key)), operatorHash)
    );
  };
  // First, so every answer (errors and 404s too) carries its request id and is logged.
  app.use("*", accessLog({ write: deps.accessLog ?? (() => {}), now: Date.now }));
  app.onError((error, c) => {
    const api = apiErrorFor(error);
    if (!(error instanceof ApiError)) console.error(error);
    return c.json(errorBody(api, c.get("requestId")), api.status, retryHeader(api));
  });
  // A request no route answers: an SDK call that serve does not implement is a 501, anything else a 404.
  app.notFound((c) => {
    const call = sdkRouteOf(c.req.method, c.req.path);
    const error =
      call === undefined
        ? new ApiError("not_found_error", `no route ${c.req.method} ${c.req.path}`)
        : unservedCall(call);
    return c.json(errorBody(error, c.get("requestId")), error.status, retryHeader(error));
  });
  const limitBody = bodyLimit({
    maxSize: UPLOAD_LIMITS.maxBodyBytes,
    onError: () => {
      throw new ApiError(
        "request_too_large",
        `the request body is over the ${UPLOAD_LIMITS.maxBodyBytes}-byte limit`,
      );
    },
  });
  // A GET or HEAD has no body to limit; asking for one (`c.req.raw.body`) would make @hono/node-server build a
  // full fetch Request, Headers and AbortController for every read: a measurable part of each GET's time.
  app.use("/v1/*", (c, next) => (hasNoBody(c.req.method) ? next() : limitBody(c, next)));
  app.use("/v1/*", async (c, next) => {
    const key = apiKeyOf(c.req.header("authorization"), c.req.header("x-api-key"));
    if (key === undefined) {
      throw new ApiError(
        "authentication_error",
        "no API key: send Authorization: Bearer KEY or x-api-key: KEY",
      );
    }
    const workspaceId = await apiKeys.workspaceFor(key);
    if (workspaceId === undefined) throw new ApiError("authentication_error", "invalid API key");
    const asked = c.req.header("anthropic-workspace-id");
    if (asked !== undefined && asked !== workspaceId) {
      throw new ApiError("permission_error", `this API key does not belong to workspace ${asked}`);
    }
    c.set("workspaceId", workspaceId);
    c.set("apiKeyId", apiKeyId(hashApiKey(key)));
    // Ids and query values reach the database as text: one that cannot be stored is a 400, not a 500.
    checkStorableUrl(c);
    await next();
  });
  app.route("/", healthRoutes(deps.store.db));
  app.route(KEYS_PATH, keysRoutes({ db: deps.store.db, apiKeys, isOperator }));
  app.route("/v1/skills", skillsRoutes(deps));
  app.route("/v1/environments", environmentsRoutes(deps));
  app.route("/v1/agents", agentsRoutes(deps));
  app.route("/v1/sessions/:session_id/resources", sessionResourcesRoutes(deps));
  app.route("/v1/sessions", sessionsRoutes(deps));
  app.route(SESSION_CONTEXT_PATH, contextRoutes(deps));
  app.route(PRICES_PATH, pricesRoutes(deps.prices));
  app.route("/v1/memory_stores/:memory_store_id/memories", memoriesRoutes(deps));
  app.route("/v1/memory_stores/:memory_store_id/memory_versions", memoryVersionsRoutes(deps));
  app.route("/v1/memory_stores", memoryStoresRoutes(deps));
  app.route("/v1/files", filesRoutes(deps));
  app.route("/v1/messages", messagesRoutes(deps.messages));
  if (deps.readWebAsset !== undefined) app.route("/", webRoutes(deps.readWebAsset));
  return app;
}
