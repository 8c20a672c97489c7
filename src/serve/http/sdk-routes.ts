import { type ApiError, notImplemented } from "../errors.js";

/** An HTTP method the SDK's calls use. */
export type SdkMethod = "GET" | "POST" | "DELETE";

/** One call of the SDK's `client.beta` resources: `client.beta.{resource}.{call}()` sends `method path`. */
export interface SdkRoute {
  /** The resource's accessor under `client.beta`, e.g. `sessions.events`. */
  resource: string;
  /** The method of that resource, e.g. `send`. */
  call: string;
  method: SdkMethod;
  /** The path with Hono-style parameters, e.g. `/v1/sessions/:session_id/events`. */
  path: string;
}

/**
 * The SDK's calls that skillwright serve knows of (`@anthropic-ai/sdk` 1.11, `resources/beta/`), by resource
 * and call: `[method, path]`. `messages` is the Messages API (`client.messages` and `client.beta.messages`), which
 * serve answers with the code execution tool and `container.skills`; the Models and Organization APIs are not
 * here: serve is not an admin endpoint. A known call whose route the app does not register answers 501 (see
 * {@link sdkRouteOf}); the README's table of what is implemented is built from this list and the routes the
 * app registers ({@link routeTable}).
 */
const SDK_CALLS: Record<string, Record<string, readonly [SdkMethod, `/v1/${string}`]>> = {
  messages: {
    create: ["POST", "/v1/messages"],
    countTokens: ["POST", "/v1/messages/count_tokens"],
  },
  "messages.batches": {
    create: ["POST", "/v1/messages/batches"],
    retrieve: ["GET", "/v1/messages/batches/:message_batch_id"],
    list: ["GET", "/v1/messages/batches"],
    delete: ["DELETE", "/v1/messages/batches/:message_batch_id"],
    cancel: ["POST", "/v1/messages/batches/:message_batch_id/cancel"],
  },
  skills: {
    create: ["POST", "/v1/skills"],
    retrieve: ["GET", "/v1/skills/:skill_id"],
    list: ["GET", "/v1/skills"],
    delete: ["DELETE", "/v1/skills/:skill_id"],
  },
  "skills.versions": {
    create: ["POST", "/v1/skills/:skill_id/versions"],
    retrieve: ["GET", "/v1/skills/:skill_id/versions/:version"],
    list: ["GET", "/v1/skills/:skill_id/versions"],
    delete: ["DELETE", "/v1/skills/:skill_id/versions/:version"],
    download: ["GET", "/v1/skills/:skill_id/versions/:version/content"],
  },
  environments: {
    create: ["POST", "/v1/environments"],
    retrieve: ["GET", "/v1/environments/:environment_id"],
    update: ["POST", "/v1/environments/:environment_id"],
    list: ["GET", "/v1/environments"],
    delete: ["DELETE", "/v1/environments/:environment_id"],
    archive: ["POST", "/v1/environments/:environment_id/archive"],
  },
  "environments.work": {
    // Before `retrieve`: `/work/poll` and `/work/stats` would otherwise match `/work/:work_id`.
    poll: ["GET", "/v1/environments/:environment_id/work/poll"],
    stats: ["GET", "/v1/environments/:environment_id/work/stats"],
    retrieve: ["GET", "/v1/environments/:environment_id/work/:work_id"],
    update: ["POST", "/v1/environments/:environment_id/work/:work_id"],
    list: ["GET", "/v1/environments/:environment_id/work"],
    ack: ["POST", "/v1/environments/:environment_id/work/:work_id/ack"],
    heartbeat: ["POST", "/v1/environments/:environment_id/work/:work_id/heartbeat"],
    stop: ["POST", "/v1/environments/:environment_id/work/:work_id/stop"],
  },
  agents: {
    create: ["POST", "/v1/agents"],
    retrieve: ["GET", "/v1/agents/:agent_id"],
    update: ["POST", "/v1/agents/:agent_id"],
    list: ["GET", "/v1/agents"],
    archive: ["POST", "/v1/agents/:agent_id/archive"],
  },
  "agents.versions": {
    list: ["GET", "/v1/agents/:agent_id/versions"],
  },
  sessions: {
    create: ["POST", "/v1/sessions"],
    retrieve: ["GET", "/v1/sessions/:session_id"],
    update: ["POST", "/v1/sessions/:session_id"],
    list: ["GET", "/v1/sessions"],
    delete: ["DELETE", "/v1/sessions/:session_id"],
    archive: ["POST", "/v1/sessions/:session_id/archive"],
  },
  "sessions.events": {
    list: ["GET", "/v1/sessions/:session_id/events"],
    send: ["POST", "/v1/sessions/:session_id/events"],
    stream: ["GET", "/v1/sessions/:session_id/events/stream"],
  },
  "sessions.resources": {
    add: ["POST", "/v1/sessions/:session_id/resources"],
    retrieve: ["GET", "/v1/sessions/:session_id/resources/:resource_id"],
    update: ["POST", "/v1/sessions/:session_id/resources/:resource_id"],
    list: ["GET", "/v1/sessions/:session_id/resources"],
    delete: ["DELETE", "/v1/sessions/:session_id/resources/:resource_id"],
  },
  "sessions.threads": {
    retrieve: ["GET", "/v1/sessions/:session_id/threads/:thread_id"],
    list: ["GET", "/v1/sessions/:session_id/threads"],
    archive: ["POST", "/v1/sessions/:session_id/threads/:thread_id/archive"],
  },
  "sessions.threads.events": {
    list: ["GET", "/v1/sessions/:session_id/threads/:thread_id/events"],
    stream: ["GET", "/v1/sessions/:session_id/threads/:thread_id/stream"],
  },
  memoryStores: {
    create: ["POST", "/v1/memory_stores"],
    retrieve: ["GET", "/v1/memory_stores/:memory_store_id"],
    update: ["POST", "/v1/memory_stores/:memory_store_id"],
    list: ["GET", "/v1/memory_stores"],
    delete: ["DELETE", "/v1/memory_stores/:memory_store_id"],
    archive: ["POST", "/v1/memory_stores/:memory_store_id/archive"],
  },
  "memoryStores.memories": {
    create: ["POST", "/v1/memory_stores/:memory_store_id/memories"],
    retrieve: ["GET", "/v1/memory_stores/:memory_store_id/memories/:memory_id"],
    update: ["POST", "/v1/memory_stores/:memory_store_id/memories/:memory_id"],
    list: ["GET", "/v1/memory_stores/:memory_store_id/memories"],
    delete: ["DELETE", "/v1/memory_stores/:memory_store_id/memories/:memory_id"],
  },
  "memoryStores.memoryVersions": {
    retrieve: ["GET", "/v1/memory_stores/:memory_store_id/memory_versions/:memory_version_id"],
    list: ["GET", "/v1/memory_stores/:memory_store_id/memory_versions"],
    redact: ["POST", "/v1/memory_stores/:memory_store_id/memory_versions/:memory_version_id/redact"],
  },
  files: {
    upload: ["POST", "/v1/files"],
    retrieveMetadata: ["GET", "/v1/files/:file_id"],
    list: ["GET", "/v1/files"],
    delete: ["DELETE", "/v1/files/:file_id"],
    download: ["GET", "/v1/files/:file_id/content"],
  },
  vaults: {
    create: ["POST", "/v1/vaults"],
    retrieve: ["GET", "/v1/vaults/:vault_id"],
    update: ["POST", "/v1/vaults/:vault_id"],
    list: ["GET", "/v1/vaults"],
    delete: ["DELETE", "/v1/vaults/:vault_id"],
    archive: ["POST", "/v1/vaults/:vault_id/archive"],
  },
  "vaults.credentials": {
    create: ["POST", "/v1/vaults/:vault_id/credentials"],
    retrieve: ["GET", "/v1/vaults/:vault_id/credentials/:credential_id"],
    update: ["POST", "/v1/vaults/:vault_id/credentials/:credential_id"],
    list: ["GET", "/v1/vaults/:vault_id/credentials"],
    delete: ["DELETE", "/v1/vaults/:vault_id/credentials/:credential_id"],
    archive: ["POST", "/v1/vaults/:vault_id/credentials/:credential_id/archive"],
    mcpOAuthValidate: ["POST", "/v1/vaults/:vault_id/credentials/:credential_id/mcp_oauth_validate"],
  },
  deployments: {
    create: ["POST", "/v1/deployments"],
    retrieve: ["GET", "/v1/deployments/:deployment_id"],
    update: ["POST", "/v1/deployments/:deployment_id"],
    list: ["GET", "/v1/deployments"],
    archive: ["POST", "/v1/deployments/:deployment_id/archive"],
    pause: ["POST", "/v1/deployments/:deployment_id/pause"],
    run: ["POST", "/v1/deployments/:deployment_id/run"],
    unpause: ["POST", "/v1/deployments/:deployment_id/unpause"],
  },
  deploymentRuns: {
    retrieve: ["GET", "/v1/deployment_runs/:deployment_run_id"],
    list: ["GET", "/v1/deployment_runs"],
  },
  dreams: {
    create: ["POST", "/v1/dreams"],
    retrieve: ["GET", "/v1/dreams/:dream_id"],
    list: ["GET", "/v1/dreams"],
    archive: ["POST", "/v1/dreams/:dream_id/archive"],
    cancel: ["POST", "/v1/dreams/:dream_id/cancel"],
  },
  tunnels: {
    create: ["POST", "/v1/tunnels"],
    retrieve: ["GET", "/v1/tunnels/:tunnel_id"],
    list: ["GET", "/v1/tunnels"],
    archive: ["POST", "/v1/tunnels/:tunnel_id/archive"],
    revealToken: ["POST", "/v1/tunnels/:tunnel_id/reveal_token"],
    rotateToken: ["POST", "/v1/tunnels/:tunnel_id/rotate_token"],
  },
  "tunnels.certificates": {
    create: ["POST", "/v1/tunnels/:tunnel_id/certificates"],
    retrieve: ["GET", "/v1/tunnels/:tunnel_id/certificates/:certificate_id"],
    list: ["GET", "/v1/tunnels/:tunnel_id/certificates"],
    archive: ["POST", "/v1/tunnels/:tunnel_id/certificates/:certificate_id/archive"],
  },
  userProfiles: {
    create: ["POST", "/v1/user_profiles"],
    retrieve: ["GET", "/v1/user_profiles/:user_profile_id"],
    update: ["POST", "/v1/user_profiles/:user_profile_id"],
    list: ["GET", "/v1/user_profiles"],
    delete: ["DELETE", "/v1/user_profiles/:user_profile_id"],
    createEnrollmentURL: ["POST", "/v1/user_profiles/:user_profile_id/enrollment_url"],
  },
  "userProfiles.actionURLs": {
    create: ["POST", "/v1/user_profiles/:user_profile_id/action_urls"],
  },
};

