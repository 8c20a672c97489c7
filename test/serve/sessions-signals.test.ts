import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEventSignals } from "../../src/serve/events/event-signals.js";
import { followEvents } from "../../src/serve/events/follow-events.js";
import { createServedSessionIo } from "../../src/serve/sessions/session-io.js";
import type { SessionStore } from "../../src/serve/store/sessions.js";
import { createStore, type Store } from "../../src/serve/store/store.js";
import { ensureWorkspace } from "../../src/serve/store/workspaces.js";
import { freshPgliteDriver } from "../support/pglite-template.js";

// Streams wake on a notify instead of waiting out their poll interval (a minute here: a missed wake-up
// would make the test time out).
const MINUTE = 60_000;

let store: Store;
let ws: string;
beforeAll(async () => {
  store = await createStore(await freshPgliteDriver());
  ws = await ensureWorkspace(store.db, "default");
}, 60_000);
afterAll(async () => {
  await store?.close();
});

/** A session of the default workspace. */
function newSession() {
  return store.sessions.create(ws, {
    agent: {
      type: "agent",
      id: "agent_1",
      version: 1,
      name: "a",
      description: null,
      model: { id: "claude-sonnet-5-5", speed: "standard" },
      system: null,
      skills: [],
      tools: [],
      mcp_servers: [],
      execution_identity: { type: "service_account" },
      multiagent: null,
    },
    environmentId: "env_1",
    title: null,
    metadata: {},
    vault_ids: [],
  });
}

describe("event signals", () => {
  it("a wait armed before a notify resolves at once, even when the notify came first", async () => {
    const signals = createEventSignals();
    const armed = signals.arm("s1");
    signals.notify("s1");
    await armed(MINUTE, new AbortController().signal);
    const later = signals.arm("s1");
    const waiting = later(MINUTE, new AbortController().signal);
    signals.notify("s1");
    await waiting;
  });

  it("wakes followEvents on an append, with a poll interval of a minute", async () => {
    const signals = createEventSignals();
    const session = await newSession();
    const abort = new AbortController();
    const events = await followEvents(
      store.sessions,
      ws,
      session.id,
      abort.signal,
      () => signals.arm(session.id),
      MINUTE,
    );
    const iterator = events[Symbol.asyncIterator]();
    const next = iterator.next();
    await new Promise((resolve) => setImmediate(resolve));
    await store.sessions.appendEvents(ws, session.id, [{ type: "session.status_running" }]);
    signals.notify(session.id);
    expect((await next).value).toMatchObject({ type: "session.status_running" });
    abort.abort();
  }, 20_000);

  it("gives a stream the events this instance appended without reading them back; another's are read", async () => {
    const signals = createEventSignals();
    const session = await newSession();
    let reads = 0;
    const counted: SessionStore = {
      ...store.sessions,
      eventsSince: (...args) => {
        reads++;
        return store.sessions.eventsSince(...args);
      },
    };
    const io = createServedSessionIo({
      store: { ...store, sessions: counted },
      signals,
      followIntervalMs: MINUTE,
    });
    const abort = new AbortController();
    const iterator = (await io.follow(ws, session.id, abort.signal))[Symbol.asyncIterator]();
    const next = () => iterator.next().then((r) => r.value?.type);
    const first = next();
    await io.append(ws, session.id, [
      { type: "session.status_running" },
      { type: "span.model_request_start" },
    ]);
    expect(await first).toBe("session.status_running");
    expect(await next()).toBe("span.model_request_start");
    await io.append(ws, session.id, [{ type: "session.status_idle" }], "idle");
    expect(await next()).toBe("session.status_idle");
    expect(reads).toBe(0);
    // Another instance's append is only announced: the stream reads the store for it.
    const remote = next();
    await store.sessions.appendEvents(ws, session.id, [{ type: "session.status_running" }]);
    signals.notify(session.id);
    expect(await remote).toBe("session.status_running");
    expect(reads).toBe(1);
    abort.abort();
  }, 120_000);
});
