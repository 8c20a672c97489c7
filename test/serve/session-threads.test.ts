import type Anthropic from "@anthropic-ai/sdk";
import { toFile } from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelClient } from "../../src/agent/model-client.js";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { openPgliteDriver } from "../../src/serve/store/pglite-driver.js";
import { createStore, type Store } from "../../src/serve/store/store.js";
import { httpFaultTurn, TEST_API_KEY, textTurn, toolTurn } from "../support/model-server.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { type ServedApp, startServedApp } from "../support/served-app.js";
import { readUntil, type StreamEvent, userMessage } from "../support/session-stream.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

/** The events of a fork that answers in one request, in order: what its thread shows in both listings. */
const FORK_EVENT_TYPES = [
  "session.thread_created",
  "session.thread_status_running",
  "span.model_request_start",
  "agent.message",
  "span.model_request_end",
  "session.thread_status_idle",
];

// A served session whose skill runs `context: fork`: the fork is a child thread the official SDK client sees
// (`session.thread_*` events, `client.beta.sessions.threads`), and the session's usage and stats sum every
// model request (the fork's included) from the database, so they survive a restart.

type Usage = {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
};

const withUsage = (turn: ScriptTurnInput, usage: Usage): ScriptTurnInput =>
  "response" in turn && turn.response !== undefined
    ? { ...turn, response: { ...turn.response, usage } }
    : turn;

let tree: TmpTree;
let model: ModelServer;
let store: Store;
let served: ServedApp;
let client: Anthropic;

const openServed = async () => {
  store = await createStore(await openPgliteDriver(tree.path("data")));
  served = await startServedApp({
    store,
    runner: { client: createModelClient({ apiKey: TEST_API_KEY, baseURL: model.url }) },
  });
  client = served.client();
};

beforeAll(async () => {
  tree = await tmpTree({ ".keep": "" });
  await freshPgliteDir(tree.path("data"));
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: {
      turns: [
        withUsage(
          toolTurn("Skill", { skill: "research" }, { match: { lastUserTextIncludes: "go research" } }),
          {
            input_tokens: 100,
            output_tokens: 10,
            cache_read_input_tokens: 5,
            cache_creation_input_tokens: 7,
          },
        ),
        withUsage(textTurn("fork found 42", { agentId: "*", lastUserTextIncludes: "RESEARCH-BODY" }), {
          input_tokens: 200,
          output_tokens: 20,
          cache_read_input_tokens: 0,
          cache_creation_input_tokens: 0,
        }),
        withUsage(textTurn("All done.", { hasToolResultFor: "Skill", toolResultIncludes: "fork found 42" }), {
          input_tokens: 300,
          output_tokens: 30,
          cache_read_input_tokens: 50,
          cache_creation_input_tokens: 0,
        }),
        toolTurn("Skill", { skill: "broken" }, { match: { lastUserTextIncludes: "go broken" } }),
        httpFaultTurn(400, { agentId: "*", lastUserTextIncludes: "BROKEN-BODY" }),
        textTurn("It failed.", { hasToolResultFor: "Skill", toolResultIncludes: "failed" }),
      ],
    },
  });
  await openServed();
}, 60_000);
afterAll(async () => {
  await served?.close();
  await store?.close();
  await model?.close();
  await tree?.cleanup();
});

const skillFile = (name: string, body: string) =>
  toFile(
    Buffer.from(`---\nname: ${name}\ndescription: Forks ${name}\ncontext: fork\n---\n${body}\n`),
    `${name}/SKILL.md`,
  );

async function turn(sessionId: string, text: string): Promise<StreamEvent[]> {
  const stream = await client.beta.sessions.events.stream(sessionId);
  try {
    await client.beta.sessions.events.send(sessionId, userMessage(text));
    return await readUntil(stream[Symbol.asyncIterator](), (e) => e.type === "session.status_idle");
  } finally {
    stream.controller.abort();
  }
}

const threadOf = (e: StreamEvent) => ("session_thread_id" in e ? e.session_thread_id : undefined);

