import type Anthropic from "@anthropic-ai/sdk";
import { toFile } from "@anthropic-ai/sdk";
import type { BetaManagedAgentsStreamSessionEvents } from "@anthropic-ai/sdk/resources/beta/sessions/events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { startPostgres, type TestPostgres } from "../../src/dev/postgres.js";
import { CRASH_AFTER_EVENT_ENV } from "../../src/serve/sessions/crash-fault.js";
import { RESULT_LOST_TEXT } from "../../src/serve/sessions/orphan-resume.js";
import { ABANDONED_TURN_TEXT, SHUTDOWN_TURN_TEXT } from "../../src/serve/sessions/turn-queue.js";
import { TEST_API_KEY, textTurn, toolTurn } from "../support/model-server.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { waitUntil } from "../support/processes.js";
import { readUntil, sayAndRead, userMessage } from "../support/session-stream.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

// The shipped `serve` is SIGKILLed at each stage of a turn (just started, mid-stream, after a tool result, while
// the turn's events are written), with a message queued behind it, and checked after: the database opens, no
// event a stream saw is lost, the session is idle with a session.error within 30 s, the queued message ran or
// was refused by an event, and a new message is answered. On a PGlite dir the restarted serve cleans up; on
// PostgreSQL a second instance that stayed up does. `CRASH_CYCLES` (default 4, one per stage) sets how many
// kills per database; `npm run crash-test` runs many. Recovery is judged by the order of the stored events
// (never by a status read at one moment: a session is idle between the abandoned turn and its queued one). One
// kill is exact, not timed: SKILLWRIGHT_CRASH_AFTER_EVENT stops an instance right after the batch holding its
// turn's agent.tool_use is stored. A SIGTERM ends a running turn with a terminal event.

const KEY = "sk-crash";
const CYCLES = Number(process.env.CRASH_CYCLES ?? "4");
/** How long a session may stay `running` after its instance died (the bound). */
const RECOVERY_MS = 30_000;
const STAGES = ["started", "mid-stream", "after-tool-result", "writing-events"] as const;
type Stage = (typeof STAGES)[number];
type Event = BetaManagedAgentsStreamSessionEvents;

let model: ModelServer;
let postgres: TestPostgres;
let tree: TmpTree;

beforeAll(async () => {
  tree = await tmpTree({});
  postgres = await startPostgres();
  model = await startModelServer({ apiKey: TEST_API_KEY, script: { turns: [] } });
}, 120_000);
afterAll(async () => {
  await model?.close();
  await postgres?.stop();
  await tree?.cleanup();
});

const env = () => ({ ANTHROPIC_API_KEY: TEST_API_KEY, ANTHROPIC_BASE_URL: model.url });
const held = { type: "text" as const, text: "a held answer" };
/** A response that stops after `afterEvents` SSE events and holds until its client goes away. */
const stall = (match: ScriptTurnInput["match"], afterEvents = 0): ScriptTurnInput => ({
  ...(match === undefined ? {} : { match }),
  response: { content: [held, { ...held, text: "and more" }] },
  fault: { kind: "stall", afterEvents },
});

/** The model's script for one cycle (`tag` is in every user text of it): the turn to hold, then the answers. */
function script(stage: Stage, tag: string): ScriptTurnInput[] {
  const go = { lastUserTextIncludes: `${tag} go` };
  const answers = [
    textTurn(`queued ran ${tag}`, { lastUserTextIncludes: `${tag} queued` }),
    textTurn(`after ran ${tag}`, { lastUserTextIncludes: `${tag} after` }),
  ];
  switch (stage) {
    case "started":
      return [stall(go), ...answers];
    case "mid-stream":
      // message_start, the text block's start and delta: then the stream holds.
      return [stall(go, 3), ...answers];
    case "after-tool-result":
    case "writing-events":
      return [
        toolTurn("Skill", { skill: "crash-skill" }, { match: go, text: `calling the skill ${tag}` }),
        stall({ hasToolResultFor: "Skill" }),
        ...answers,
      ];
  }
}

