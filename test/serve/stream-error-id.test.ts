import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelClient } from "../../src/agent/model-client.js";
import { ModelError } from "../../src/agent/model-error.js";
import { ApiError } from "../../src/serve/errors.js";
import { createServeApp } from "../../src/serve/http/app.js";
import {
  DEFAULT_CONTAINER_IDLE_MS,
  DEFAULT_CONTAINER_MAX_BYTES,
} from "../../src/serve/messages/open-container.js";
import type { SessionRunner } from "../../src/serve/session-runner.js";
import type { SessionEvent } from "../../src/serve/store/sessions.js";
import { createStore, type Store } from "../../src/serve/store/store.js";
import { addApiKey, ensureWorkspace } from "../../src/serve/store/workspaces.js";
import { freshPgliteDriver } from "../support/pglite-template.js";
import { listenInProcess, sdkClient } from "./serve-process.js";

// An error that ends an event stream names the request as an error answer does: its `request_id` is the
// stream's own `request-id` header, so what a client shows and serve's access log line name one request.

/** A stream that fails before its first event. */
async function* broken(): AsyncGenerator<SessionEvent> {
  yield* [];
  throw new ApiError("api_error", "the stream broke");
}

let store: Store;
let url: string;
let close: () => Promise<void>;
beforeAll(async () => {
  store = await createStore(await freshPgliteDriver());
  await addApiKey(store.db, await ensureWorkspace(store.db, "default"), "k");
  // A session stream that fails after its first event, and an upstream model that is always overloaded.
  const runner: SessionRunner = {
    send: async (workspaceId, session, events) =>
      store.sessions.appendEvents(workspaceId, session.id, events),
    subscribe: async () => broken(),
  };
  const client: ModelClient = {
    stream: async () => {
      throw new ModelError("overloaded", "upstream is overloaded");
    },
  };
  ({ url, close } = await listenInProcess(
    createServeApp({
      store,
      runner,
      messages: {
        store,
        client,
        sandbox: { tier: "none" },
        limits: { idleMs: DEFAULT_CONTAINER_IDLE_MS, maxBytes: DEFAULT_CONTAINER_MAX_BYTES },
      },
    }),
  ));
}, 60_000);
afterAll(async () => {
  await close?.();
  await store?.close();
});

/** The `error` event of an SSE response's text, parsed. */
function errorEvent(text: string): { type: string; error: { type: string }; request_id?: string } {
  const data = /event: error\ndata: (.*)\n/.exec(text)?.[1];
  if (data === undefined) throw new Error(`no error event in:\n${text}`);
  return JSON.parse(data);
}

describe("an error event inside a stream", () => {
  it("carries the request's id on a session's event stream", async () => {
    const c = sdkClient(url, "k");
    const env = await c.beta.environments.create({ name: "e" });
    const agent = await c.beta.agents.create({ name: "a", model: "claude-sonnet-5-5" });
    const session = await c.beta.sessions.create({ agent: agent.id, environment_id: env.id });
    const response = await fetch(`${url}/v1/sessions/${session.id}/events/stream?beta=true`, {
      headers: { "x-api-key": "k", accept: "text/event-stream" },
    });
    const id = response.headers.get("request-id");
    expect(id).toMatch(/^req_/);
    const event = errorEvent(await response.text());
    expect(event.error.type).toBe("api_error");
    expect(event.request_id).toBe(id);
  });

  it("carries the request's id on a streamed Messages request", async () => {
    const response = await fetch(`${url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "k", "content-type": "application/json" },
      body: JSON.stringify({
        model: "claude-sonnet-5-5",
        max_tokens: 100,
        stream: true,
        messages: [{ role: "user", content: "hi" }],
      }),
    });
    const id = response.headers.get("request-id");
    expect(id).toMatch(/^req_/);
    const event = errorEvent(await response.text());
    expect(event).toMatchObject({ type: "error", error: { type: "overloaded_error" }, request_id: id });
  });
});
