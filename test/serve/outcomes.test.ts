import Anthropic from "@anthropic-ai/sdk";
import type { BetaManagedAgentsStreamSessionEvents } from "@anthropic-ai/sdk/resources/beta/sessions/events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import { type ModelServer, type RecordedRequest, startModelServer } from "../../src/dev/model-server.js";
import { startPostgres, type TestPostgres } from "../../src/dev/postgres.js";
import { GRADER_TOOL_NAMES } from "../../src/outcome/grader.js";
import { TEST_API_KEY, textTurn } from "../support/model-server.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { readUntil } from "../support/session-stream.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

// `user.define_outcome` through the shipped bin, with the official SDK client, on PGlite and on PostgreSQL
// (sent through one instance, streamed from the other): the write–grade–revise loop against a scripted agent
// and a scripted grader, whose requests the model server records.

type Event = BetaManagedAgentsStreamSessionEvents;

const KEY = "sk-outcomes";
const POET = "You are the poet of this test.";
const GRADER = "You are a grader.";

let model: ModelServer;
let postgres: TestPostgres;
let tree: TmpTree;
const servers: ServeProcess[] = [];

const start = async (db: string): Promise<ServeProcess> => {
  const server = await startServe(["--db", db, "--api-key", KEY], {
    ANTHROPIC_API_KEY: TEST_API_KEY,
    ANTHROPIC_BASE_URL: model.url,
  });
  servers.push(server);
  return server;
};

/** The scripted agent and grader of one run, told apart by their system prompts and by `tag`. */
function script(tag: string): ScriptTurnInput[] {
  const verdict = (result: string, explanation: string) =>
    `Checked each criterion.\n{"result": "${result}", "explanation": "${explanation}"}`;
  return [
    textTurn(verdict("needs_revision", `Add a title line (${tag}).`), {
      systemIncludes: GRADER,
      lastUserTextIncludes: `draft one ${tag}`,
    }),
    textTurn(verdict("satisfied", `Titled and three lines (${tag}).`), {
      systemIncludes: GRADER,
      lastUserTextIncludes: `draft two ${tag}`,
    }),
    textTurn(verdict("needs_revision", `Still lazy (${tag}).`), {
      systemIncludes: GRADER,
      lastUserTextIncludes: `lazy draft ${tag}`,
    }),
    textTurn(`draft two ${tag}`, {
      systemIncludes: POET,
      lastUserTextIncludes: `Add a title line (${tag}).`,
    }),
    textTurn(`draft one ${tag}`, { systemIncludes: POET, lastUserTextIncludes: `haiku ${tag}` }),
    textTurn(`lazy draft ${tag}`, { systemIncludes: POET, lastUserTextIncludes: `limerick ${tag}` }),
    // The grader of the sonnet holds its response until the interrupt stops it.
    {
      match: { systemIncludes: GRADER, lastUserTextIncludes: `sonnet draft ${tag}` },
      response: { content: [{ type: "text", text: "never sent" }] },
      fault: { kind: "stall", afterEvents: 0 },
    },
    textTurn(`sonnet draft ${tag}`, { systemIncludes: POET, lastUserTextIncludes: `sonnet ${tag}` }),
  ];
}

beforeAll(async () => {
  tree = await tmpTree({});
  model = await startModelServer({ apiKey: TEST_API_KEY, script: { turns: [] } });
  postgres = await startPostgres();
}, 120_000);
afterAll(async () => {
  for (const server of servers) await server.stop();
  await model?.close();
  await postgres?.stop();
  await tree?.cleanup();
});

const bodyOf = (r: RecordedRequest): Record<string, unknown> =>
  typeof r.body === "object" && r.body !== null ? { ...r.body } : {};
const graderRequests = (tag: string) =>
  model.requests.filter(
    (r) => JSON.stringify(bodyOf(r).system ?? "").includes(GRADER) && JSON.stringify(r.body).includes(tag),
  );