/** Whether the cycle's turn has reached `stage` (the events its stream saw, and the model's requests). */
function reached(stage: Stage, seen: readonly Event[], tag: string): boolean {
  const stalled = () =>
    model.requests.some((r) => r.stalled === true && JSON.stringify(r.body).includes(`${tag} go`));
  switch (stage) {
    case "started":
      return seen.some((e) => e.type === "session.status_running");
    case "mid-stream":
      return stalled();
    case "after-tool-result":
      return seen.some((e) => e.type === "agent.tool_result") && stalled();
    case "writing-events":
      return seen.some((e) => e.type === "agent.message");
  }
}

/** A fresh agent (with the crash skill) and environment, on `client`. */
async function setUp(client: Anthropic): Promise<{ agent: string; environment: string }> {
  const skill = await client.beta.skills.create({
    files: [
      await toFile(
        Buffer.from("---\nname: crash-skill\ndescription: A skill to call\n---\nDo the thing.\n"),
        "crash-skill/SKILL.md",
      ),
    ],
  });
  const agent = await client.beta.agents.create({
    name: "crasher",
    model: "claude-sonnet-5-5",
    skills: [{ type: "custom", skill_id: skill.id }],
  });
  const environment = await client.beta.environments.create({ name: `crash-${agent.id}` });
  return { agent: agent.id, environment: environment.id };
}

async function listed(client: Anthropic, session: string): Promise<Event[]> {
  const events: Event[] = [];
  for await (const e of client.beta.sessions.events.list(session)) events.push(e);
  return events;
}

const idOf = (e: Event): string => ("id" in e && typeof e.id === "string" ? e.id : "");

/**
 * One cycle: a turn held at `stage` with a message queued behind it, its instance SIGKILLed; `recover` brings an
 * instance that cleans up (a restart, or one still up) and returns its client. Returns the invariants broken.
 */
