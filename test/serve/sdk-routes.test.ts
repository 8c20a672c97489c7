import { readFileSync } from "node:fs";
import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServeApp } from "../../src/serve/http/app.js";
import {
  type RegisteredRoute,
  routeTable,
  SDK_ROUTES,
  type SdkRoute,
  unknownRoutes,
  unservedRoutes,
} from "../../src/serve/http/sdk-routes.js";
import { type ServedApp, startServedApp } from "../support/served-app.js";

const README = new URL("../../README.md", import.meta.url);
const TABLE = /<!-- serve-routes: [^\n]*-->\n([\s\S]*?)\n<!-- \/serve-routes -->/;

/** `client.beta`'s resources that serve does not stand in for: the models, admin and webhook helpers. */
const NOT_SERVE = new Set(["models", "organization", "webhooks"]);
/**
 * SDK methods that send no request of their own: client-side helpers over the calls (`messages.batches.results`
 * reads the `results_url` that `retrieve` gives).
 */
const HELPERS = new Set([
  "messages.parse",
  "messages.stream",
  "messages.toolRunner",
  "messages.thread",
  "messages.batches.results",
  "environments.work.poller",
  "environments.work.worker",
  "sessions.events.toolRunner",
]);

let served: ServedApp;
let registered: RegisteredRoute[];
beforeAll(async () => {
  served = await startServedApp();
  registered = createServeApp({ store: served.store }).routes;
}, 60_000);
afterAll(async () => {
  await served?.close();
});

/** A client that records each request it sends (method and path) and retries as the SDK does by default. */
function recordingClient(): { client: Anthropic; sent: string[] } {
  const sent: string[] = [];
  const client = new Anthropic({
    apiKey: "k",
    baseURL: served.url,
    fetch: async (url, init) => {
      const { protocol, pathname } = new URL(String(url));
      // The SDK probes its fetch with a `data:` URL before its first multipart upload.
      if (protocol === "http:") sent.push(`${init?.method ?? "GET"} ${pathname}`);
      return fetch(url, init);
    },
  });
  return { client, sent };
}

/** The value the test passes for a path parameter, so the sent path can be checked. */
const paramValue = (name: string) => `x_${name}`;

/**
 * Calls `client.beta.{resource}.{call}` the way the SDK's signatures take path parameters: the last one as
 * the first argument, the others by name in the params object. Resolves to what it threw (or `undefined`).
 */
async function callSdk(client: Anthropic, route: SdkRoute): Promise<unknown> {
  let target: unknown = client.beta;
  for (const key of route.resource.split(".")) target = Reflect.get(Object(target), key);
  const fn: unknown = Reflect.get(Object(target), route.call);
  if (typeof fn !== "function")
    throw new Error(`client.beta.${route.resource}.${route.call} is not a function`);
  const params = [...route.path.matchAll(/:([^/]+)/g)].map((m) => m[1] ?? "");
  const last = params.pop();
  const named = Object.fromEntries(params.map((p) => [p, paramValue(p)]));
  const args = last === undefined ? [named] : [paramValue(last), named];
  try {
    await Reflect.apply(fn, target, args);
    return undefined;
  } catch (error) {
    return error;
  }
}

/** The SDK calls of `client.beta` (resource and method), found by walking its resource objects. */
function sdkCalls(resource: object, prefix: string): string[] {
  return Object.entries(resource).flatMap(([key, value]) => {
    if (key.startsWith("_") || typeof value !== "object" || value === null || !("_client" in value))
      return [];
    if (prefix === "" && NOT_SERVE.has(key)) return [];
    const name = `${prefix}${key}`;
    const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(value)).filter(
      (m) => m !== "constructor" && !m.startsWith("_"),
    );
    const calls = methods.map((m) => `${name}.${m}`).filter((call) => !HELPERS.has(call));
    return [...calls, ...sdkCalls(value, `${name}.`)];
  });
}

describe("the SDK routes serve knows of", () => {
  it("are every call of the installed SDK's client.beta resources (but models, organization)", () => {
    const known = SDK_ROUTES.map((route) => `${route.resource}.${route.call}`);
    expect(new Set(known).size).toBe(known.length);
    expect(known.toSorted()).toEqual(sdkCalls(served.client().beta, "").toSorted());
  });

  it("include every /v1 route the app registers", () => {
    expect(unknownRoutes(registered)).toEqual([]);
  });

  it("are what the SDK sends: method and path of each call", async () => {
    const { client, sent } = recordingClient();
    for (const route of SDK_ROUTES) {
      sent.length = 0;
      await callSdk(client, route);
      const path = route.path.replace(/:([^/]+)/g, (_m, name: string) => paramValue(name));
      expect(sent[0], `client.beta.${route.resource}.${route.call}`).toBe(`${route.method} ${path}`);
    }
  });

  it("answer 501 not_implemented_error through the SDK when serve does not implement them, without a retry", async () => {
    const unserved = unservedRoutes(registered);
    expect(unserved.map((r) => r.resource)).toEqual(
      expect.arrayContaining(["sessions.resources", "environments.work", "vaults", "deployments"]),
    );
    const { client, sent } = recordingClient();
    for (const route of unserved) {
      sent.length = 0;
      const error = await callSdk(client, route);
      const name = `client.beta.${route.resource}.${route.call}`;
      expect(error, name).toBeInstanceOf(Anthropic.InternalServerError);
      if (!(error instanceof Anthropic.APIError)) throw error;
      expect(error.status).toBe(501);
      expect(error.error).toEqual({
        type: "error",
        error: {
          type: "not_implemented_error",
          message: `${name} (${route.method} ${route.path.replace(/:([^/]+)/g, "{$1}")}) is not implemented by skillwright serve`,
        },
        request_id: expect.stringMatching(/^req_/),
      });
      expect(error.headers?.get("x-should-retry")).toBe("false");
      expect(sent, name).toHaveLength(1);
    }
  });

  it("are listed in the README's table as the app registers them", () => {
    const table = TABLE.exec(readFileSync(README, "utf8"))?.[1];
    expect(
      table,
      "README.md's serve-routes table is out of date: run `npm run build && node scripts/serve-routes.mjs`",
    ).toBe(routeTable(registered));
  });
});