describe("a forked skill in a served session", () => {
  let sessionId: string;
  let forkId: string;

  it("streams the fork as a child thread: created, running, its own events tagged, idle with end_turn", async () => {
    const research = await client.beta.skills.create({
      files: [await skillFile("research", "RESEARCH-BODY")],
    });
    const broken = await client.beta.skills.create({ files: [await skillFile("broken", "BROKEN-BODY")] });
    const environment = await client.beta.environments.create({ name: "e" });
    const agent = await client.beta.agents.create({
      name: "lead",
      model: "claude-sonnet-4-6",
      skills: [
        { type: "custom", skill_id: research.id },
        { type: "custom", skill_id: broken.id },
      ],
    });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id });
    sessionId = session.id;

    const events = await turn(sessionId, "go research");
    const created = events.find((e) => e.type === "session.thread_created");
    expect(created).toMatchObject({ agent_name: "research", workflow_run_id: null });
    forkId = String(threadOf(created as StreamEvent));
    expect(forkId).toMatch(/^sthr_/);
    const forks = events.filter((e) => threadOf(e) === forkId).map((e) => e.type);
    expect(forks).toEqual(FORK_EVENT_TYPES);
    expect(events.find((e) => e.type === "session.thread_status_idle")).toMatchObject({
      agent_name: "research",
      stop_reason: { type: "end_turn" },
      stop_details: null,
    });
    const messages = events.flatMap((e) => (e.type === "agent.message" ? [[threadOf(e), e.content]] : []));
    expect(messages).toEqual([
      [forkId, [{ type: "text", text: "fork found 42" }]],
      [undefined, [{ type: "text", text: "All done." }]],
    ]);
    // The fork's events are in the session's history too, as streamed.
    const listed = [];
    for await (const event of client.beta.sessions.events.list(sessionId)) listed.push(event);
    expect(listed.filter((e) => threadOf(e as StreamEvent) === forkId).map((e) => e.type)).toEqual(forks);
  });

  it("lists the primary thread and the fork's thread, with their usage; retrieves and reads each", async () => {
    const threads = [];
    for await (const thread of client.beta.sessions.threads.list(sessionId)) threads.push(thread);
    expect(threads.map((t) => t.id)).toEqual([sessionId.replace(/^sesn_/, "sthr_"), forkId]);
    const [primary, fork] = threads;
    expect(primary).toMatchObject({
      type: "session_thread",
      session_id: sessionId,
      parent_thread_id: null,
      status: "idle",
      archived_at: null,
      workflow_run_id: null,
      agent: { type: "agent", name: "lead" },
      usage: {
        input_tokens: 400,
        output_tokens: 40,
        cache_read_input_tokens: 55,
        cache_creation: { ephemeral_5m_input_tokens: 7, ephemeral_1h_input_tokens: 0 },
      },
    });
    expect(fork).toMatchObject({
      type: "session_thread",
      session_id: sessionId,
      parent_thread_id: primary?.id,
      status: "idle",
      agent: { type: "inline", name: "research", model: { id: expect.any(String) } },
      usage: { input_tokens: 200, output_tokens: 20, cache_read_input_tokens: 0 },
      stats: { startup_seconds: 0 },
    });
    expect(fork?.stats?.active_seconds).toBeGreaterThanOrEqual(0);
    expect(fork?.stats?.duration_seconds).toBeGreaterThanOrEqual(fork?.stats?.active_seconds ?? 0);
    const again = await client.beta.sessions.threads.retrieve(forkId, { session_id: sessionId });
    expect({ ...again, stats: null }).toEqual({ ...fork, stats: null });

    const own = [];
    for await (const event of client.beta.sessions.threads.events.list(forkId, { session_id: sessionId }))
      own.push(event.type);
    expect(own).toEqual(FORK_EVENT_TYPES);
    const main = [];
    for await (const event of client.beta.sessions.threads.events.list(primary?.id ?? "", {
      session_id: sessionId,
    }))
      main.push(event);
    expect(main.some((e) => e.type === "agent.message" && JSON.stringify(e).includes("fork found"))).toBe(
      false,
    );
    expect(main.map((e) => e.type)).toContain("session.thread_status_idle");

    await expect(
      client.beta.sessions.threads.retrieve("sthr_unknown", { session_id: sessionId }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("sums every model request (the fork's included) into the session's usage, and times it in stats", async () => {
    const session = await client.beta.sessions.retrieve(sessionId);
    expect(session.usage).toMatchObject({
      input_tokens: 600,
      output_tokens: 60,
      cache_read_input_tokens: 55,
      cache_creation: { ephemeral_5m_input_tokens: 7, ephemeral_1h_input_tokens: 0 },
    });
    expect(session.usage.active_seconds).toBeGreaterThan(0);
    // stats adds each thread's running time up: the session's own and its forks'.
    expect(session.stats.active_seconds).toBeGreaterThanOrEqual(session.usage.active_seconds ?? 0);
    expect(session.stats.duration_seconds).toBeGreaterThanOrEqual(session.usage.active_seconds ?? 0);
  });

  it("shows a failing fork idle with retries_exhausted, then terminated, on the primary thread's stream", async () => {
    const primaryId = sessionId.replace(/^sesn_/, "sthr_");
    const stream = await client.beta.sessions.threads.events.stream(primaryId, { session_id: sessionId });
    let events: StreamEvent[];
    try {
      await client.beta.sessions.events.send(sessionId, userMessage("go broken"));
      events = await readUntil(stream[Symbol.asyncIterator](), (e) => e.type === "session.status_idle");
    } finally {
      stream.controller.abort();
    }
    const statuses = events
      .filter((e) => e.type.startsWith("session.thread_"))
      .map((e) => [e.type, "stop_reason" in e ? e.stop_reason : undefined]);
    expect(statuses).toEqual([
      ["session.thread_created", undefined],
      ["session.thread_status_running", undefined],
      ["session.thread_status_idle", { type: "retries_exhausted" }],
      ["session.thread_status_terminated", undefined],
    ]);
    // The primary thread's stream has the fork's status events only, not its own (its failed span).
    expect(events.filter((e) => threadOf(e) !== undefined && !e.type.startsWith("session.thread_"))).toEqual(
      [],
    );
    const terminated = [];
    for await (const thread of client.beta.sessions.threads.list(sessionId, { statuses: ["terminated"] }))
      terminated.push(thread);
    expect(
      terminated.map((t) => ["name" in t.agent ? t.agent.name : "", t.status, t.parent_thread_id]),
    ).toEqual([["broken", "terminated", primaryId]]);
  });

  it("keeps threads, usage and stats in the database: a restarted server lists the same", async () => {
    const before = await client.beta.sessions.retrieve(sessionId);
    const threadsBefore = (await client.beta.sessions.threads.list(sessionId)).data;
    await served.close();
    await store.close();
    await openServed();
    const after = await client.beta.sessions.retrieve(sessionId);
    expect(after.usage).toEqual(before.usage);
    const threadsAfter = (await client.beta.sessions.threads.list(sessionId)).data;
    const key = (t: { id: string; status: string; usage: unknown }) => [t.id, t.status, t.usage];
    expect(threadsAfter.map(key)).toEqual(threadsBefore.map(key));
    const archived = await client.beta.sessions.threads.archive(forkId, { session_id: sessionId });
    expect(archived.archived_at).not.toBeNull();
  });
});