async function cycle(
  n: number,
  client: Anthropic,
  victim: ServeProcess,
  recover: () => Promise<Anthropic>,
  ids: { agent: string; environment: string },
  label: string,
): Promise<string[]> {
  const stage = STAGES[n % STAGES.length] ?? "started";
  const tag = `${label}-${n}-${stage}`;
  model.addTurns(script(stage, tag));
  const session = (await client.beta.sessions.create({ agent: ids.agent, environment_id: ids.environment }))
    .id;
  const stream = await client.beta.sessions.events.stream(session);
  const events = stream[Symbol.asyncIterator]();
  await client.beta.sessions.events.send(session, userMessage(`${tag} go`));
  const seen: Event[] = [];
  // Read the turn's events until it is at its stage (the model's side is checked after each event, and
  // polled once the stream has nothing more to say before the held request).
  const reading = readUntil(events, (e) => {
    seen.push(e);
    return reached(stage, seen, tag);
  }).catch(() => []);
  if (!(await waitUntil(() => reached(stage, seen, tag), RECOVERY_MS))) return [`${tag}: never reached`];
  const queued = (await client.beta.sessions.events.send(session, userMessage(`${tag} queued`))).data?.[0]
    ?.id;
  victim.process.kill("SIGKILL");
  await victim.process;
  stream.controller.abort();
  await reading;

  const violations: string[] = [];
  const after = await recover().catch((error: unknown) => {
    violations.push(`${tag}: the database did not open again: ${String(error)}`);
    return undefined;
  });
  if (after === undefined) return violations;
  // Recovery is read from the event log's order, not from a moment's status: the abandoned turn's end
  // (session.error, then session.status_idle), then the queued message's own turn (or its refusal) and the
  // session.status_idle after it. Between the two the session is idle for as long as the instance takes to
  // start the queued turn, so an idle status alone does not say the queue is done.
  const closed = (list: readonly Event[]): boolean => {
    const told = list.findIndex((e) => e.type === "session.error" && e.error.message === ABANDONED_TURN_TEXT);
    return told !== -1 && list.slice(told).some((e) => e.type === "session.status_idle");
  };
  const fate = (list: readonly Event[]) => ({
    ran: list.some(
      (e) => e.type === "agent.message" && JSON.stringify(e.content).includes(`queued ran ${tag}`),
    ),
    refused: list.some((e) => e.type === "session.error" && e.error.message.includes(`${queued}`)),
  });
  const settled = await waitUntil(async () => closed(await listed(after, session)), RECOVERY_MS);
  if (!settled) violations.push(`${tag}: not idle with a session.error within ${RECOVERY_MS} ms`);
  const done = await waitUntil(async () => {
    const list = await listed(after, session);
    const { ran, refused } = fate(list);
    const status = (await after.beta.sessions.retrieve(session)).status;
    return (ran || refused) && list.at(-1)?.type === "session.status_idle" && status === "idle";
  }, RECOVERY_MS);
  const list = await listed(after, session);
  const stored = new Set(list.map(idOf));
  const lost = seen.map(idOf).filter((id) => id !== "" && !stored.has(id));
  if (lost.length > 0) violations.push(`${tag}: events seen before the kill are gone: ${lost.join(", ")}`);
  const { ran: ranQueued, refused } = fate(list);
  if (!ranQueued && !refused)
    violations.push(`${tag}: the queued message ${queued} neither ran nor was refused`);
  else if (!done) violations.push(`${tag}: the queued message's turn did not end within ${RECOVERY_MS} ms`);
  const starts = list.filter((e) => e.type === "span.model_request_start").map(idOf);
  const ends = new Set(
    list.flatMap((e) => (e.type === "span.model_request_end" ? [e.model_request_start_id] : [])),
  );
  const open = starts.filter((id) => !ends.has(id));
  if (open.length > 0) violations.push(`${tag}: model request spans never ended: ${open.join(", ")}`);
  // A new message is answered.
  const next = await after.beta.sessions.events.stream(session);
  await after.beta.sessions.events.send(session, userMessage(`${tag} after`));
  const answered = await readUntil(
    next[Symbol.asyncIterator](),
    (e) => e.type === "session.status_idle",
  ).catch(() => []);
  next.controller.abort();
  if (!JSON.stringify(answered).includes(`after ran ${tag}`))
    violations.push(`${tag}: no answer to a new message`);
  return violations;
}

const start = (db: string) => startServe(["--db", db, "--api-key", KEY], env());

