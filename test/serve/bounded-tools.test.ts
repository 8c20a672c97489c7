import type Anthropic from "@anthropic-ai/sdk";
import { toFile } from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { TEST_API_KEY, textTurn, toolTurn } from "../support/model-server.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { all, apiError } from "../support/sdk-calls.js";
import { readUntil, type StreamEvent, sayAndRead, userMessage } from "../support/session-stream.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

// Issue #39 items 1, 2 and 5, as a hostile key holder would try them: the shipped bin's `serve` on PGlite, the
// official SDK client, the scripted model. A tool whose work follows the model's input never holds the server.

const KEY = "sk-bounded";
const SLUG = "hostile";
/** The memory (30 bytes), and one whose backtracking search would take hours with each `a` doubling. */
const REDOS_SHORT = `${"a".repeat(29)}!`;
const REDOS_LONG = `${"a".repeat(48)}!`;
/** 20 levels below /workspace: the most a path there may have. */
const ALLOWED_DEEP = `/workspace/${Array.from({ length: 19 }, (_, i) => `d${i}`).join("/")}/deep.txt`;
/** The 3,000-level path. */
const TOO_DEEP = `/workspace/${"d/".repeat(3000)}f.txt`;
/**
 * Linear for RE2 but with hundreds of NFA states live at every character: over the random lines below, each
 * about 90 kB, minutes of work per line; a backtracking engine never ends.
 */
const SLOW_PATTERN = "(.*a.*b.*c){300}$";

/** A line of `n` characters from a, b and c, from a fixed seed. */
function abcLine(n: number, seed: number): string {
  let x = seed;
  let out = "";
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out += "abc"[(x >> 16) % 3];
  }
  return out;
}

let tree: TmpTree;
let model: ModelServer;
let server: ServeProcess;
let client: Anthropic;
let storeId: string;

beforeAll(async () => {
  tree = await tmpTree({ "home/.keep": "" });
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: {
      turns: [
        toolTurn(
          "Grep",
          { pattern: "^(a+)+$", path: `/mnt/memory/${SLUG}`, output_mode: "content" },
          { match: { lastUserTextIncludes: "go redos" } },
        ),
        toolTurn(
          "Write",
          { file_path: TOO_DEEP, content: "x" },
          { match: { lastUserTextIncludes: "go too deep" } },
        ),
        toolTurn(
          "Write",
          { file_path: ALLOWED_DEEP, content: "a needle here\n" },
          { match: { lastUserTextIncludes: "go write deep" } },
        ),
        toolTurn(
          "Glob",
          { pattern: "**/*.txt", path: "/workspace" },
          { match: { lastUserTextIncludes: "go glob" } },
        ),
        toolTurn(
          "Grep",
          { pattern: "needle", path: "/workspace", output_mode: "content" },
          { match: { lastUserTextIncludes: "go grep deep" } },
        ),
        toolTurn(
          "Grep",
          { pattern: SLOW_PATTERN, path: `/mnt/memory/${SLUG}/slow` },
          { match: { lastUserTextIncludes: "go slow" } },
        ),
        textTurn("Answered.", {}),
      ].map((turn) => ({ ...turn, repeat: true })),
    },
  });
  server = await startServe(["--db", await freshPgliteDir(tree.path("data")), "--api-key", KEY], {
    ANTHROPIC_API_KEY: TEST_API_KEY,
    ANTHROPIC_BASE_URL: model.url,
    HOME: tree.path("home"),
    // Long for this test, so that only the interrupt ends the slow search: the order of events decides.
    SKILLWRIGHT_TOOL_DEADLINE_MS: "600000",
  });
  client = sdkClient(server.url, KEY);
  const store = await client.beta.memoryStores.create({ name: SLUG });
  storeId = store.id;
  const memories = client.beta.memoryStores.memories;
  await memories.create(storeId, { path: "/short.txt", content: REDOS_SHORT });
  await memories.create(storeId, { path: "/long.txt", content: REDOS_LONG });
  await memories.create(storeId, { path: "/match.txt", content: "aaaa\n" });
  for (let i = 0; i < 3; i++) {
    await memories.create(storeId, { path: `/slow/${i}.txt`, content: abcLine(90_000, i + 1) });
  }
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await model?.close();
  await tree?.cleanup();
});

/** A new session on an agent with the toolset, the hostile store mounted. */
async function newSession(): Promise<string> {
  const env = await client.beta.environments.create({ name: `env-${Date.now()}-${Math.random()}` });
  const agent = await client.beta.agents.create({
    name: "bounded",
    model: "claude-sonnet-5-5",
    tools: [{ type: "agent_toolset_20260401" }],
  });
  const session = await client.beta.sessions.create({
    agent: agent.id,
    environment_id: env.id,
    resources: [{ type: "memory_store", memory_store_id: storeId }],
  });
  return session.id;
}

