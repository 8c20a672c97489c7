import Anthropic from "@anthropic-ai/sdk";
import type { BetaManagedAgentsStreamSessionEvents } from "@anthropic-ai/sdk/resources/beta/sessions/events";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createModelClient } from "../../src/agent/model-client.js";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { MAX_EVENTS_PER_REQUEST, MAX_QUEUED_MESSAGES } from "../../src/serve/sessions/turn-queue.js";
import { TEST_API_KEY, textTurn } from "../support/model-server.js";
import { type ServedApp, startServedApp } from "../support/served-app.js";
import { readUntil, userMessage } from "../support/session-stream.js";

// One request cannot start unbounded paid work: a request carries at most MAX_EVENTS_PER_REQUEST events (400),
// a session queues at most MAX_QUEUED_MESSAGES messages (429); user.interrupt and archive stop the turn (its
// model request span ends as an error) and drop the queued messages, each told by a session.error naming it;
// DELETE under a running turn and a queue logs nothing.

type Event = BetaManagedAgentsStreamSessionEvents;

let model: ModelServer;
let served: ServedApp;
let client: Anthropic;
const reported: unknown[] = [];

beforeAll(async () => {
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: {
      turns: [
        // "hold": the request stalls until the turn is stopped.
        {
          match: { lastUserTextIncludes: "hold" },
          fault: { kind: "stall", afterEvents: 0 },
          response: { content: [{ type: "text", text: "never" }] },
          repeat: true,
        },
        { ...textTurn("answered after", { lastUserTextIncludes: "after" }), repeat: true },
      ],
    },
  });
  served = await startServedApp({
    runner: {
      client: createModelClient({ apiKey: TEST_API_KEY, baseURL: model.url, maxRetries: 0 }),
      report: (error) => reported.push(error),
    },
  });
  client = served.client();
}, 60_000);
afterAll(async () => {
  await served?.close();
  await model?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

async function newSession(): Promise<string> {
  const environment = await client.beta.environments.create({ name: `e-${Math.random()}` });
  const agent = await client.beta.agents.create({ name: "holder", model: "claude-sonnet-4-6" });
  return (await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id })).id;
}

const messages = (n: number, text: string) => ({
  events: Array.from({ length: n }, (_, i) => ({
    type: "user.message" as const,
    content: [{ type: "text" as const, text: `${text} ${i}` }],
  })),
});

/** A session whose turn is held in its model request, with its stream open and read to the request's span. */
async function heldTurn() {
  const session = await newSession();
  const stream = await client.beta.sessions.events.stream(session);
  const events = stream[Symbol.asyncIterator]();
  await client.beta.sessions.events.send(session, userMessage("hold on"));
  const seen = await readUntil(events, (e) => e.type === "span.model_request_start");
  const span = seen.at(-1);
  return { session, stream, events, spanId: span !== undefined && "id" in span ? span.id : "" };
}

/** The ids named by the `session.error`s of `events` that say a queued message was not run. */
const droppedIds = (events: readonly Event[]) =>
  events.flatMap((e) =>
    e.type === "session.error" ? [/user\.message (\S+) was not run/.exec(e.error.message)?.[1] ?? ""] : [],
  );

/** Reads `events` until a `session.error` has told of each of `ids` (queued messages dropped). */
async function readDropped(events: AsyncIterator<Event>, ids: readonly string[]): Promise<Event[]> {
  const seen: Event[] = [];
  const left = new Set(ids);
  await readUntil(events, (e) => {
    seen.push(e);
    for (const id of droppedIds([e])) left.delete(id);
    return left.size === 0;
  });
  return seen;
}

describe("bounded work per request and per session", () => {
  it(`refuses more than ${MAX_EVENTS_PER_REQUEST} events in one request (400) and stores none`, async () => {
    const session = await newSession();
    const error = await client.beta.sessions.events
      .send(session, messages(MAX_EVENTS_PER_REQUEST + 1, "too many"))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String(error)).toContain(`at most ${MAX_EVENTS_PER_REQUEST} events`);
    const listed = [];
    for await (const e of client.beta.sessions.events.list(session)) listed.push(e);
    expect(listed).toEqual([]);
  });

  it(`queues at most ${MAX_QUEUED_MESSAGES} messages (429), then an interrupt drops each one visibly`, async () => {
    const { session, stream, events, spanId } = await heldTurn();
    const sent = await client.beta.sessions.events.send(session, messages(MAX_QUEUED_MESSAGES, "queued"));
    const full = await client.beta.sessions.events
      .send(session, userMessage("one more"))
      .catch((e: unknown) => e);
    expect(full).toBeInstanceOf(Anthropic.RateLimitError);
    await client.beta.sessions.events.send(session, { events: [{ type: "user.interrupt" }] });
    const after = await readDropped(events, sent.data?.map((e) => e.id) ?? []);
    // The stopped request's span ends as an error, then the turn ends, then each queued message is told.
    const end = after.find((e) => e.type === "span.model_request_end");
    expect(end).toMatchObject({ model_request_start_id: spanId, is_error: true });
    expect(after.some((e) => e.type === "session.status_idle")).toBe(true);
    expect(droppedIds(after)).toEqual(sent.data?.map((e) => e.id));
    const requests = model.requests.length;
    // The session answers the next message; none of the dropped ones reached the model.
    await client.beta.sessions.events.send(session, userMessage("after the interrupt"));
    await readUntil(events, (e) => e.type === "session.status_idle" && e.stop_reason.type === "end_turn");
    expect(model.requests.length).toBe(requests + 1);
    stream.controller.abort();
    expect((await client.beta.sessions.retrieve(session)).status).toBe("idle");
  });

  it("archiving a session stops its turn and drops its queue, each message told", async () => {
    const { session, stream, events, spanId } = await heldTurn();
    const sent = await client.beta.sessions.events.send(session, messages(3, "queued before archive"));
    await client.beta.sessions.archive(session);
    const after = await readDropped(events, sent.data?.map((e) => e.id) ?? []);
    stream.controller.abort();
    expect(after.find((e) => e.type === "span.model_request_end")).toMatchObject({
      model_request_start_id: spanId,
      is_error: true,
    });
    expect(droppedIds(after)).toEqual(sent.data?.map((e) => e.id));
    expect(
      after
        .filter((e) => e.type === "session.error")
        .map((e) => e.type === "session.error" && e.error.message),
    ).toEqual(
      (sent.data ?? []).map((e) => expect.stringContaining(`${e.id} was not run: the session was archived`)),
    );
    expect((await client.beta.sessions.retrieve(session)).status).toBe("idle");
  });

  it("deleting a session under a running turn and a queue logs nothing", async () => {
    const errors = vi.spyOn(console, "error");
    const { session, stream } = await heldTurn();
    await client.beta.sessions.events.send(session, messages(5, "queued before delete"));
    await client.beta.sessions.delete(session);
    await served.runner.settled();
    stream.controller.abort();
    expect(reported).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
  });
});
