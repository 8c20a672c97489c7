import { setTimeout as sleep } from "node:timers/promises";
import type Anthropic from "@anthropic-ai/sdk";
import type { BetaManagedAgentsStreamSessionEvents } from "@anthropic-ai/sdk/resources/beta/sessions/events";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { startPostgres, type TestPostgres } from "../../src/dev/postgres.js";
import { RESUME_PROMPT } from "../../src/serve/sessions/orphan-resume.js";
import { TURN_LOCK_CLASS } from "../../src/serve/sessions/turn-locks.js";
import { TEST_API_KEY, textTurn, toolTurn } from "../support/model-server.js";
import { readUntil, userMessage } from "../support/session-stream.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

// A turn waiting on the application (custom tool results) whose instance was SIGKILLed is resumed, exactly
// once, by the instances that receive the answers (the shipped bin, on PostgreSQL and on a PGlite dir); a
// live owner is never pre-empted.

const KEY = "sk-orphans";
type Event = BetaManagedAgentsStreamSessionEvents;

let postgres: TestPostgres;
let model: ModelServer;
let tree: TmpTree;

const lookup = (q: string) => ({ type: "tool_use" as const, name: "lookup", input: { q } });

beforeAll(async () => {
  tree = await tmpTree({});
  postgres = await startPostgres();
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: {
      turns: [
        { match: { lastUserTextIncludes: "ask twice" }, response: { content: [lookup("a"), lookup("b")] } },
        {
          ...textTurn("resumed after the crash", { lastUserTextIncludes: "stopped while it waited" }),
          repeat: true,
        },
        toolTurn("lookup", { q: "live" }, { match: { lastUserTextIncludes: "ask live" } }),
        textTurn("answered by the live owner", { hasToolResultFor: "lookup" }),
        toolTurn("lookup", { q: "pglite" }, { match: { lastUserTextIncludes: "ask on pglite" } }),
        toolTurn("lookup", { q: "late" }, { match: { lastUserTextIncludes: "ask late" } }),
        toolTurn("lookup", { q: "watched" }, { match: { lastUserTextIncludes: "ask watched" } }),
        { ...textTurn("wrapped up", { lastUserTextIncludes: "wrap up" }), repeat: true },
      ],
    },
  });
}, 120_000);
afterAll(async () => {
  await model?.close();
  await postgres?.stop();
  await tree?.cleanup();
});

/** A `session.status_idle` waiting on `count` events. */
const waitingOn = (count: number) => (e: Event) =>
  e.type === "session.status_idle" &&
  e.stop_reason.type === "requires_action" &&
  e.stop_reason.event_ids.length === count;
const ended = (e: Event) => e.type === "session.status_idle" && e.stop_reason.type === "end_turn";
const result = (id: string, text: string) => ({
  events: [
    {
      type: "user.custom_tool_result" as const,
      custom_tool_use_id: id,
      content: [{ type: "text" as const, text }],
    },
  ],
});

/** The last message of a recorded model request, as JSON. */
function lastMessage(body: unknown): string {
  if (typeof body !== "object" || body === null || !("messages" in body)) return "";
  return Array.isArray(body.messages) ? JSON.stringify(body.messages.at(-1)) : "";
}

/** The model requests that continued a turn from its stored answers (ending with the resumption's prompt). */
const resumedRequests = () => model.requests.filter((r) => lastMessage(r.body).includes(RESUME_PROMPT));
const resumptions = () => resumedRequests().length;

async function newSession(client: Anthropic): Promise<string> {
  const env = await client.beta.environments.create({ name: `orphans-${Math.random()}` });
  const agent = await client.beta.agents.create({
    name: "orphans",
    model: "claude-sonnet-5-5",
    tools: [
      {
        type: "custom",
        name: "lookup",
        description: "Looks a thing up in the application",
        input_schema: { type: "object", properties: { q: { type: "string" } } },
      },
    ],
  });
  return (await client.beta.sessions.create({ agent: agent.id, environment_id: env.id })).id;
}

/**
 * Opens a session on `owner`, streams its events from `watcher`, sends `text` and reads until the turn waits on
 * `calls` custom tool calls: the session, the open stream and the events read so far.
 */
async function waitingTurn(owner: Anthropic, watcher: Anthropic, text: string, calls: number) {
  const session = await newSession(owner);
  const stream = await watcher.beta.sessions.events.stream(session);
  const events = stream[Symbol.asyncIterator]();
  await owner.beta.sessions.events.send(session, userMessage(text));
  const waiting = await readUntil(events, waitingOn(calls));
  return { session, stream, events, waiting };
}

