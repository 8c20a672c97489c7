import type Anthropic from "@anthropic-ai/sdk";
import type { BetaManagedAgentsStreamSessionEvents } from "@anthropic-ai/sdk/resources/beta/sessions/events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelClient } from "../../src/agent/model-client.js";
import type { ScriptFault } from "../../src/dev/model-script.js";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { TEST_API_KEY, textTurn, toolTurn } from "../support/model-server.js";
import { type ServedApp, startServedApp } from "../support/served-app.js";
import { readUntil, userMessage } from "../support/session-stream.js";

// A model request that fails mid-stream (the scripted server sends an SSE error, or cuts the socket, after the
// response's tool_use block) ends the served turn cleanly: the request's span ends as an error, a typed
// `session.error` says the turn is dead (`retry_status: exhausted`), the session goes idle with
// `retries_exhausted`, no tool use of the lost response is stored, and the next user.message runs a normal turn.

type Event = BetaManagedAgentsStreamSessionEvents;

let model: ModelServer;
let served: ServedApp;
let client: Anthropic;

/** A response that calls `lookup` after some text, failed by `fault` once its tool_use block is sent. */
const failingCall = (match: string, fault: ScriptFault) => ({
  match: { lastUserTextIncludes: match },
  response: {
    content: [
      { type: "text" as const, text: "Let me look." },
      {
        type: "tool_use" as const,
        id: `toolu_${match.replace(/\W/g, "")}`,
        name: "lookup",
        input: { q: match },
      },
    ],
  },
  // message_start, the text block (start, delta, stop), the tool_use block (start, delta, stop): 7 events.
  fault,
});

beforeAll(async () => {
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: {
      turns: [
        failingCall("overloaded", {
          kind: "stream_error",
          afterEvents: 7,
          errorType: "overloaded_error",
          message: "Overloaded",
        }),
        failingCall("cut off", { kind: "cut", afterEvents: 7 }),
        toolTurn(
          "lookup",
          { q: "first" },
          { id: "toolu_first", match: { lastUserTextIncludes: "after a result" } },
        ),
        {
          match: { hasToolResultFor: "toolu_first" },
          response: { content: [{ type: "text", text: "never seen" }] },
          fault: { kind: "stream_error", afterEvents: 2, errorType: "api_error", message: "Internal" },
        },
        { ...textTurn("the next turn works", { lastUserTextIncludes: "next" }), repeat: true },
      ],
    },
  });
  served = await startServedApp({
    runner: { client: createModelClient({ apiKey: TEST_API_KEY, baseURL: model.url, maxRetries: 0 }) },
  });
  client = served.client();
}, 60_000);
afterAll(async () => {
  await served?.close();
  await model?.close();
});

async function newSession(): Promise<string> {
  const environment = await client.beta.environments.create({ name: `e-${Math.random()}` });
  const agent = await client.beta.agents.create({
    name: "looker",
    model: "claude-sonnet-4-6",
    tools: [
      {
        type: "custom",
        name: "lookup",
        description: "Looks a thing up in the application",
        input_schema: { type: "object", properties: { q: { type: "string" } } },
      },
    ],
  });
  return (await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id })).id;
}

const turnEnd = (e: Event) => e.type === "session.status_idle" && e.stop_reason.type !== "requires_action";

/** Checks the failed turn's events: span closed as an error, a typed exhausted error, idle retries_exhausted. */
function expectCleanFailure(turn: Event[], errorType: string): void {
  const starts = turn.filter((e) => e.type === "span.model_request_start");
  const ends = turn.filter((e) => e.type === "span.model_request_end");
  expect(ends.map((e) => e.model_request_start_id)).toEqual(starts.map((e) => e.id));
  expect(ends.at(-1)).toMatchObject({ is_error: true });
  const errors = turn.filter((e) => e.type === "session.error");
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatchObject({ error: { type: errorType, retry_status: { type: "exhausted" } } });
  expect(turn.at(-1)).toMatchObject({
    type: "session.status_idle",
    stop_reason: { type: "retries_exhausted" },
  });
  // Nothing of the lost response: no message, no tool use waiting for a result that will never come.
  expect(turn.filter((e) => e.type === "agent.message")).toEqual([]);
  expect(turn.filter((e) => e.type === "agent.custom_tool_use").length).toBeLessThanOrEqual(1);
}

/** The next user.message runs a normal turn; the model gets no tool_use without its tool_result. */
async function expectNextTurnWorks(sessionId: string, events: AsyncIterator<Event>): Promise<void> {
  expect((await client.beta.sessions.retrieve(sessionId)).status).toBe("idle");
  await client.beta.sessions.events.send(sessionId, userMessage("next"));
  const next = await readUntil(events, turnEnd);
  expect(next.filter((e) => e.type === "agent.message").map((e) => e.content)).toEqual([
    [{ type: "text", text: "the next turn works" }],
  ]);
  expect(next.at(-1)).toMatchObject({ stop_reason: { type: "end_turn" } });
  const body = JSON.stringify(model.requests.at(-1)?.body);
  const uses = [...body.matchAll(/"type":"tool_use","id":"(\w+)"/g)].map((m) => m[1]);
  for (const id of uses) expect(body).toContain(`"tool_use_id":"${id}"`);
}

describe("a model stream that fails mid-turn", () => {
  it.each([
    ["an SSE error event", "overloaded", "model_overloaded_error"],
    ["a cut socket", "cut off", "model_request_failed_error"],
  ])(
    "after a tool_use block (%s): the turn ends cleanly and the next one runs",
    async (_name, text, type) => {
      const session = await newSession();
      const stream = await client.beta.sessions.events.stream(session);
      const events = stream[Symbol.asyncIterator]();
      await client.beta.sessions.events.send(session, userMessage(text));
      const turn = await readUntil(events, turnEnd);
      expectCleanFailure(turn, type);
      expect(turn.filter((e) => e.type === "agent.custom_tool_use")).toEqual([]);
      await expectNextTurnWorks(session, events);
      stream.controller.abort();
    },
  );

  it("after a custom tool's result was sent: the turn ends cleanly and the next one runs", async () => {
    const session = await newSession();
    const stream = await client.beta.sessions.events.stream(session);
    const events = stream[Symbol.asyncIterator]();
    await client.beta.sessions.events.send(session, userMessage("after a result"));
    const waiting = await readUntil(events, (e) => e.type === "session.status_idle");
    const use = waiting.find((e) => e.type === "agent.custom_tool_use");
    await client.beta.sessions.events.send(session, {
      events: [
        {
          type: "user.custom_tool_result",
          custom_tool_use_id: use?.id ?? "",
          content: [{ type: "text", text: "FOUND" }],
        },
      ],
    });
    const turn = await readUntil(events, turnEnd);
    expectCleanFailure([...waiting, ...turn], "model_request_failed_error");
    await expectNextTurnWorks(session, events);
    stream.controller.abort();
  });
});
