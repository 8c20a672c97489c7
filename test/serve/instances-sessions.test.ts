import type Anthropic from "@anthropic-ai/sdk";
import { toFile } from "@anthropic-ai/sdk";
import type { BetaManagedAgentsStreamSessionEvents } from "@anthropic-ai/sdk/resources/beta/sessions/events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { startPostgres, type TestPostgres } from "../../src/dev/postgres.js";
import { TEST_API_KEY, textTurn, toolTurn } from "../support/model-server.js";
import { readUntil, userMessage } from "../support/session-stream.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

// Two `serve` processes (the shipped bin) on one real PostgreSQL: what one writes, the other serves.

const KEY = "sk-instances";
type Event = BetaManagedAgentsStreamSessionEvents;

let postgres: TestPostgres;
let model: ModelServer;
let a: ServeProcess;
let b: ServeProcess;
let clientA: Anthropic;
let clientB: Anthropic;
let db: string;

const start = () =>
  startServe(["--db", db, "--api-key", KEY], {
    ANTHROPIC_API_KEY: TEST_API_KEY,
    ANTHROPIC_BASE_URL: model.url,
  });

beforeAll(async () => {
  postgres = await startPostgres();
  db = await postgres.createDatabase("instances");
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: {
      turns: [
        textTurn("first answer", { lastUserTextIncludes: "one" }),
        textTurn("second answer", { lastUserTextIncludes: "two" }),
        toolTurn("Skill", { skill: "notes" }, { match: { lastUserTextIncludes: "slow" } }),
        {
          match: { hasToolResultFor: "Skill" },
          delayMs: 60_000,
          response: { content: [{ type: "text", text: "never" }] },
        },
        textTurn("after the crash", { lastUserTextIncludes: "again" }),
      ],
    },
  });
  a = await start();
  b = await start();
  clientA = sdkClient(a.url, KEY);
  clientB = sdkClient(b.url, KEY);
}, 120_000);
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await model?.close();
  await postgres?.stop();
});

const idle = (e: Event) => e.type === "session.status_idle";

describe("two instances on one PostgreSQL", () => {
  let agentId: string;
  let envId: string;

  it("lists on one instance a version published through the other", async () => {
    const file = (text: string) => toFile(Buffer.from(text), "notes/SKILL.md");
    const skill = await clientA.beta.skills.create({
      files: [await file("---\nname: notes\ndescription: Takes notes\n---\nNOTES v1\n")],
    });
    expect((await clientB.beta.skills.versions.list(skill.id)).data).toHaveLength(1);
    const v2 = await clientA.beta.skills.versions.create(skill.id, {
      files: [await file("---\nname: notes\ndescription: Takes notes\n---\nNOTES v2\n")],
    });
    const seen = await clientB.beta.skills.versions.list(skill.id);
    expect(seen.data.map((v) => v.id)).toContain(v2.id);
    expect((await clientB.beta.skills.retrieve(skill.id)).latest_version_id).toBe(v2.id);
    const env = await clientA.beta.environments.create({ name: "shared" });
    const agent = await clientA.beta.agents.create({
      name: "shared",
      model: "claude-sonnet-5-5",
      skills: [{ type: "custom", skill_id: skill.id }],
    });
    agentId = agent.id;
    envId = env.id;
  });

  it("continues a session started on one instance on the other, its stream too", async () => {
    const session = await clientA.beta.sessions.create({ agent: agentId, environment_id: envId });
    // Streamed from B while A runs the turn.
    const streamB = await clientB.beta.sessions.events.stream(session.id);
    await clientA.beta.sessions.events.send(session.id, userMessage("turn one"));
    const first = await readUntil(streamB[Symbol.asyncIterator](), idle);
    streamB.controller.abort();
    expect(JSON.stringify(first)).toContain("first answer");
    // The next message goes to B, which resumes the conversation A kept in the database.
    const streamA = await clientA.beta.sessions.events.stream(session.id);
    await clientB.beta.sessions.events.send(session.id, userMessage("turn two"));
    const second = await readUntil(streamA[Symbol.asyncIterator](), idle);
    streamA.controller.abort();
    expect(JSON.stringify(second)).toContain("second answer");
    const request = JSON.stringify(model.requests.at(-1)?.body);
    expect(request).toContain("turn one");
    expect(request).toContain("first answer");
  });

  it("loses no finished event when the instance running a turn is SIGKILLed", async () => {
    const session = await clientA.beta.sessions.create({ agent: agentId, environment_id: envId });
    const stream = await clientB.beta.sessions.events.stream(session.id);
    const events = stream[Symbol.asyncIterator]();
    await clientA.beta.sessions.events.send(session.id, userMessage("slow work"));
    // The Skill call is done; the next model request hangs (60 s): kill A in the middle of the turn.
    const before = await readUntil(events, (e) => e.type === "agent.tool_result");
    a.process.kill("SIGKILL");
    await a.process;
    const listed: Event[] = [];
    for await (const e of clientB.beta.sessions.events.list(session.id)) listed.push(e);
    const ids = (events: Event[]) => events.map((e) => ("id" in e ? e.id : ""));
    expect(ids(listed).slice(0, before.length)).toEqual(ids(before));
    expect(listed.map((e) => e.type)).toContain("agent.tool_result");
    // B takes the session on.
    await clientB.beta.sessions.events.send(session.id, userMessage("again"));
    const after = await readUntil(events, (e) => e.type === "agent.message");
    stream.controller.abort();
    expect(JSON.stringify(after)).toContain("after the crash");
    a = await start();
  }, 60_000);
});