const agentRequests = (tag: string) =>
  model.requests.filter(
    (r) => JSON.stringify(bodyOf(r).system ?? "").includes(POET) && JSON.stringify(r.body).includes(tag),
  );

async function newSession(client: Anthropic): Promise<string> {
  const environment = await client.beta.environments.create({ name: `e-${Math.random()}` });
  const agent = await client.beta.agents.create({ name: "poet", model: "claude-sonnet-4-6", system: POET });
  return (await client.beta.sessions.create({ agent: agent.id, environment_id: environment.id })).id;
}

/** Sends `event` through `sender` and reads `reader`'s stream of the session until its turn ends. */
async function defineAndRead(
  sender: Anthropic,
  reader: Anthropic,
  sessionId: string,
  event: { description: string; rubric: string; max_iterations?: number },
): Promise<Event[]> {
  const stream = await reader.beta.sessions.events.stream(sessionId);
  try {
    await sender.beta.sessions.events.send(sessionId, {
      events: [
        {
          type: "user.define_outcome",
          description: event.description,
          rubric: { type: "text", content: event.rubric },
          ...(event.max_iterations === undefined ? {} : { max_iterations: event.max_iterations }),
        },
      ],
    });
    return await readUntil(stream[Symbol.asyncIterator](), (e) => e.type === "session.status_idle");
  } finally {
    stream.controller.abort();
  }
}

function expectLoop(tag: string, events: Event[]): void {
  const defined = events.find((e) => e.type === "user.define_outcome");
  expect(defined).toMatchObject({
    description: `Write a haiku ${tag}`,
    max_iterations: 3,
    rubric: { type: "text", content: "1. Has a title line.\n2. Three lines." },
  });
  const outcomeId = defined?.type === "user.define_outcome" ? defined.outcome_id : "";
  expect(outcomeId).toMatch(/^outc_/);
  const starts = events.filter((e) => e.type === "span.outcome_evaluation_start");
  const ends = events.filter((e) => e.type === "span.outcome_evaluation_end");
  expect(starts.map((e) => [e.iteration, e.outcome_id])).toEqual([
    [0, outcomeId],
    [1, outcomeId],
  ]);
  expect(ends.map((e) => [e.iteration, e.result, e.explanation])).toEqual([
    [0, "needs_revision", `Add a title line (${tag}).`],
    [1, "satisfied", `Titled and three lines (${tag}).`],
  ]);
  expect(ends.map((e) => e.outcome_evaluation_start_id)).toEqual(starts.map((e) => e.id));
  for (const end of ends) expect(end.usage.output_tokens).toBeGreaterThan(0);
  // Each evaluation's heartbeat comes between its start and its end.
  const types = events.map((e) => e.type);
  for (const [i, start] of starts.entries()) {
    const from = events.indexOf(start);
    const to = events.indexOf(ends[i] as Event);
    expect(types.slice(from, to)).toContain("span.outcome_evaluation_ongoing");
  }
  expect(events.filter((e) => e.type === "agent.message").map((e) => e.content)).toEqual([
    [{ type: "text", text: `draft one ${tag}` }],
    [{ type: "text", text: `draft two ${tag}` }],
  ]);
  expect(events.at(-1)).toMatchObject({ type: "session.status_idle", stop_reason: { type: "end_turn" } });

  // The second attempt's request carries the grader's explanation, after the agent's own first draft.
  const second = agentRequests(tag).at(-1);
  const secondText = JSON.stringify(second?.body);
  expect(secondText).toContain(`Add a title line (${tag}).`);
  expect(secondText).toContain(`draft one ${tag}`);

  // The grader's requests: a fresh context (one user message, none of the agent's prompt or earlier drafts),
  // and read-only tools only.
  const graders = graderRequests(tag);
  expect(graders).toHaveLength(2);
  for (const request of graders) {
    const body = bodyOf(request);
    const tools = (Array.isArray(body.tools) ? body.tools : []).map((t: { name?: unknown }) => t.name);
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.every((name) => (GRADER_TOOL_NAMES as readonly unknown[]).includes(name))).toBe(true);
    expect(tools).not.toContain("Write");
    const messages = Array.isArray(body.messages) ? body.messages : [];
    expect(messages).toHaveLength(1);
    expect(JSON.stringify(body)).not.toContain(POET);
    expect(JSON.stringify(body)).not.toContain("a grader will check your work");
  }
  expect(JSON.stringify(graders[1]?.body)).not.toContain(`draft one ${tag}`);
  expect(JSON.stringify(graders[1]?.body)).toContain(`draft two ${tag}`);
}

