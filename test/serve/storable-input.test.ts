import type Anthropic from "@anthropic-ai/sdk";
import { toFile } from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { TEST_API_KEY, textTurn, toolTurn } from "../support/model-server.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { usePostgresAndTree } from "../support/postgres-tree.js";
import { all, apiError } from "../support/sdk-calls.js";
import { sayAndRead, toolResultSent } from "../support/session-stream.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

// Issue #39 item 3 and the small ones of item 5, through the shipped bin's `serve` and the official SDK client,
// on PGlite and on PostgreSQL: what the model writes is stored whatever it holds (a NUL or a lone surrogate in a
// tool's input or in its answer becomes U+FFFD, and the call is in the event log), what a client sends with a
// NUL or a lone surrogate is a 400 naming the field with nothing stored, downloads are attachments with
// nosniff, and one request cannot queue thousands of model runs.

const KEY = "sk-test-storable";
const R = "\uFFFD";
/** A Write whose content holds a NUL and a lone surrogate (the model server sends them as JSON escapes). */
const HOSTILE = "a\u0000b\uD800c";

const SCRIPT = [
  toolTurn(
    "Write",
    { file_path: "/workspace/hostile.txt", content: HOSTILE },
    { id: "toolu_hostile_write", match: { lastUserTextIncludes: "write hostile" } },
  ),
  toolTurn(
    "Glob",
    { pattern: "*.txt", path: "/workspace" },
    { id: "toolu_hostile_glob", match: { hasToolResultFor: "Write" } },
  ),
  textTurn("Wrote it.", { hasToolResultFor: "Glob" }),
  textTurn("the answer\u0000 is \uD83D here", { lastUserTextIncludes: "answer hostile" }),
];

const setup = usePostgresAndTree({ "home/.keep": "" });