describe("three instances on one PostgreSQL", () => {
  let db: string;
  const servers: ServeProcess[] = [];
  const start = async () => {
    const server = await startServe(["--db", db, "--api-key", KEY], {
      ANTHROPIC_API_KEY: TEST_API_KEY,
      ANTHROPIC_BASE_URL: model.url,
    });
    servers.push(server);
    return { server, client: sdkClient(server.url, KEY) };
  };
  beforeAll(async () => {
    db = await postgres.createDatabase("orphans");
  }, 60_000);
  afterAll(async () => {
    for (const server of servers) if (server.process.exitCode === null) await server.stop();
  });
  /**
   * Holds `session`'s turn lock on a connection of its own, standing for the turn's owner still alive (its
   * instance is gone), while `whileHeld` runs; then the owner "dies": the lock is let go.
   */
  const asOwner = async (session: string, whileHeld: (owner: pg.Client) => Promise<void>) => {
    const owner = new pg.Client({ connectionString: db });
    await owner.connect();
    try {
      const hold = "SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok";
      while ((await owner.query(hold, [TURN_LOCK_CLASS, session])).rows[0]?.ok !== true) await sleep(20);
      await whileHeld(owner);
      await owner.query("SELECT pg_advisory_unlock($1, hashtext($2))", [TURN_LOCK_CLASS, session]);
    } finally {
      await owner.end();
    }
  };

  it("resumes a turn whose instance died, once, when its answers arrive on two other instances", async () => {
    const a = await start();
    const b = await start();
    const c = await start();
    const { session, stream, events, waiting } = await waitingTurn(a.client, b.client, "ask twice", 2);
    const uses = waiting.flatMap((e) => (e.type === "agent.custom_tool_use" ? [e.id] : []));
    expect(uses).toHaveLength(2);
    a.server.process.kill("SIGKILL");
    await a.server.process;

    // Each answer goes to a different live instance, at once: both may try, one resumes.
    await Promise.all([
      b.client.beta.sessions.events.send(session, result(uses[0] ?? "", "ALPHA-ANSWER")),
      c.client.beta.sessions.events.send(session, result(uses[1] ?? "", "BETA-ANSWER")),
    ]);
    const after = await readUntil(events, ended);
    expect(JSON.stringify(after.filter((e) => e.type === "agent.message"))).toContain(
      "resumed after the crash",
    );
    const resumed = resumedRequests()[0];
    expect(JSON.stringify(resumed?.body)).toContain("ALPHA-ANSWER");
    expect(JSON.stringify(resumed?.body)).toContain("BETA-ANSWER");

    // A turn on each of B and C runs after whatever each did with its answer: then nothing else resumed.
    for (const instance of [c, b]) {
      await instance.client.beta.sessions.events.send(session, userMessage("wrap up"));
      await readUntil(events, ended);
    }
    stream.controller.abort();
    expect(resumptions()).toBe(1);
    const listed: Event[] = [];
    for await (const e of b.client.beta.sessions.events.list(session)) listed.push(e);
    const last = waiting.at(-1);
    const kill = listed.findIndex((e) => "id" in e && last !== undefined && "id" in last && e.id === last.id);
    const running = listed.slice(kill).filter((e) => e.type === "session.status_running");
    // The resumed turn, then the two wrap-up turns.
    expect(running).toHaveLength(3);
    await b.server.stop();
    await c.server.stop();
  }, 120_000);

  it("leaves a live owner's turn to it when the answer arrives on another instance", async () => {
    const a = await start();
    const b = await start();
    const before = resumptions();
    const { session, stream, events, waiting } = await waitingTurn(a.client, b.client, "ask live", 1);
    const use = waiting.find((e) => e.type === "agent.custom_tool_use");
    await b.client.beta.sessions.events.send(session, result(use?.id ?? "", "LIVE-ANSWER"));
    const after = await readUntil(events, ended);
    expect(JSON.stringify(after)).toContain("answered by the live owner");
    // B's handling of the answer is done once a turn of B's has run after it.
    await b.client.beta.sessions.events.send(session, userMessage("wrap up"));
    await readUntil(events, ended);
    stream.controller.abort();
    expect(resumptions()).toBe(before);
    await a.server.stop();
    await b.server.stop();
  }, 120_000);

  it("resumes the turn when its owner dies after another instance found the lock held on the answer", async () => {
    const a = await start();
    const b = await start();
    const before = resumptions();
    const { session, stream, events, waiting } = await waitingTurn(a.client, b.client, "ask late", 1);
    const use = waiting.find((e) => e.type === "agent.custom_tool_use");
    // The owner "still alive" when B gets the answer: A is gone, but `asOwner` holds the turn lock as A
    // did, so B's check finds it held; then the owner "dies" (the lock is let go) before reading the answer.
    a.server.process.kill("SIGKILL");
    await a.server.process;
    await asOwner(session, async (owner) => {
      const since = (await owner.query("SELECT clock_timestamp() AS t")).rows[0]?.t;
      await b.client.beta.sessions.events.send(session, result(use?.id ?? "", "LATE-ANSWER"));
      // B tried the lock (and failed: it is held here) after the answer was stored.
      const tried = `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE pid <> pg_backend_pid() AND query LIKE '%pg_try_advisory_lock%' AND state_change > $1`;
      while ((await owner.query(tried, [since])).rows[0]?.n === 0) await sleep(20);
      expect(resumptions()).toBe(before);
    });
    const after = await readUntil(events, ended);
    stream.controller.abort();
    expect(JSON.stringify(after.filter((e) => e.type === "agent.message"))).toContain(
      "resumed after the crash",
    );
    expect(resumptions()).toBe(before + 1);
    expect(JSON.stringify(resumedRequests().at(-1)?.body)).toContain("LATE-ANSWER");
    await b.server.stop();
  }, 120_000);

  it("resumes the turn, once, when the instance that got the answer dies before the turn's owner", async () => {
    const a = await start();
    const b = await start();
    const c = await start();
    const d = await start();
    const before = resumptions();
    const { session, stream, events, waiting } = await waitingTurn(a.client, c.client, "ask watched", 1);
    const use = waiting.find((e) => e.type === "agent.custom_tool_use");
    // As in the test above, `asOwner` stands for the turn's owner, alive when B gets the answer.
    a.server.process.kill("SIGKILL");
    await a.server.process;
    await asOwner(session, async () => {
      await b.client.beta.sessions.events.send(session, result(use?.id ?? "", "WATCHED-ANSWER"));
      // B, which got the answer, dies; then the owner dies without having read it.
      b.server.process.kill("SIGKILL");
      await b.server.process;
      expect(resumptions()).toBe(before);
    });
    // C and D sweep: one of them resumes the turn.
    const after = await readUntil(events, ended);
    expect(JSON.stringify(after.filter((e) => e.type === "agent.message"))).toContain(
      "resumed after the crash",
    );
    expect(JSON.stringify(resumedRequests().at(-1)?.body)).toContain("WATCHED-ANSWER");
    // Sweeps keep running on both: a turn on each after a few sweep periods, and still one resumption.
    await sleep(5_000);
    for (const instance of [c, d]) {
      await instance.client.beta.sessions.events.send(session, userMessage("wrap up"));
      await readUntil(events, ended);
    }
    stream.controller.abort();
    expect(resumptions()).toBe(before + 1);
    await c.server.stop();
    await d.server.stop();
  }, 120_000);
});