/** The text of the one `agent.tool_result` among `events`, and whether it is an error. */
function toolResult(events: StreamEvent[]): { text: string; isError: boolean } {
  const results = events.filter((e) => e.type === "agent.tool_result");
  expect(results).toHaveLength(1);
  const result = results[0];
  if (result?.type !== "agent.tool_result") throw new Error("no tool result");
  const text = (result.content ?? []).map((b) => (b.type === "text" ? b.text : "")).join("");
  return { text, isError: result.is_error === true };
}

const endTurn = (e: StreamEvent) => e.type === "session.status_idle" && e.stop_reason.type === "end_turn";

describe("served tools under hostile input, through the official SDK on PGlite", () => {
  it("answers the issue's ReDoS Grep over a memory mount with the right result (RE2: linear time)", async () => {
    const events = await sayAndRead(client, await newSession(), "go redos", endTurn);
    const result = toolResult(events);
    expect(result.isError).toBe(false);
    expect(result.text).toBe(`/mnt/memory/${SLUG}/match.txt:1:aaaa`);
  }, 120_000);

  it("refuses a 3,000-level /workspace path with EINVAL and the limit; Glob and Grep work on a 20-level tree", async () => {
    const sessionId = await newSession();
    const refused = toolResult(await sayAndRead(client, sessionId, "go too deep", endTurn));
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/EINVAL: .*a path is at most 2304 bytes; this one is \d+/);

    expect(toolResult(await sayAndRead(client, sessionId, "go write deep", endTurn)).isError).toBe(false);
    const globbed = toolResult(await sayAndRead(client, sessionId, "go glob", endTurn));
    // Shown relative to the session's working directory, /workspace.
    const shown = ALLOWED_DEEP.slice("/workspace/".length);
    expect(globbed).toEqual({ text: shown, isError: false });
    const grepped = toolResult(await sayAndRead(client, sessionId, "go grep deep", endTurn));
    expect(grepped).toEqual({ text: `${shown}:1:a needle here`, isError: false });
  }, 120_000);

  it("answers another client's GET /v1/skills while a pathological Grep is still running (order of events)", async () => {
    const sessionId = await newSession();
    const other = sdkClient(server.url, KEY);
    const order: string[] = [];
    const stream = await client.beta.sessions.events.stream(sessionId);
    const events = stream[Symbol.asyncIterator]();
    try {
      await client.beta.sessions.events.send(sessionId, userMessage("go slow"));
      await readUntil(events, (e) => e.type === "agent.tool_use");
      order.push("tool_use");
      // The search is running now; the server must still answer everyone else.
      await all(other.beta.skills.list());
      order.push("other client answered");
      await client.beta.sessions.events.send(sessionId, { events: [{ type: "user.interrupt" }] });
      const rest = await readUntil(events, (e) => e.type === "session.status_idle");
      if (rest.some((e) => e.type === "agent.tool_result")) order.push("tool_result");
      order.push("idle");
    } finally {
      stream.controller.abort();
    }
    expect(order).toEqual(["tool_use", "other client answered", "tool_result", "idle"]);
  }, 240_000);

  it("refuses mount paths in a reserved root or with control characters, and over-long or control-character upload names: 400, nothing stored", async () => {
    const file = await client.beta.files.upload({ file: await toFile(Buffer.from("hi"), "ok.txt") });
    const env = await client.beta.environments.create({ name: "mounts" });
    const agent = await client.beta.agents.create({ name: "mounts", model: "claude-sonnet-5-5" });
    const sessionsBefore = (await all(client.beta.sessions.list())).length;
    for (const mountPath of [
      "/mnt/skills",
      "/mnt/skills/greet/SKILL.md",
      "/mnt/session",
      "/workspace/in.txt",
      "/data/in\nx.txt",
      "/data/\u202Eevil.txt",
    ]) {
      const error = await apiError(
        client.beta.sessions.create({
          agent: agent.id,
          environment_id: env.id,
          resources: [{ type: "file", file_id: file.id, mount_path: mountPath }],
        }),
      );
      expect(error.status, mountPath).toBe(400);
    }
    expect(await all(client.beta.sessions.list())).toHaveLength(sessionsBefore);

    const filesBefore = (await all(client.beta.files.list())).length;
    for (const name of [`${"n".repeat(1100)}.txt`, "bad\u0007name.txt", "rtl\u202Etxt.exe"]) {
      const error = await apiError(client.beta.files.upload({ file: await toFile(Buffer.from("x"), name) }));
      expect(error.status, name).toBe(400);
      expect(error.message).toContain("a file name");
    }
    expect(await all(client.beta.files.list())).toHaveLength(filesBefore);
  }, 120_000);
});
