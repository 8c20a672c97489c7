import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findAnsweredWaits, waitMark } from "../../src/serve/store/session-waits.js";
import { createStore, type Store } from "../../src/serve/store/store.js";
import { ensureWorkspace } from "../../src/serve/store/workspaces.js";
import { freshPgliteDriver } from "../support/pglite-template.js";
import { createStoredSession } from "../support/stored-session.js";

// The orphan sweep's one query: which sessions wait on the user with every event they wait on answered. The
// store is real (PGlite); the events are appended as a turn and its user append them.

const waiting = (ids: string[]) => ({
  type: "session.status_idle",
  stop_reason: { type: "requires_action", event_ids: ids },
  stop_details: null,
});
const ended = { type: "session.status_idle", stop_reason: { type: "end_turn" }, stop_details: null };
const running = { type: "session.status_running" };
const use = { type: "agent.custom_tool_use", name: "lookup", input: {} };
const result = (id: string) => ({ type: "user.custom_tool_result", custom_tool_use_id: id, content: [] });
const confirm = (id: string) => ({ type: "user.tool_confirmation", tool_use_id: id, result: "allow" });

describe("waitMark", () => {
  it("marks the last status event of an append: a wait, anything else, or none", () => {
    expect(waitMark([use])).toBeUndefined();
    expect(waitMark([use, waiting(["e"])])).toBe(2);
    expect(waitMark([waiting(["e"]), running])).toBe(0);
    expect(waitMark([running, use, waiting(["e"]), result("e")])).toBe(3);
    expect(waitMark([ended])).toBe(0);
  });
});

describe("findAnsweredWaits", () => {
  let store: Store;
  let ws: string;
  beforeAll(async () => {
    store = await createStore(await freshPgliteDriver());
    ws = await ensureWorkspace(store.db, "default");
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });

  /** A session whose turn stored two calls and waits on both; resolves with its id and the calls' ids. */
  async function waitingSession(name: string) {
    const id = await createStoredSession(store, ws, name);
    await store.sessions.appendEvents(ws, id, [{ type: "user.message", content: [] }, running], {
      status: "running",
    });
    const [first, second] = await store.sessions.appendEvents(ws, id, [use, use]);
    const ids = [first?.id ?? "", second?.id ?? ""];
    await store.sessions.appendEvents(ws, id, [waiting(ids)], { status: "idle" });
    return { id, ids };
  }
  const found = async () => (await findAnsweredWaits(store.db)).map((w) => w.sessionId);

  it("finds a wait once every call is answered, and no longer once the turn goes on", async () => {
    const a = await waitingSession("all-answered");
    expect(await found()).not.toContain(a.id);
    await store.sessions.appendEvents(ws, a.id, [result(a.ids[0] ?? "")]);
    expect(await found()).not.toContain(a.id);
    await store.sessions.appendEvents(ws, a.id, [confirm(a.ids[1] ?? "")]);
    expect(await found()).toEqual(expect.arrayContaining([a.id]));
    expect((await findAnsweredWaits(store.db)).find((w) => w.sessionId === a.id)?.workspaceId).toBe(ws);
    await store.sessions.appendEvents(ws, a.id, [running], { status: "running" });
    expect(await found()).not.toContain(a.id);
  });

  it("counts an answer stored before the last wait event, and skips archived sessions", async () => {
    const b = await waitingSession("answered-early");
    await store.sessions.appendEvents(ws, b.id, [result(b.ids[0] ?? "")]);
    // The owner had not read the first answer when it stored the wait again, then the second answer came.
    await store.sessions.appendEvents(ws, b.id, [waiting(b.ids), result(b.ids[1] ?? "")], { status: "idle" });
    expect(await found()).toContain(b.id);
    await store.sessions.archive(ws, b.id);
    expect(await found()).not.toContain(b.id);
  });

  it("ignores an answer naming another call, and a wait that ended", async () => {
    const c = await waitingSession("wrong-answers");
    await store.sessions.appendEvents(ws, c.id, [result(c.ids[0] ?? ""), result("sevt_other")]);
    expect(await found()).not.toContain(c.id);
    await store.sessions.appendEvents(ws, c.id, [ended, result(c.ids[1] ?? "")], { status: "idle" });
    expect(await found()).not.toContain(c.id);
  });
});
