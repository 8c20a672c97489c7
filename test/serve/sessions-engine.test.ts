import type Anthropic from "@anthropic-ai/sdk";
import type { BetaManagedAgentsStreamSessionEvents } from "@anthropic-ai/sdk/resources/beta/sessions/events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { TEST_API_KEY, textTurn, toolTurn } from "../support/model-server.js";
import { readUntil, sayAndRead } from "../support/session-stream.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { greetSkillTurns, uploadGreetSkills } from "./greet-skills.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

// Served sessions run the engine: the official SDK client against the shipped bin's `serve`, whose sessions
// call the scripted Messages API server (ANTHROPIC_BASE_URL) with the agent's store skills and custom tools.

const KEY = "sk-sessions";
type Event = BetaManagedAgentsStreamSessionEvents;

let tree: TmpTree;
let model: ModelServer;
let server: ServeProcess;
let client: Anthropic;
let db: string;

const serveEnv = () => ({ ANTHROPIC_API_KEY: TEST_API_KEY, ANTHROPIC_BASE_URL: model.url });

beforeAll(async () => {
  tree = await tmpTree({ "home/.keep": "" });
  db = tree.path("data");
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: {
      turns: [
        textTurn("Hello from the engine.", { lastUserTextIncludes: "hello" }),
        ...greetSkillTurns(),
        toolTurn("lookup_order", { order: "42" }, { match: { lastUserTextIncludes: "where is my order" } }),
        textTurn("Your order has shipped.", {
          hasToolResultFor: "lookup_order",
          toolResultIncludes: "SHIPPED",
        }),
      ],
    },
  });
  server = await startServe(["--db", db, "--api-key", KEY], serveEnv());
  client = sdkClient(server.url, KEY);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await model?.close();
  await tree?.cleanup();
});

/** Reads `events` until `stop` says so; returns what was read. */
const idle = (reason: string) => (e: Event) =>
  e.type === "session.status_idle" && e.stop_reason.type === reason;

async function openAgentSession() {
  const { greet, forky } = await uploadGreetSkills(client);
  const env = await client.beta.environments.create({ name: `env-${Date.now()}` });
  const agent = await client.beta.agents.create({
    name: "helper",
    model: "claude-sonnet-5-5",
    system: "You are the test agent.",
    skills: [
      { type: "custom", skill_id: greet.id },
      { type: "custom", skill_id: forky.id },
    ],
    tools: [
      {
        type: "custom",
        name: "lookup_order",
        description: "Looks an order up",
        input_schema: { type: "object", properties: { order: { type: "string" } } },
      },
    ],
  });
  return client.beta.sessions.create({ agent: agent.id, environment_id: env.id });
}

/** One user turn, read up to its idle with `stop`'s reason. */
const say = (sessionId: string, text: string, stop = idle("end_turn")) =>
  sayAndRead(client, sessionId, text, stop);