async function expectEvaluations(client: Anthropic, sessionId: string, tag: string): Promise<void> {
  const session = await client.beta.sessions.retrieve(sessionId);
  expect(session.outcome_evaluations).toEqual([
    {
      type: "outcome_evaluation",
      outcome_id: expect.stringMatching(/^outc_/),
      description: `Write a haiku ${tag}`,
      iteration: 1,
      result: "satisfied",
      explanation: `Titled and three lines (${tag}).`,
      completed_at: expect.any(String),
    },
    {
      type: "outcome_evaluation",
      outcome_id: expect.stringMatching(/^outc_/),
      description: `Write a limerick ${tag}`,
      iteration: 0,
      result: "max_iterations_reached",
      explanation: `Still lazy (${tag}).`,
      completed_at: expect.any(String),
    },
  ]);
}

async function expectMaxIterations(sender: Anthropic, reader: Anthropic, sessionId: string, tag: string) {
  const events = await defineAndRead(sender, reader, sessionId, {
    description: `Write a limerick ${tag}`,
    rubric: "Five lines.",
    max_iterations: 1,
  });
  const ends = events.filter((e) => e.type === "span.outcome_evaluation_end");
  expect(ends.map((e) => [e.iteration, e.result])).toEqual([[0, "max_iterations_reached"]]);
  expect(events.filter((e) => e.type === "span.outcome_evaluation_start")).toHaveLength(1);
  expect(events.at(-1)).toMatchObject({ type: "session.status_idle", stop_reason: { type: "end_turn" } });
}

async function expectBadInputRefused(client: Anthropic, sessionId: string): Promise<void> {
  const before = (await client.beta.sessions.events.list(sessionId)).data.length;
  const bad = [
    { max_iterations: 21 },
    { max_iterations: 0 },
    { max_iterations: 1.5 },
    { rubric: { type: "text", content: "" } },
    { description: "" },
  ];
  for (const patch of bad) {
    const error = await client.beta.sessions.events
      .send(sessionId, {
        events: [
          {
            type: "user.define_outcome",
            description: "d",
            rubric: { type: "text", content: "r" },
            ...patch,
          } as never,
        ],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error" },
    });
  }
  expect((await client.beta.sessions.events.list(sessionId)).data).toHaveLength(before);
}

/** An interrupt sent while the grader works ends the evaluation `interrupted`, and the turn with it. */
async function expectInterruptedEvaluation(client: Anthropic, sessionId: string, tag: string): Promise<void> {
  const stream = await client.beta.sessions.events.stream(sessionId);
  const events = stream[Symbol.asyncIterator]();
  try {
    await client.beta.sessions.events.send(sessionId, {
      events: [
        {
          type: "user.define_outcome",
          description: `Write a sonnet ${tag}`,
          rubric: { type: "text", content: "Fourteen lines." },
        },
      ],
    });
    await readUntil(events, (e) => e.type === "span.outcome_evaluation_start");
    await client.beta.sessions.events.send(sessionId, { events: [{ type: "user.interrupt" }] });
    const rest = await readUntil(events, (e) => e.type === "session.status_idle");
    expect(rest.filter((e) => e.type === "span.outcome_evaluation_end").map((e) => e.result)).toEqual([
      "interrupted",
    ]);
  } finally {
    stream.controller.abort();
  }
  const evaluations = (await client.beta.sessions.retrieve(sessionId)).outcome_evaluations;
  expect(evaluations.at(-1)).toMatchObject({ description: `Write a sonnet ${tag}`, result: "interrupted" });
}