describe("a PGlite dir", () => {
  it("a restarted serve resumes the turn its previous run left waiting", async () => {
    const db = tree.path("pglite-orphans");
    const env = { ANTHROPIC_API_KEY: TEST_API_KEY, ANTHROPIC_BASE_URL: model.url };
    const first = await startServe(["--db", db, "--api-key", KEY], env);
    const client = sdkClient(first.url, KEY);
    const session = await newSession(client);
    const stream = await client.beta.sessions.events.stream(session);
    await client.beta.sessions.events.send(session, userMessage("ask on pglite"));
    const waiting = await readUntil(stream[Symbol.asyncIterator](), waitingOn(1));
    stream.controller.abort();
    const use = waiting.find((e) => e.type === "agent.custom_tool_use");
    first.process.kill("SIGKILL");
    await first.process;

    const second = await startServe(["--db", db, "--api-key", KEY], env);
    try {
      const again = sdkClient(second.url, KEY);
      const resumedBefore = resumptions();
      const followed = await again.beta.sessions.events.stream(session);
      await again.beta.sessions.events.send(session, result(use?.id ?? "", "PGLITE-ANSWER"));
      const after = await readUntil(followed[Symbol.asyncIterator](), ended);
      followed.controller.abort();
      expect(after.map((e) => e.type)).toContain("session.status_running");
      expect(resumptions()).toBe(resumedBefore + 1);
      const resumed = resumedRequests().at(-1);
      expect(JSON.stringify(resumed?.body)).toContain("PGLITE-ANSWER");
    } finally {
      await second.stop();
    }
  }, 120_000);
});
