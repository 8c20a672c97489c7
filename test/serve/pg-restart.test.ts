import { setTimeout as sleep } from "node:timers/promises";
import type Anthropic from "@anthropic-ai/sdk";
import { APIError, toFile } from "@anthropic-ai/sdk";
import type { BetaManagedAgentsStreamSessionEvents } from "@anthropic-ai/sdk/resources/beta/sessions/events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { startPostgres, type TestPostgres } from "../../src/dev/postgres.js";
import { EVENTS_CHANNEL, INTERRUPTS_CHANNEL } from "../../src/serve/events/pg-listen.js";
import { TEST_API_KEY, textTurn } from "../support/model-server.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

// One `serve` process (the shipped bin) on a real PostgreSQL that is stopped and started again under it.

const KEY = "sk-pg-restart";
type Event = BetaManagedAgentsStreamSessionEvents;

let postgres: TestPostgres;
let model: ModelServer;
let serve: ServeProcess;
let client: Anthropic;

beforeAll(async () => {
  postgres = await startPostgres();
  const db = await postgres.createDatabase("restart");
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: {
      turns: [
        textTurn("before the outage", { lastUserTextIncludes: "before" }),
        textTurn("resumed answer", { lastUserTextIncludes: "again" }),
        textTurn("after the outage", { lastUserTextIncludes: "after" }),
      ],
    },
  });
  serve = await startServe(["--db", db, "--api-key", KEY], {
    ANTHROPIC_API_KEY: TEST_API_KEY,
    ANTHROPIC_BASE_URL: model.url,
  });
  client = sdkClient(serve.url, KEY);
}, 120_000);
afterAll(async () => {
  await serve?.stop();
  await model?.close();
  await postgres?.stop();
});

const skillFile = (name: string) =>
  toFile(Buffer.from(`---\nname: ${name}\ndescription: Takes ${name}\n---\nBODY\n`), `${name}/SKILL.md`);
const message = (text: string) => ({
  events: [{ type: "user.message" as const, content: [{ type: "text" as const, text }] }],
});

/** The error a call failed with (the SDK's APIError), or a test failure when it succeeded. */
async function failure(call: () => Promise<unknown>): Promise<APIError> {
  try {
    await call();
  } catch (error) {
    if (error instanceof APIError) return error;
    throw error;
  }
  throw new Error("the call succeeded while PostgreSQL was down");
}

/**
 * Reads until `stop` matches; `ended` when the stream ended first, with the `error` message's error the SDK
 * threw if it sent one.
 */
async function readUntil(
  events: AsyncIterator<Event>,
  stop: (e: Event) => boolean,
): Promise<{ seen: Event[]; ended: boolean; error?: APIError }> {
  const seen: Event[] = [];
  for (;;) {
    let next: IteratorResult<Event>;
    try {
      next = await events.next();
    } catch (error) {
      if (error instanceof APIError) return { seen, ended: true, error };
      throw error;
    }
    if (next.done === true) return { seen, ended: true };
    seen.push(next.value);
    if (stop(next.value)) return { seen, ended: false };
  }
}

const idle = (e: Event) => e.type === "session.status_idle";
const alive = () => serve.process.exitCode === null && serve.process.signalCode === null;

describe("a PostgreSQL restart under serve", () => {
  it("fails requests cleanly while the database is down and serves again once it is back", async () => {
    const skill = await client.beta.skills.create({ files: [await skillFile("notes")] });
    const env = await client.beta.environments.create({ name: "restart" });
    const agent = await client.beta.agents.create({
      name: "restart",
      model: "claude-sonnet-5-5",
      skills: [{ type: "custom", skill_id: skill.id }],
    });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: env.id });
    // An event stream open across the outage.
    const stream = await client.beta.sessions.events.stream(session.id);
    const events = stream[Symbol.asyncIterator]();
    await client.beta.sessions.events.send(session.id, message("before"));
    expect((await readUntil(events, idle)).ended).toBe(false);

    const outageFile = await skillFile("outage");
    const down: APIError[] = [];
    await postgres.restart(async () => {
      down.push(await failure(() => client.beta.skills.list()));
      down.push(await failure(() => client.beta.skills.create({ files: [outageFile] })));
      down.push(await failure(() => client.beta.sessions.events.send(session.id, message("lost"))));
      down.push(await failure(() => client.beta.sessions.retrieve(session.id)));
      // Long enough for the open stream to ask the store at least once while it is down (it asks every 100 ms).
      await sleep(1000);
    });
    for (const error of down) {
      expect(error.status).toBe(503);
      expect(error.error).toEqual({
        type: "error",
        error: { type: "overloaded_error", message: expect.stringContaining("database") },
        request_id: expect.stringMatching(/^req_/),
      });
    }
    expect(alive()).toBe(true);

    // Back: create and list a skill, open a session and run a turn on the scripted model.
    const later = await client.beta.skills.create({ files: [await skillFile("later")] });
    const listed = await client.beta.skills.list();
    expect(listed.data.map((s) => s.id)).toEqual(expect.arrayContaining([skill.id, later.id]));
    const fresh = await client.beta.sessions.create({ agent: agent.id, environment_id: env.id });
    const freshStream = await client.beta.sessions.events.stream(fresh.id);
    await client.beta.sessions.events.send(fresh.id, message("after"));
    const turn = await readUntil(freshStream[Symbol.asyncIterator](), idle);
    freshStream.controller.abort();
    expect(turn.ended).toBe(false);
    expect(JSON.stringify(turn.seen)).toContain("after the outage");

    // The stream opened before the outage either still follows the session, or ended saying why (an SSE
    // `error` message: the database was unavailable), never silently.
    await client.beta.sessions.events.send(session.id, message("after again"));
    const resumed = await readUntil(events, idle);
    stream.controller.abort();
    if (resumed.ended) expect(resumed.error).toMatchObject({ type: "overloaded_error" });
    else expect(JSON.stringify(resumed.seen)).toContain("resumed answer");
    expect(alive()).toBe(true);
  }, 120_000);

  it("LISTENs again for other instances' events once PostgreSQL is back", async () => {
    await postgres.restart();
    expect(alive()).toBe(true);
    // The LISTEN connection is a backend whose last statement is the LISTEN; wait for it to come back.
    const pg = (await import("pg")).default;
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    try {
      let listening = 0;
      for (let tries = 0; tries < 500 && listening === 0; tries++) {
        if (tries > 0) await sleep(100);
        const { rows } = await admin.query(
          // Its last statement: the LISTEN on the events channel, or the one on the interrupts channel after it.
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = 'restart' AND query = ANY($1)",
          [[`LISTEN ${EVENTS_CHANNEL}`, `LISTEN ${INTERRUPTS_CHANNEL}`]],
        );
        listening = Number(rows[0]?.n ?? 0);
      }
      expect(listening).toBe(1);
    } finally {
      await admin.end();
    }
    expect(alive()).toBe(true);
  }, 120_000);
});