describe("outcomes through the shipped serve", () => {
  it("PGlite: a file rubric's text, uploaded with files.upload, is what the grader judges against; a missing file is a 404", async () => {
    const tag = "filerubric";
    model.addTurns(script(tag));
    const server = await start(await freshPgliteDir(tree.path("outcomes-file-rubric")));
    const client = sdkClient(server.url, KEY);
    const sessionId = await newSession(client);
    const before = (await client.beta.sessions.events.list(sessionId)).data.length;
    const missing = await client.beta.sessions.events
      .send(sessionId, {
        events: [
          { type: "user.define_outcome", description: "d", rubric: { type: "file", file_id: "file_nope" } },
        ],
      })
      .catch((error: unknown) => error);
    expect(missing, String(missing)).toBeInstanceOf(Anthropic.NotFoundError);
    expect((await client.beta.sessions.events.list(sessionId)).data).toHaveLength(before);
    const file = await client.beta.files.upload({
      file: await Anthropic.toFile(Buffer.from(`Exactly five lines, AABBA rhyme (${tag}).`), "rubric.md", {
        type: "text/markdown",
      }),
    });
    const stream = await client.beta.sessions.events.stream(sessionId);
    try {
      await client.beta.sessions.events.send(sessionId, {
        events: [
          {
            type: "user.define_outcome",
            description: `Write a limerick ${tag}`,
            rubric: { type: "file", file_id: file.id },
            max_iterations: 1,
          },
        ],
      });
      const events = await readUntil(stream[Symbol.asyncIterator](), (e) => e.type === "session.status_idle");
      const ends = events.filter((e) => e.type === "span.outcome_evaluation_end");
      expect(ends.map((e) => e.result)).toEqual(["max_iterations_reached"]);
    } finally {
      stream.controller.abort();
    }
    const [grader] = graderRequests(tag);
    expect(JSON.stringify(grader?.body)).toContain(`Exactly five lines, AABBA rhyme (${tag}).`);
  }, 120_000);

  it("PGlite: revise then satisfied, max_iterations_reached, bad input refused", async () => {
    const tag = "pglite";
    model.addTurns(script(tag));
    const server = await start(await freshPgliteDir(tree.path("outcomes-pglite")));
    const client = sdkClient(server.url, KEY);
    const sessionId = await newSession(client);
    await expectBadInputRefused(client, sessionId);
    const events = await defineAndRead(client, client, sessionId, {
      description: `Write a haiku ${tag}`,
      rubric: "1. Has a title line.\n2. Three lines.",
    });
    expectLoop(tag, events);
    await expectMaxIterations(client, client, sessionId, tag);
    await expectEvaluations(client, sessionId, tag);
    await expectInterruptedEvaluation(client, sessionId, tag);
  }, 120_000);

  it("PostgreSQL, two instances: sent through one, streamed and retrieved from the other", async () => {
    const tag = "postgres";
    model.addTurns(script(tag));
    const db = await postgres.createDatabase("outcomes");
    const a = sdkClient((await start(db)).url, KEY);
    const b = sdkClient((await start(db)).url, KEY);
    const sessionId = await newSession(a);
    await expectBadInputRefused(b, sessionId);
    const events = await defineAndRead(a, b, sessionId, {
      description: `Write a haiku ${tag}`,
      rubric: "1. Has a title line.\n2. Three lines.",
    });
    expectLoop(tag, events);
    await expectMaxIterations(b, a, sessionId, tag);
    await expectEvaluations(b, sessionId, tag);
  }, 180_000);
});
