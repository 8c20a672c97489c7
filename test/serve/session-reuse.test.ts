import type Anthropic from "@anthropic-ai/sdk";
import { toFile } from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelClient } from "../../src/agent/model-client.js";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { createEventSignals } from "../../src/serve/events/event-signals.js";
import { createServeApp } from "../../src/serve/http/app.js";
import { createSessionRunner } from "../../src/serve/sessions/runner.js";
import { createSharedTurnLocks } from "../../src/serve/sessions/turn-locks.js";
import type { SqlDriver } from "../../src/serve/store/driver.js";
import { createStore, type Store } from "../../src/serve/store/store.js";
import { addApiKey, ensureWorkspace } from "../../src/serve/store/workspaces.js";
import { TEST_API_KEY, textTurn, toolTurn } from "../support/model-server.js";
import { freshPgliteDriver } from "../support/pglite-template.js";
import { listenInProcess, sdkClient } from "./serve-process.js";

// A served session stays open on the instance that ran its last turn: the next turn there reuses it (no
// transcript read, no engine rebuilt), yet sees what changed in the database since: a turn another instance
// ran, a new `latest` skill version, another agent snapshot. Two runners on one database are two instances.

const KEY = "sk-reuse";

let model: ModelServer;
let store: Store;
let ws: string;
const statements: string[] = [];
/** Each statement's parameters, as JSON (same order as `statements`). */
const parameters: string[] = [];
const instances: {
  client: Anthropic;
  runner: ReturnType<typeof createSessionRunner>;
  close(): Promise<void>;
}[] = [];

/** Records every statement the store runs (the runner's and the routes'). */
function counting(db: SqlDriver): SqlDriver {
  return {
    kind: db.kind,
    query(sql, params) {
      statements.push(sql);
      parameters.push(JSON.stringify(params ?? []));
      return db.query(sql, params);
    },
    transaction: (fn) =>
      db.transaction((tx) =>
        fn({
          query(sql, params) {
            statements.push(sql);
            parameters.push(JSON.stringify(params ?? []));
            return tx.query(sql, params);
          },
        }),
      ),
    close: () => db.close(),
  };
}

beforeAll(async () => {
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: {
      turns: [
        ...[1, 2].flatMap(() => [
          toolTurn("Skill", { skill: "reused" }, { match: { lastUserTextIncludes: "use the skill" } }),
          textTurn("used it", { hasToolResultFor: "Skill" }),
        ]),
        { ...textTurn("ok"), repeat: true },
      ],
    },
  });
  store = await createStore(counting(await freshPgliteDriver()));
  ws = await ensureWorkspace(store.db, "default");
  await addApiKey(store.db, ws, KEY);
  // Two instances on one database: a turn one of them runs is not the other's to take over.
  const owners = new Map<string, object>();
  for (let n = 0; n < 2; n++) {
    const runner = createSessionRunner({
      store,
      signals: createEventSignals(),
      followIntervalMs: 50,
      turnLocks: createSharedTurnLocks(owners),
      client: createModelClient({ apiKey: TEST_API_KEY, baseURL: model.url, maxRetries: 0 }),
    });
    const served = await listenInProcess(createServeApp({ store, runner }));
    instances.push({ client: sdkClient(served.url, KEY), runner, close: served.close });
  }
}, 60_000);
afterAll(async () => {
  for (const instance of instances) {
    await instance.runner.close();
    await instance.close();
  }
  await store?.close();
  await model?.close();
});

const skillMd = (marker: string) =>
  toFile(
    Buffer.from(`---\nname: reused\ndescription: A reused skill\n---\n${marker}: follow me.\n`),
    "reused/SKILL.md",
  );

/** Runs one turn of `sessionId` on instance `n`; resolves with the event types once it is idle. */
async function say(n: number, sessionId: string, text: string): Promise<string[]> {
  const client = instances[n]?.client;
  if (client === undefined) throw new Error(`no instance ${n}`);
  const stream = await client.beta.sessions.events.stream(sessionId);
  await client.beta.sessions.events.send(sessionId, {
    events: [{ type: "user.message", content: [{ type: "text", text }] }],
  });
  const types: string[] = [];
  try {
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === "session.status_idle") break;
    }
  } finally {
    stream.controller.abort();
  }
  return types;
}

/** The last model request's body, as text. */
const lastRequest = (): string => JSON.stringify(model.requests.at(-1)?.body ?? null);

async function newSession(system = "You help.") {
  const client = instances[0]?.client;
  if (client === undefined) throw new Error("no instance");
  const skill = await client.beta.skills.create({ files: [await skillMd("REUSE-BODY-V1")] });
  const env = await client.beta.environments.create({ name: `reuse-${skill.id}` });
  const agent = await client.beta.agents.create({
    name: "reuser",
    model: "claude-sonnet-5-5",
    system,
    skills: [{ type: "custom", skill_id: skill.id }],
  });
  const session = await client.beta.sessions.create({ agent: agent.id, environment_id: env.id });
  return { client, skill, session };
}

