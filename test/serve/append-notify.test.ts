import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type TestPostgres } from "../../src/dev/postgres.js";
import { EVENTS_CHANNEL, listenForEvents } from "../../src/serve/events/pg-listen.js";
import { openDriver } from "../../src/serve/store/open-driver.js";
import { createStore, type Store } from "../../src/serve/store/store.js";
import { ensureWorkspace } from "../../src/serve/store/workspaces.js";
import { createStoredSession } from "../support/stored-session.js";

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
    const sessionId = await createStoredSession(store, ws, "notifier");
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
      void store.sessions.appendEvents(ws, sessionId, [{ type: "agent.message" }], {
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
