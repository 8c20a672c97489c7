import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type TestPostgres } from "../../src/dev/postgres.js";
import { EVENTS_CHANNEL, listenForEvents } from "../../src/serve/events/pg-listen.js";
import { openDriver } from "../../src/serve/store/open-driver.js";
import { createStore, type Store } from "../../src/serve/store/store.js";
import { ensureWorkspace } from "../../src/serve/store/workspaces.js";

// An append of session events NOTIFYs the other instances in the same statement (no second round trip), and
// only once its events are stored: a listener woken by it finds them.

let postgres: TestPostgres;
let store: Store;
let url: string;
beforeAll(async () => {
  postgres = await startPostgres();
  url = await postgres.createDatabase("append_notify");
  store = await createStore(await openDriver(url));
}, 60_000);
afterAll(async () => {
  await store?.close();
  await postgres?.stop();
});

describe("appendEvents with notify", () => {
  it("announces the session on the channel, and the woken listener reads the events", async () => {
    const ws = await ensureWorkspace(store.db, "default");
    const environment = await store.environments.create(ws, {
      name: "notify-env",
      description: null,
      config: { type: "self_hosted" },
      metadata: {},
    });
    const agent = await store.agents.create(ws, {
      name: "notifier",
      description: null,
      model: { id: "claude-sonnet-4-5" },
      system: null,
      skills: [],
      tools: [],
      mcp_servers: [],
      metadata: {},
      execution_identity: { type: "service_account" },
      multiagent: null,
    });
    const session = await store.sessions.create(ws, {
      agent: { ...agent, type: "agent", multiagent: null },
      environmentId: environment.id,
      title: null,
      metadata: {},
      vault_ids: [],
    });
    const found: string[] = [];
    const woken = new Promise<void>((resolve, reject) => {
      void listenForEvents(url, (id) => {
        store.sessions
          .eventsSince(ws, id, 0)
          .then((events) => {
            found.push(...events.map((e) => e.event.type));
            resolve();
          })
          .catch(reject);
      }).then((listener) => woken.finally(() => listener.close()));
    });
    // The listener is connected once listenForEvents resolves; give it a moment by appending until woken.
    const timer = setInterval(() => {
      void store.sessions.appendEvents(ws, session.id, [{ type: "agent.message" }], {
        notify: EVENTS_CHANNEL,
      });
    }, 100);
    try {
      await woken;
    } finally {
      clearInterval(timer);
    }
    expect(found[0]).toBe("agent.message");
  });
});