describe.each([
  ["PGlite", () => freshPgliteDir(setup.tree.path("pglite-storable"))],
  ["PostgreSQL", async () => setup.postgres.createDatabase("storable")],
])("what is stored can always be stored, on %s", (_name, location) => {
  let model: ModelServer;
  let server: ServeProcess;
  let client: Anthropic;
  let agentId: string;
  let environmentId: string;

  beforeAll(async () => {
    const db = await location();
    model = await startModelServer({ apiKey: TEST_API_KEY, script: { turns: SCRIPT } });
    server = await startServe(["--db", db, "--api-key", KEY], {
      ANTHROPIC_API_KEY: TEST_API_KEY,
      ANTHROPIC_BASE_URL: model.url,
    });
    client = sdkClient(server.url, KEY);
    environmentId = (await client.beta.environments.create({ name: "env" })).id;
    agentId = (await client.beta.agents.create({ name: "agent", model: "claude-sonnet-4-5" })).id;
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await model?.close();
  });

  const newSession = () => client.beta.sessions.create({ agent: agentId, environment_id: environmentId });

  it("a Write whose input holds a NUL and a lone surrogate runs, and the event log holds its tool_use and tool_result", async () => {
    const session = await newSession();
    const seen = await sayAndRead(client, session.id, "write hostile");
    expect(seen.at(-1)).toMatchObject({ type: "session.status_idle", stop_reason: { type: "end_turn" } });
    expect(seen.filter((e) => e.type === "session.error")).toEqual([]);
    const events = await all(client.beta.sessions.events.list(session.id));
    const use = events.find((e) => e.type === "agent.tool_use" && e.name === "Write");
    expect(use).toMatchObject({ input: { file_path: "/workspace/hostile.txt", content: `a${R}b${R}c` } });
    const result = events.find((e) => e.type === "agent.tool_result" && e.tool_use_id === use?.id);
    expect(result).toMatchObject({ is_error: false });
    // The file was written: the next call of the turn found it.
    expect(JSON.stringify(toolResultSent(model, "toolu_hostile_glob"))).toContain("hostile.txt");
    expect(events.find((e) => e.type === "agent.message")).toMatchObject({
      content: [{ type: "text", text: "Wrote it." }],
    });
    // Every model request of the turn has both ends in the log.
    const starts = events.filter((e) => e.type === "span.model_request_start").length;
    expect(starts).toBe(3);
    expect(events.filter((e) => e.type === "span.model_request_end").length).toBe(starts);
  });

  it("a model answer with a NUL and a lone surrogate arrives with U+FFFD in their place, and the turn ends normally", async () => {
    const session = await newSession();
    const seen = await sayAndRead(client, session.id, "answer hostile");
    expect(seen.filter((e) => e.type === "session.error")).toEqual([]);
    expect(seen.find((e) => e.type === "agent.message")).toMatchObject({
      content: [{ type: "text", text: `the answer${R} is ${R} here` }],
    });
    expect(seen.at(-1)).toMatchObject({ type: "session.status_idle", stop_reason: { type: "end_turn" } });
    const stored = await client.beta.sessions.retrieve(session.id);
    expect(stored.status).toBe("idle");
  });

  it("client text with a NUL is a 400 naming the field, and nothing is stored", async () => {
    const store = await client.beta.memoryStores.create({ name: "notes" });
    const session = await newSession();
    const before = {
      sessions: (await all(client.beta.sessions.list())).length,
      environments: (await all(client.beta.environments.list())).length,
      agents: (await all(client.beta.agents.list())).length,
      events: (await all(client.beta.sessions.events.list(session.id))).length,
    };
    const refusals: [string, () => Promise<unknown>, RegExp][] = [
      [
        "a user.message's text",
        () =>
          client.beta.sessions.events.send(session.id, {
            events: [{ type: "user.message", content: [{ type: "text", text: "hi\u0000there" }] }],
          }),
        /^events\.0\.content\.0\.text: holds a NUL/,
      ],
      [
        "a memory's content",
        () => client.beta.memoryStores.memories.create(store.id, { path: "/a.md", content: "x\u0000y" }),
        /^content: holds a NUL/,
      ],
      [
        "a session's title",
        () =>
          client.beta.sessions.create({ agent: agentId, environment_id: environmentId, title: "t\u0000" }),
        /^title: holds a NUL/,
      ],
      [
        "a session's new title",
        () => client.beta.sessions.update(session.id, { title: "t\u0000" }),
        /^title: holds a NUL/,
      ],
      [
        "an environment's name",
        () => client.beta.environments.create({ name: "e\u0000" }),
        /^name: holds a NUL/,
      ],
      [
        "an agent's name",
        () => client.beta.agents.create({ name: "a\u0000", model: "claude-sonnet-4-5" }),
        /^name: holds a NUL/,
      ],
      [
        "an agent's metadata key",
        () =>
          client.beta.agents.create({ name: "a", model: "claude-sonnet-4-5", metadata: { "k\u0000": "v" } }),
        /^metadata: holds a NUL/,
      ],
      [
        "an environment's name with a lone surrogate",
        () => client.beta.environments.create({ name: "e\uD800" }),
        /^name: holds a lone surrogate/,
      ],
      [
        "an id in the path",
        () => client.beta.sessions.retrieve("sesn_\u0000"),
        /^the request path: holds a NUL/,
      ],
    ];
    for (const [label, call, message] of refusals) {
      const error = await apiError(call());
      expect({ label, status: error.status }).toEqual({ label, status: 400 });
      expect(String((error.error as { error?: { message?: string } }).error?.message)).toMatch(message);
    }
    expect({
      sessions: (await all(client.beta.sessions.list())).length,
      environments: (await all(client.beta.environments.list())).length,
      agents: (await all(client.beta.agents.list())).length,
      events: (await all(client.beta.sessions.events.list(session.id))).length,
    }).toEqual(before);
    expect(await all(client.beta.memoryStores.memories.list(store.id))).toEqual([]);
    expect((await client.beta.sessions.retrieve(session.id)).title).toBeNull();
  });

  it("a download is an attachment with nosniff, whatever type its uploader gave", async () => {
    const page = await client.beta.files.upload({
      file: await toFile(Buffer.from("<script>alert(1)</script>"), 'page "x".html', { type: "text/html" }),
    });
    const response = await client.beta.files.download(page.id);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="page _x_.html"; filename*=UTF-8''page%20%22x%22.html`,
    );
    expect(await response.text()).toBe("<script>alert(1)</script>");
    const skill = await client.beta.skills.create({
      files: [await toFile(Buffer.from("---\nname: zipped\ndescription: d\n---\nBody\n"), "zipped/SKILL.md")],
    });
    const zip = await fetch(`${server.url}/v1/skills/${skill.id}/versions/latest/content`, {
      headers: { "x-api-key": KEY },
    });
    expect(zip.status).toBe(200);
    expect(zip.headers.get("x-content-type-options")).toBe("nosniff");
    expect(zip.headers.get("content-disposition")).toMatch(/^attachment; filename="zipped\.zip"/);
  });

  it("one request of 100 outcomes of 20 iterations (4,000 runs) is a 400 that stores nothing", async () => {
    const session = await newSession();
    const before = (await all(client.beta.sessions.events.list(session.id))).length;
    const outcome = {
      type: "user.define_outcome" as const,
      description: "Write a haiku",
      rubric: { type: "text" as const, content: "Three lines." },
      max_iterations: 20,
    };
    const error = await apiError(
      client.beta.sessions.events.send(session.id, { events: Array.from({ length: 100 }, () => outcome) }),
    );
    expect(error.status).toBe(400);
    expect(String((error.error as { error?: { message?: string } }).error?.message)).toMatch(
      /at most 200 runs of the model .* these would queue 4000/,
    );
    const six = Array.from({ length: 6 }, () => outcome);
    expect((await apiError(client.beta.sessions.events.send(session.id, { events: six }))).status).toBe(400);
    expect((await all(client.beta.sessions.events.list(session.id))).length).toBe(before);
    expect((await client.beta.sessions.retrieve(session.id)).status).toBe("idle");
  });
});