describe("served sessions run the engine", () => {
  let sessionId: string;
  let streamed: string[] = [];

  it("streams a user.message's turn: running, a model span with usage, agent.message, idle", async () => {
    const session = await openAgentSession();
    sessionId = session.id;
    const events = await say(session.id, "hello");
    streamed = events.map((e) => ("id" in e ? e.id : ""));
    expect(events.map((e) => e.type)).toEqual([
      "user.message",
      "session.status_running",
      "span.model_request_start",
      "agent.message",
      "span.model_request_end",
      "session.status_idle",
    ]);
    const message = events.find((e) => e.type === "agent.message");
    expect(message).toMatchObject({ content: [{ type: "text", text: "Hello from the engine." }] });
    const start = events.find((e) => e.type === "span.model_request_start");
    const end = events.find((e) => e.type === "span.model_request_end");
    expect(end).toMatchObject({ model_request_start_id: start?.id, is_error: false });
    expect(end?.type === "span.model_request_end" && end.model_usage.output_tokens).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({ stop_reason: { type: "end_turn" } });
    // The model got the agent's system prompt, the file tools (on the session's own file system) and Bash (in
    // the simulated sandbox over it, serve's default tier).
    const body = JSON.stringify(model.requests.at(-1)?.body);
    expect(body).toContain("You are the test agent.");
    const tools = [...body.matchAll(/"name":"([^"]+)","description"/g)].map((m) => m[1]);
    expect(tools).toContain("Skill");
    expect(tools).toContain("lookup_order");
    for (const tool of ["Read", "Write", "Edit", "Bash", "Glob", "Grep", "LS"]) expect(tools).toContain(tool);
  });

  it("runs an inline Skill call over a store skill and reads its reference lazily", async () => {
    const events = await say(sessionId, "greet me");
    const uses = events.flatMap((e) => (e.type === "agent.tool_use" ? [e] : []));
    expect(uses.map((u) => [u.name, u.input])).toEqual([
      ["Skill", { skill: "greet" }],
      ["load_reference", { skill: "greet", name: "reference/phrases.md" }],
    ]);
    const results = events.flatMap((e) => (e.type === "agent.tool_result" ? [e] : []));
    expect(results.map((r) => r.tool_use_id)).toEqual(uses.map((u) => u.id));
    expect(JSON.stringify(results[1]?.content)).toContain("PHRASES-TEXT");
    expect(events.filter((e) => e.type === "agent.message").map((e) => JSON.stringify(e))).toEqual([
      expect.stringContaining("Greeted."),
    ]);
  });

  it("runs a forked Skill: the fork's model request is a span, its answer the Skill result", async () => {
    const events = await say(sessionId, "run the fork");
    const result = events.find((e) => e.type === "agent.tool_result");
    expect(JSON.stringify(result)).toContain("fork says hi");
    expect(events.filter((e) => e.type === "span.model_request_start").length).toBe(3);
    expect(JSON.stringify(events.filter((e) => e.type === "agent.message"))).toContain("Fork finished.");
  });

  it("pauses on a custom tool until user.custom_tool_result arrives", async () => {
    const stream = await client.beta.sessions.events.stream(sessionId);
    const events = stream[Symbol.asyncIterator]();
    await client.beta.sessions.events.send(sessionId, {
      events: [{ type: "user.message", content: [{ type: "text", text: "where is my order?" }] }],
    });
    const before = await readUntil(events, (e) => e.type === "session.status_idle");
    const use = before.find((e) => e.type === "agent.custom_tool_use");
    expect(use).toMatchObject({ name: "lookup_order", input: { order: "42" } });
    expect(before.at(-1)).toMatchObject({ stop_reason: { type: "requires_action", event_ids: [use?.id] } });
    const result = (id: string) => ({
      type: "user.custom_tool_result" as const,
      custom_tool_use_id: id,
      content: [{ type: "text" as const, text: "SHIPPED" }],
    });
    const unknownUse = /not a custom tool use awaiting its result in this session/;
    // A result naming no pending custom tool use is refused, and not stored.
    await expect(
      client.beta.sessions.events.send(sessionId, { events: [result("sevt_no_such_use")] }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringMatching(unknownUse) });
    await client.beta.sessions.events.send(sessionId, { events: [result(use?.id ?? "")] });
    const after = await readUntil(events, idle("end_turn"));
    stream.controller.abort();
    // Answered once: a second result for it is refused too.
    await expect(
      client.beta.sessions.events.send(sessionId, { events: [result(use?.id ?? "")] }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringMatching(unknownUse) });
    const stored: string[] = [];
    for await (const e of client.beta.sessions.events.list(sessionId)) {
      if (e.type === "user.custom_tool_result") stored.push(e.custom_tool_use_id);
    }
    expect(stored).toEqual([use?.id]);
    expect(after.map((e) => e.type)).toContain("session.status_running");
    expect(JSON.stringify(after.filter((e) => e.type === "agent.message"))).toContain(
      "Your order has shipped.",
    );
  });

  it("lists the events again after a restart, and refuses an unknown event type (400)", async () => {
    const listed: string[] = [];
    for await (const e of client.beta.sessions.events.list(sessionId)) listed.push(e.id);
    await server.stop();
    server = await startServe(["--db", db, "--api-key", KEY], serveEnv());
    client = sdkClient(server.url, KEY);
    const again: string[] = [];
    for await (const e of client.beta.sessions.events.list(sessionId)) again.push(e.id);
    expect(again).toEqual(listed);
    expect(again.slice(0, streamed.length)).toEqual(streamed);
    const bad = await fetch(`${server.url}/v1/sessions/${sessionId}/events`, {
      method: "POST",
      headers: { "x-api-key": KEY, "content-type": "application/json" },
      body: JSON.stringify({ events: [{ type: "agent.message", content: [] }] }),
    });
    expect(bad.status).toBe(400);
  });

  it("answers a stream of a session it does not have with a 404 naming it", async () => {
    const missing = await fetch(`${server.url}/v1/sessions/sesn_missing/events/stream`, {
      headers: { "x-api-key": KEY },
    });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({
      error: { type: "not_found_error", message: 'session "sesn_missing" not found' },
    });
  });
});