/** Every SDK call of {@link SDK_CALLS}, in its order. */
export const SDK_ROUTES: readonly SdkRoute[] = Object.entries(SDK_CALLS).flatMap(([resource, calls]) =>
  Object.entries(calls).map(([call, [method, path]]) => ({ resource, call, method, path })),
);

/** Each SDK route with a pattern that matches its paths, in {@link SDK_ROUTES}' order. */
const PATTERNS = SDK_ROUTES.map((route) => ({
  route,
  pattern: new RegExp(`^${route.path.replace(/:[^/]+/g, "[^/]+")}$`),
}));

/** The SDK call that sends `method path` (the first in {@link SDK_ROUTES}' order), if any. Pure. */
export function sdkRouteOf(method: string, path: string): SdkRoute | undefined {
  return PATTERNS.find((p) => p.route.method === method && p.pattern.test(path))?.route;
}

/** A route as the app registered it (Hono's `app.routes`): method and path. */
export interface RegisteredRoute {
  method: string;
  path: string;
}

/** `METHOD /path` with every parameter written `:`, so that `:id` and `:skill_id` compare equal. Pure. */
function routeKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/:[^/]+/g, ":")}`;
}

/** The SDK routes `registered` does not answer, in {@link SDK_ROUTES}' order. Pure. */
export function unservedRoutes(registered: readonly RegisteredRoute[]): SdkRoute[] {
  const served = new Set(registered.map((route) => routeKey(route.method, route.path)));
  return SDK_ROUTES.filter((route) => !served.has(routeKey(route.method, route.path)));
}

/** Where skillwright's own routes live (key administration): no SDK call names them. */
export const OWN_ROUTES_PREFIX = "/v1/skillwright/";

/**
 * The `/v1` routes of `registered` that are no SDK call of {@link SDK_ROUTES} (middleware and skillwright's own
 * routes under {@link OWN_ROUTES_PREFIX} aside). Pure.
 */
export function unknownRoutes(registered: readonly RegisteredRoute[]): RegisteredRoute[] {
  const known = new Set(SDK_ROUTES.map((route) => routeKey(route.method, route.path)));
  return registered.filter(
    (route) =>
      route.method !== "ALL" &&
      route.path.startsWith("/v1/") &&
      !route.path.startsWith(OWN_ROUTES_PREFIX) &&
      !known.has(routeKey(route.method, route.path)),
  );
}

/** A route's path as the docs write it: `/v1/skills/{skill_id}`. Pure. */
function docPath(path: string): string {
  return path.replace(/:([^/]+)/g, "{$1}");
}

/** The 501 an unserved SDK call answers: `client.beta.sessions.resources.list (GET …) is not implemented…`. */
export function unservedCall(route: SdkRoute): ApiError {
  return notImplemented(
    `client.beta.${route.resource}.${route.call} (${route.method} ${docPath(route.path)})`,
  );
}

/**
 * The README's table of the SDK's resources: one row per resource, its calls that are served and those that
 * answer 501, from the routes the app registered. Pure.
 */
export function routeTable(registered: readonly RegisteredRoute[]): string {
  const unserved = new Set(unservedRoutes(registered));
  const rows = ["| `client.beta.` | Path | Served | 501 not implemented |", "| --- | --- | --- | --- |"];
  for (const resource of Object.keys(SDK_CALLS)) {
    const routes = SDK_ROUTES.filter((route) => route.resource === resource);
    const base = routes.map((route) => route.path).reduce((a, b) => (b.length < a.length ? b : a));
    const calls = (served: boolean) =>
      routes
        .filter((route) => unserved.has(route) !== served)
        .map((route) => `\`${route.call}\``)
        .join(", ") || "—";
    rows.push(`| \`${resource}\` | \`${docPath(base)}\` | ${calls(true)} | ${calls(false)} |`);
  }
  return rows.join("\n");
}
