import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { followEvents } from "../../src/serve/events/follow-events.js";
import { createServeApp } from "../../src/serve/http/app.js";
import type { SessionRunner } from "../../src/serve/session-runner.js";
import { createStore, type Store } from "../../src/serve/store/store.js";
import { addApiKey, ensureWorkspace } from "../../src/serve/store/workspaces.js";
import { freshPgliteDriver } from "../support/pglite-template.js";
import { listenInProcess, sdkClient } from "./serve-process.js";

// The seam a later change fills with the engine: with a SessionRunner injected, the events routes take
// user events and stream what is appended (read back from the store) as SSE the official SDK reads.

let store: Store;
let url: string;
let close: () => Promise<void>;
beforeAll(async () => {
  store = await createStore(await freshPgliteDriver());
  await addApiKey(store.db, await ensureWorkspace(store.db, "default"), "k");
  // A stand-in for the engine: answers each user message with its text reversed, then goes idle.
  const runner: SessionRunner = {
    async send(workspaceId, session, events) {
      const stored = await store.sessions.appendEvents(workspaceId, session.id, events);
      const text = JSON.stringify(events[0]?.content ?? "");
      await store.sessions.appendEvents(workspaceId, session.id, [
        { type: "session.status_running" },
        { type: "agent.message", content: [{ type: "text", text: [...text].reverse().join("") }] },
        { type: "session.status_idle", stop_reason: { type: "end_turn" } },
      ]);
      return stored;
    },
    subscribe: (workspaceId, sessionId, signal) =>
      followEvents(store.sessions, workspaceId, sessionId, signal),
  };
  ({ url, close } = await listenInProcess(createServeApp({ store, runner })));
}, 60_000);
afterAll(async () => {
  await close?.();
  await store?.close();
});

describe("the SessionRunner seam", () => {
  it("streams the events appended after a user.message to the SDK, and lists them all", async () => {
    const client = sdkClient(url, "k");
    const env = await client.beta.environments.create({ name: "e" });
    const agent = await client.beta.agents.create({ name: "a", model: "claude-sonnet-5-5" });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: env.id });
    const stream = await client.beta.sessions.events.stream(session.id);
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: "user.message", content: [{ type: "text", text: "abc" }] }],
    });
    const seen: string[] = [];
    for await (const event of stream) {
      seen.push(event.type);
      if (event.type === "agent.message") expect(JSON.stringify(event.content)).toContain("cba");
      if (event.type === "session.status_idle") break;
    }
    expect(seen).toEqual(["user.message", "session.status_running", "agent.message", "session.status_idle"]);
    const listed = [];
    for await (const event of client.beta.sessions.events.list(session.id)) listed.push(event.type);
    expect(listed).toEqual(seen);
  });
});
