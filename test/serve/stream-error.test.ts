import { APIError } from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStore, type Store } from "../../src/serve/store/store.js";
import { freshPgliteDriver } from "../support/pglite-template.js";
import { type ServedApp, startServedApp } from "../support/served-app.js";

// An event stream that a server-side failure ends says why before it closes: an SSE `error` message, which the
// official SDK client throws. The store is real (PGlite); its event reads are made to fail on demand, as a
// database outage does.

let store: Store;
let served: ServedApp;
/** What the next event read throws; undefined: reads work. */
let failure: Error | undefined;

beforeAll(async () => {
  const real = await createStore(await freshPgliteDriver());
  store = {
    ...real,
    sessions: {
      ...real.sessions,
      eventsSince: async (workspaceId, id, after) => {
        if (failure !== undefined) throw failure;
        return real.sessions.eventsSince(workspaceId, id, after);
      },
    },
  };
  served = await startServedApp({ store });
}, 60_000);
afterAll(async () => {
  await served?.close();
  await store?.close();
});

/** Opens a session's stream, then makes the store's reads throw `error`; resolves with what the SDK threw. */
async function streamFailure(error: Error): Promise<unknown> {
  failure = undefined;
  const client = served.client();
  const environment = await client.beta.environments.create({ name: `e-${Math.random()}` });
  const agent = await client.beta.agents.create({ name: "a", model: "claude-sonnet-4-6" });
  const session = await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id });
  const stream = await client.beta.sessions.events.stream(session.id);
  failure = error;
  try {
    for await (const _event of stream) {
      // No events are sent: the stream ends only through the failure.
    }
    return "the stream ended without an error";
  } catch (thrown) {
    return thrown;
  } finally {
    failure = undefined;
  }
}

describe("an event stream ended by a server-side failure", () => {
  it("sends an overloaded_error when the database is unreachable", async () => {
    const thrown = await streamFailure(
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
    );
    expect(thrown).toBeInstanceOf(APIError);
    expect(thrown).toMatchObject({
      type: "overloaded_error",
      error: {
        type: "error",
        error: { type: "overloaded_error", message: expect.stringContaining("database") },
      },
    });
  });

  it("sends an api_error for any other failure, without its details", async () => {
    const thrown = await streamFailure(new Error("SECRET internal detail"));
    expect(thrown).toBeInstanceOf(APIError);
    expect(thrown).toMatchObject({ type: "api_error" });
    expect(JSON.stringify(thrown)).not.toContain("SECRET");
  });
});
