import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { followEvents } from "../../src/serve/events/follow-events.js";
import { checkUserAnswers, pendingCustomToolUses } from "../../src/serve/sessions/confirmation-check.js";
import { openDriver } from "../../src/serve/store/open-driver.js";
import type { SessionEvent, SessionStore } from "../../src/serve/store/sessions.js";
import { createStore, type Store } from "../../src/serve/store/store.js";
import { ensureWorkspace } from "../../src/serve/store/workspaces.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { createStoredSession } from "../support/stored-session.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

// A confirmation check (and the start of a follow) on a session with a long history reads only the current
// turn's events (the rows `eventsSince` returns are counted), and still answers as before.

let tree: TmpTree;
let store: Store;
let ws: string;
beforeAll(async () => {
  tree = await tmpTree({});
  store = await createStore(await openDriver(await freshPgliteDir(tree.path("pglite"))));
  ws = await ensureWorkspace(store.db, "default");
}, 60_000);
afterAll(async () => {
  await store?.close();
  await tree?.cleanup();
});

function newSession(): Promise<string> {
  return createStoredSession(store, ws, "asker");
}

/** The session store, counting the events its `eventsSince` returns. */
function counting(): { sessions: SessionStore; read: () => number } {
  let read = 0;
  const real = store.sessions;
  return {
    sessions: {
      ...real,
      async eventsSince(workspaceId, id, after) {
        const page = await real.eventsSince(workspaceId, id, after);
        read += page.length;
        return page;
      },
    },
    read: () => read,
  };
}

const askIdle = (ids: string[]) => ({
  type: "session.status_idle",
  stop_reason: { type: "requires_action", event_ids: ids },
});
const endIdle = { type: "session.status_idle", stop_reason: { type: "end_turn" } };
const confirm = (id: string, result = "allow") => ({
  type: "user.tool_confirmation",
  tool_use_id: id,
  result,
});

describe("the confirmation check on a long history", () => {
  let session: string;
  let oldAsk: string;
  let pending: string;
  let answered: string;

  beforeAll(async () => {
    session = await newSession();
    // An early turn left a call waiting, then ended (interrupted): that call is no longer pending.
    const early = await store.sessions.appendEvents(ws, session, [
      { type: "user.message", content: [] },
      { type: "agent.tool_use", name: "Write", input: {} },
    ]);
    oldAsk = early[1]?.id ?? "";
    await store.sessions.appendEvents(ws, session, [askIdle([oldAsk]), endIdle]);
    // 2,500 turns of history (more than two pages of `eventsSince`).
    for (let batch = 0; batch < 5; batch += 1) {
      const turns = Array.from({ length: 100 }, () => [
        { type: "user.message", content: [] },
        { type: "agent.message", content: [] },
        { type: "agent.tool_use", name: "Read", input: {} },
        askIdle([]),
        endIdle,
      ]).flat();
      await store.sessions.appendEvents(ws, session, turns);
    }
    // The current turn: two calls wait, one is answered already.
    const stored = await store.sessions.appendEvents(ws, session, [
      { type: "user.message", content: [] },
      { type: "session.status_running" },
      { type: "agent.tool_use", name: "Write", input: { file_path: "/a" } },
      { type: "agent.tool_use", name: "Bash", input: { command: "ls" } },
    ]);
    pending = stored[2]?.id ?? "";
    answered = stored[3]?.id ?? "";
    await store.sessions.appendEvents(ws, session, [askIdle([pending, answered]), confirm(answered, "deny")]);
  }, 60_000);

  it("accepts the pending call's confirmation, reading only the current turn's events", async () => {
    const { sessions, read } = counting();
    await checkUserAnswers(sessions, ws, session, [confirm(pending)]);
    expect(read()).toBeLessThanOrEqual(8);
  });

  it("still refuses an answered call, a call of an ended turn, an unknown id and a repeat in one batch", async () => {
    for (const [id, events] of [
      [answered, [confirm(answered)]],
      [oldAsk, [confirm(oldAsk)]],
      ["sevt_unknown", [confirm("sevt_unknown")]],
      [pending, [confirm(pending), confirm(pending, "deny")]],
    ] as const) {
      const { sessions, read } = counting();
      await expect(checkUserAnswers(sessions, ws, session, events)).rejects.toThrow(
        `${JSON.stringify(id)} is not a tool use awaiting confirmation in this session`,
      );
      expect(read()).toBeLessThanOrEqual(8);
    }
  });

  it("refuses a session of another workspace as not found", async () => {
    const other = await ensureWorkspace(store.db, "other");
    await expect(checkUserAnswers(store.sessions, other, session, [confirm(pending)])).rejects.toThrow(
      /session/,
    );
  });

  it("starts a follow after the last event without reading the history", async () => {
    const { sessions, read } = counting();
    const abort = new AbortController();
    const events = await followEvents(sessions, ws, session, abort.signal, () => async () => {});
    expect(read()).toBe(0);
    await store.sessions.appendEvents(ws, session, [{ type: "agent.message", content: [] }]);
    const next = await events[Symbol.asyncIterator]().next();
    abort.abort();
    expect(next.value?.type).toBe("agent.message");
    expect(read()).toBe(1);
  });
});

describe("pendingCustomToolUses", () => {
  const event = (id: string, type: string, fields: Record<string, unknown> = {}): SessionEvent => ({
    id,
    type,
    processed_at: "2026-01-01T00:00:00Z",
    ...fields,
  });
  const use = (id: string) => event(id, "agent.custom_tool_use", { name: "lookup", input: {} });
  const result = (id: string, on: string) => event(id, "user.custom_tool_result", { custom_tool_use_id: on });
  it.each([
    ["a stored use, before its idle", [use("c1")], ["c1"]],
    [
      "a use a requires_action idle names",
      [use("c1"), event("i1", "session.status_idle", askIdle(["c1"]))],
      ["c1"],
    ],
    ["two parallel uses, one answered", [use("c1"), use("c2"), result("r1", "c1")], ["c2"]],
    ["an answered use", [use("c1"), result("r1", "c1")], []],
    ["a use of an ended turn", [use("c1"), event("i1", "session.status_idle", endIdle)], []],
    ["a tool use awaiting confirmation (not a custom tool)", [event("t1", "agent.tool_use")], []],
  ])("%s", (_label, events, pending) => {
    expect([...pendingCustomToolUses(events)]).toEqual(pending);
  });
});