describe("a serve killed in the middle of turns", () => {
  it(
    `a PGlite dir: ${CYCLES} kills, each cleaned up by the restarted serve`,
    async () => {
      const db = await freshPgliteDir(tree.path("crash-pglite"));
      let server = await start(db);
      const ids = await setUp(sdkClient(server.url, KEY));
      const violations: string[] = [];
      for (let n = 0; n < CYCLES; n++) {
        const victim = server;
        violations.push(
          ...(await cycle(
            n,
            sdkClient(victim.url, KEY),
            victim,
            async () => {
              server = await start(db);
              return sdkClient(server.url, KEY);
            },
            ids,
            "pglite",
          )),
        );
      }
      await server.stop();
      console.log(`crash cycles on PGlite: ${CYCLES}, violations: ${violations.length}`, violations);
      expect(violations).toEqual([]);
    },
    CYCLES * 120_000,
  );

  it(
    `PostgreSQL: ${CYCLES} kills of one instance, each cleaned up by the instance that stayed up`,
    async () => {
      const db = await postgres.createDatabase("crash");
      const survivor = await start(db);
      let victim = await start(db);
      const ids = await setUp(sdkClient(survivor.url, KEY));
      const violations: string[] = [];
      for (let n = 0; n < CYCLES; n++) {
        violations.push(
          ...(await cycle(
            n,
            sdkClient(victim.url, KEY),
            victim,
            async () => sdkClient(survivor.url, KEY),
            ids,
            "pg",
          )),
        );
        victim = await start(db);
      }
      await victim.stop();
      await survivor.stop();
      console.log(`crash cycles on PostgreSQL: ${CYCLES}, violations: ${violations.length}`, violations);
      expect(violations).toEqual([]);
    },
    CYCLES * 120_000,
  );

  it("PostgreSQL: an instance killed right after storing the batch of a turn's agent.tool_use leaves a session the other instance ends, then runs its queued message and answers a new one", async () => {
    const db = await postgres.createDatabase("half_written");
    const survivor = await start(db);
    // The fault: the victim SIGKILLs itself once the batch holding the model's call is stored.
    const victim = await startServe(["--db", db, "--api-key", KEY], {
      ...env(),
      [CRASH_AFTER_EVENT_ENV]: "agent.tool_use",
    });
    try {
      const onSurvivor = sdkClient(survivor.url, KEY);
      const ids = await setUp(onSurvivor);
      model.addTurns([
        toolTurn(
          "Skill",
          { skill: "crash-skill" },
          { id: "toolu_half_written", match: { lastUserTextIncludes: "half go" } },
        ),
        // Only a victim that lived on would ask this (its turn then ends, and the checks below say why).
        textTurn("the skill ran half", { hasToolResultFor: "toolu_half_written" }),
        textTurn("queued ran half", { lastUserTextIncludes: "half queued" }),
        textTurn("after ran half", { lastUserTextIncludes: "half after" }),
      ]);
      const onVictim = sdkClient(victim.url, KEY);
      const session = (
        await onVictim.beta.sessions.create({ agent: ids.agent, environment_id: ids.environment })
      ).id;
      // The survivor's stream sees the victim's events through PostgreSQL's NOTIFY, then its own.
      const stream = await onSurvivor.beta.sessions.events.stream(session);
      const events = stream[Symbol.asyncIterator]();
      // One request: the first message's turn starts, the second waits in the queue behind it.
      await onVictim.beta.sessions.events.send(session, {
        events: [...userMessage("half go").events, ...userMessage("half queued").events],
      });
      const seen = await readUntil(
        events,
        (e) => e.type === "agent.message" && JSON.stringify(e.content).includes("queued ran half"),
      );
      seen.push(...(await readUntil(events, (e) => e.type === "session.status_idle")));
      stream.controller.abort();

      const types = seen.map((e) => e.type);
      const call = types.indexOf("agent.tool_use");
      const told = seen.findIndex(
        (e) => e.type === "session.error" && e.error.message === ABANDONED_TURN_TEXT,
      );
      // The turn stopped after its call was stored (no status_idle of its own): the survivor ended it, then ran
      // the queued message.
      expect(call).toBeGreaterThan(-1);
      expect(told).toBeGreaterThan(call);
      expect(types.slice(call, told)).not.toContain("session.status_idle");
      expect(seen[told + 1]).toMatchObject({
        type: "session.status_idle",
        stop_reason: { type: "retries_exhausted" },
      });
      expect(types.slice(told + 2)).toContain("session.status_running");
      expect(seen.at(-1)?.type).toBe("session.status_idle");
      // The queued turn's request is a whole conversation: the call has a result (its own, or "result lost").
      const queuedRequest = model.requests.find((r) => JSON.stringify(r.body).includes("half queued"));
      const sent = JSON.stringify(queuedRequest?.body);
      expect(sent).toContain('"tool_use_id":"toolu_half_written"');
      if (!types.includes("agent.tool_result")) expect(sent).toContain(RESULT_LOST_TEXT);
      // Nothing the survivor's stream saw is missing from the log, and a new message is answered.
      const stored = new Set((await listed(onSurvivor, session)).map(idOf));
      expect(seen.map(idOf).filter((id) => !stored.has(id))).toEqual([]);
      const answer = await sayAndRead(onSurvivor, session, "half after");
      expect(JSON.stringify(answer)).toContain("after ran half");
      // The victim died of the fault (asked last: a victim that lived on never exits by itself).
      expect((await victim.process).signal).toBe("SIGKILL");
    } finally {
      victim.process.kill("SIGKILL");
      await victim.process;
      await survivor.stop();
    }
  }, 240_000);

  it("PostgreSQL: a user.interrupt sent to another instance stops the turn, its span ended as an error", async () => {
    const db = await postgres.createDatabase("interrupts");
    const owner = await start(db);
    const other = await start(db);
    try {
      const client = sdkClient(owner.url, KEY);
      const ids = await setUp(client);
      model.addTurns([stall({ lastUserTextIncludes: "remote go" })]);
      const session = (
        await client.beta.sessions.create({ agent: ids.agent, environment_id: ids.environment })
      ).id;
      const stream = await client.beta.sessions.events.stream(session);
      const events = stream[Symbol.asyncIterator]();
      await client.beta.sessions.events.send(session, userMessage("remote go"));
      const begun = await readUntil(events, (e) => e.type === "span.model_request_start");
      await sdkClient(other.url, KEY).beta.sessions.events.send(session, {
        events: [{ type: "user.interrupt" }],
      });
      const rest = await readUntil(events, (e) => e.type === "session.status_idle");
      stream.controller.abort();
      expect(rest.find((e) => e.type === "span.model_request_end")).toMatchObject({
        model_request_start_id: begun.map(idOf).at(-1),
        is_error: true,
      });
    } finally {
      await owner.stop();
      await other.stop();
    }
  }, 120_000);

  it("a SIGTERM ends a running turn with a terminal event on its stream, and its queued message runs after", async () => {
    const db = await freshPgliteDir(tree.path("sigterm-pglite"));
    const first = await startServe(["--db", db, "--api-key", KEY], {
      ...env(),
      SKILLWRIGHT_SHUTDOWN_GRACE_MS: "200",
    });
    const client = sdkClient(first.url, KEY);
    const ids = await setUp(client);
    model.addTurns([
      stall({ lastUserTextIncludes: "sigterm go" }),
      textTurn("queued ran after sigterm", { lastUserTextIncludes: "sigterm queued" }),
    ]);
    const session = (await client.beta.sessions.create({ agent: ids.agent, environment_id: ids.environment }))
      .id;
    const stream = await client.beta.sessions.events.stream(session);
    const events = stream[Symbol.asyncIterator]();
    await client.beta.sessions.events.send(session, userMessage("sigterm go"));
    const begun = await readUntil(events, (e) => e.type === "span.model_request_start");
    const queued = await client.beta.sessions.events.send(session, userMessage("sigterm queued"));
    await first.stop();
    expect(first.process.exitCode).toBe(0);
    // The stream got the turn's end, then ended.
    const rest: Event[] = [];
    for (;;) {
      const next = await events.next();
      if (next.done === true) break;
      rest.push(next.value);
    }
    expect(rest.find((e) => e.type === "span.model_request_end")).toMatchObject({
      model_request_start_id: begun.map(idOf).at(-1),
      is_error: true,
    });
    expect(rest.some((e) => e.type === "session.error" && e.error.message === SHUTDOWN_TURN_TEXT)).toBe(true);
    expect(rest.at(-1)).toMatchObject({
      type: "session.status_idle",
      stop_reason: { type: "retries_exhausted" },
    });
    // The message queued behind it was kept, and runs on the next start.
    const second = await start(db);
    try {
      const again = sdkClient(second.url, KEY);
      expect(
        await waitUntil(
          async () => JSON.stringify(await listed(again, session)).includes("queued ran after sigterm"),
          RECOVERY_MS,
        ),
      ).toBe(true);
      expect(JSON.stringify(await listed(again, session))).toContain(queued.data?.[0]?.id ?? "?");
    } finally {
      await second.stop();
    }
  }, 240_000);
});