const transcriptReads = () => statements.filter((s) => /SELECT seq, entry FROM session_transcripts/.test(s));
const skillReads = () => statements.filter((s) => /^SELECT \* FROM skills WHERE id = \$1/.test(s));

describe("served sessions kept open between turns", () => {
  it("reuses the open session on the next turn: no transcript read, no skill re-read, history kept", async () => {
    const { session } = await newSession();
    expect(await say(0, session.id, "first turn")).toContain("agent.message");
    const reads = transcriptReads().length;
    const skills = skillReads().length;
    expect(await say(0, session.id, "second turn")).toContain("agent.message");
    expect(transcriptReads().length).toBe(reads);
    expect(skillReads().length).toBe(skills);
    // The conversation went on in memory: the second request holds the first turn.
    expect(lastRequest()).toContain("first turn");
    expect(lastRequest()).toContain("second turn");
  });

  it("stores a turn's running status in the same statement as the user.message that starts it", async () => {
    const { session } = await newSession();
    const from = parameters.length;
    await say(0, session.id, "one statement");
    const appends = parameters
      .slice(from)
      .filter((p) => p.includes("session.status_running") && p.includes(session.id));
    expect(appends).toHaveLength(1);
    expect(appends[0]).toContain("one statement");
  });

  it("resumes from the database on an instance whose copy went stale because another ran a turn", async () => {
    const { session } = await newSession();
    await say(0, session.id, "turn on A");
    await say(1, session.id, "turn on B");
    await say(0, session.id, "back on A");
    const request = lastRequest();
    expect(request).toContain("turn on A");
    expect(request).toContain("turn on B");
    expect(request).toContain("back on A");
  });

  it("runs a skill's new latest version on the next turn of a kept session", async () => {
    const { client, skill, session } = await newSession();
    await say(0, session.id, "use the skill");
    expect(lastRequest()).toContain("REUSE-BODY-V1");
    await client.beta.skills.versions.create(skill.id, { files: [await skillMd("REUSE-BODY-V2")] });
    const reads = transcriptReads().length;
    await say(0, session.id, "use the skill again");
    expect(transcriptReads().length).toBe(reads);
    const request = lastRequest();
    expect(request.lastIndexOf("REUSE-BODY-V2")).toBeGreaterThan(request.lastIndexOf("REUSE-BODY-V1"));
  });

  it("reopens a kept session whose agent snapshot changed", async () => {
    const { session } = await newSession("SYSTEM-ONE");
    await say(0, session.id, "with the first agent");
    expect(lastRequest()).toContain("SYSTEM-ONE");
    const stored = await store.sessions.get(ws, session.id);
    const changed = { ...stored, agent: { ...stored.agent, system: "SYSTEM-TWO" } };
    const runner = instances[0]?.runner;
    if (runner === undefined) throw new Error("no runner");
    const events = await runner.subscribe(ws, session.id, AbortSignal.timeout(30_000));
    await runner.send(ws, changed, [{ type: "user.message", content: [{ type: "text", text: "again" }] }]);
    for await (const event of events) if (event.type === "session.status_idle") break;
    expect(lastRequest()).toContain("SYSTEM-TWO");
    expect(lastRequest()).toContain("with the first agent");
  });

  it("does not keep a session whose MCP server failed: the next turn tries the server again", async () => {
    const client = instances[0]?.client;
    if (client === undefined) throw new Error("no instance");
    const env = await client.beta.environments.create({ name: "reuse-mcp" });
    const agent = await client.beta.agents.create({
      name: "mcp-reuser",
      model: "claude-sonnet-5-5",
      // A link-local address the runner refuses: a `session.error` for the server, and the turn goes on.
      mcp_servers: [{ type: "url", name: "metadata", url: "http://169.254.169.254/mcp" }],
      tools: [{ type: "mcp_toolset", mcp_server_name: "metadata" }],
    });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: env.id });
    expect(await say(0, session.id, "first try")).toContain("session.error");
    expect(await say(0, session.id, "second try")).toContain("session.error");
  });

  it("closes the open copy of a session deleted or archived", async () => {
    const runner = instances[0]?.runner;
    if (runner === undefined) throw new Error("no runner");
    const { client, session } = await newSession();
    const other = await newSession();
    await say(0, session.id, "to be deleted");
    await say(0, other.session.id, "to be archived");
    const open = runner.liveCount();
    await client.beta.sessions.delete(session.id);
    expect(runner.liveCount()).toBe(open - 1);
    await client.beta.sessions.archive(other.session.id);
    expect(runner.liveCount()).toBe(open - 2);
  });
});