/** What `call` threw: the SDK error class, status, and the error body's type and message. */
async function refusal(
  call: () => Promise<unknown>,
): Promise<{ error: unknown; type?: string; message?: string }> {
  try {
    await call();
  } catch (error) {
    if (!(error instanceof Anthropic.APIError)) throw error;
    const body: unknown = error.error;
    const inner = typeof body === "object" && body !== null ? Reflect.get(body, "error") : undefined;
    return {
      error,
      type: typeof inner === "object" && inner !== null ? String(Reflect.get(inner, "type")) : undefined,
      message:
        typeof inner === "object" && inner !== null ? String(Reflect.get(inner, "message")) : undefined,
    };
  }
  throw new Error("the call was accepted");
}

describe("fields and event types serve does not implement answer 501 through the SDK, and change nothing", () => {
  let agentId: string;
  let environmentId: string;
  let sessionId: string;
  beforeAll(async () => {
    const client = served.client();
    agentId = (await client.beta.agents.create({ name: "a", model: "m" })).id;
    environmentId = (await client.beta.environments.create({ name: "e" })).id;
    sessionId = (await client.beta.sessions.create({ agent: agentId, environment_id: environmentId })).id;
  });

  const text = [{ type: "text" as const, text: "x" }];
  it.each<[string, (client: Anthropic) => Promise<unknown>, string]>([
    [
      "agents.create multiagent",
      (client) =>
        client.beta.agents.create({
          name: "b",
          model: "m",
          multiagent: { type: "coordinator", agents: ["self"] },
        }),
      "agents: multiagent",
    ],
    [
      "agents.update multiagent",
      (client) =>
        client.beta.agents.update(agentId, { version: 1, multiagent: { type: "coordinator", agents: [] } }),
      "agents: multiagent",
    ],
    [
      "agents.create an Anthropic skill",
      (client) =>
        client.beta.agents.create({
          name: "b",
          model: "m",
          skills: [{ type: "anthropic", skill_id: "xlsx" }],
        }),
      `skills: {"type":"anthropic"} (Anthropic's own skill "xlsx")`,
    ],
    [
      "sessions.create vault_ids",
      (client) =>
        client.beta.sessions.create({ agent: agentId, environment_id: environmentId, vault_ids: ["vlt_1"] }),
      "vault_ids (vaults)",
    ],
    [
      "sessions.create resources",
      (client) =>
        client.beta.sessions.create({
          agent: agentId,
          environment_id: environmentId,
          resources: [{ type: "github_repository", url: "https://github.com/a/b", authorization_token: "t" }],
        }),
      "github_repository session resources",
    ],
    [
      "sessions.update vault_ids",
      (client) => client.beta.sessions.update(sessionId, { vault_ids: ["vlt_1"] }),
      "vault_ids (vaults)",
    ],
    [
      "events.send user.tool_result",
      (client) =>
        client.beta.sessions.events.send(sessionId, {
          events: [{ type: "user.tool_result", tool_use_id: "sevt_1", content: text }],
        }),
      "events[0]: the event type user.tool_result",
    ],
    [
      "events.send system.message",
      (client) =>
        client.beta.sessions.events.send(sessionId, {
          events: [
            { type: "user.message", content: text },
            { type: "system.message", content: text },
          ],
        }),
      "events[1]: the event type system.message",
    ],
    [
      "sessions.list created_at[gte]",
      (client) => client.beta.sessions.list({ "created_at[gte]": "2026-01-01T00:00:00Z" }),
      "the sessions.list parameter created_at[gte]",
    ],
    [
      "sessions.list memory_store_id",
      (client) => client.beta.sessions.list({ memory_store_id: "memstore_1" }),
      "the sessions.list parameter memory_store_id",
    ],
    [
      "agents.list created_at[lte]",
      (client) => client.beta.agents.list({ "created_at[lte]": "2026-01-01T00:00:00Z" }),
      "the agents.list parameter created_at[lte]",
    ],
    [
      "events.list types",
      (client) => client.beta.sessions.events.list(sessionId, { types: ["agent.message"] }),
      "the sessions.events.list parameter types",
    ],
    [
      "events.list order desc",
      (client) => client.beta.sessions.events.list(sessionId, { order: "desc" }),
      "the sessions.events.list parameter order=desc",
    ],
  ])("%s", async (_label, call, what) => {
    const client = served.client();
    const refused = await refusal(() => call(client));
    expect(refused.error).toBeInstanceOf(Anthropic.InternalServerError);
    expect(refused).toMatchObject({
      error: { status: 501 },
      type: "not_implemented_error",
    });
    expect(
      refused.message?.startsWith(`${what} is not implemented by skillwright serve`),
      refused.message,
    ).toBe(true);
    // Nothing was made or changed: the one agent, its one version, the one session without events.
    expect((await client.beta.agents.list()).data.map((a) => [a.id, a.version])).toEqual([[agentId, 1]]);
    expect((await client.beta.sessions.list()).data.map((s) => [s.id, s.vault_ids])).toEqual([
      [sessionId, []],
    ]);
    expect((await client.beta.sessions.events.list(sessionId)).data).toEqual([]);
  });
});
