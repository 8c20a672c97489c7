import { existsSync, readFileSync } from "node:fs";
import type Anthropic from "@anthropic-ai/sdk";
import type { BetaManagedAgentsStreamSessionEvents } from "@anthropic-ai/sdk/resources/beta/sessions/events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelClient } from "../../src/agent/model-client.js";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { TEST_API_KEY, textTurn, toolTurn } from "../support/model-server.js";
import { type ServedApp, startServedApp } from "../support/served-app.js";
import { readUntil, toolResultSent } from "../support/session-stream.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

// Tool confirmations as the SDK describes them: a served session with `--host-tools` (in a temp dir) whose agent
// sets permission policies on the agent toolset, driven by the official SDK client; the scripted model server
// records what the model was sent.

type Event = BetaManagedAgentsStreamSessionEvents;

let tree: TmpTree;
let model: ModelServer;
let served: ServedApp;
let client: Anthropic;
let other: Anthropic;

const work = (name: string) => tree.path(`work/${name}`);

beforeAll(async () => {
  tree = await tmpTree({
    "home/.keep": "",
    "work/notes.txt": "NOTES-TEXT\n",
    "work/.claude/settings.json": JSON.stringify({ permissions: { deny: ["Bash"] } }),
  });
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: {
      turns: [
        toolTurn(
          "Write",
          { file_path: work("asked.txt"), content: "ASKED" },
          { id: "toolu_ask", match: { lastUserTextIncludes: "write asked" } },
        ),
        textTurn("Wrote it.", { hasToolResultFor: "toolu_ask" }),
        toolTurn(
          "Write",
          { file_path: work("denied.txt"), content: "DENIED" },
          { id: "toolu_deny", match: { lastUserTextIncludes: "write denied" } },
        ),
        textTurn("Understood.", { hasToolResultFor: "toolu_deny" }),
        toolTurn(
          "Write",
          { file_path: work("free.txt"), content: "FREE" },
          { id: "toolu_free", match: { lastUserTextIncludes: "write freely" } },
        ),
        textTurn("Done freely.", { hasToolResultFor: "toolu_free" }),
        toolTurn(
          "Read",
          { file_path: work("notes.txt") },
          { id: "toolu_read", match: { lastUserTextIncludes: "read notes" } },
        ),
        textTurn("Read them.", { hasToolResultFor: "toolu_read" }),
        toolTurn(
          "Read",
          { file_path: work("notes.txt") },
          { id: "toolu_read_auto", match: { lastUserTextIncludes: "read on auto" } },
        ),
        textTurn("Read on auto.", { hasToolResultFor: "toolu_read_auto" }),
        toolTurn(
          "Write",
          { file_path: work("auto.txt"), content: "AUTO" },
          { id: "toolu_auto", match: { lastUserTextIncludes: "write auto" } },
        ),
        textTurn("Auto done.", { hasToolResultFor: "toolu_auto" }),
        {
          match: { lastUserTextIncludes: "write both" },
          response: {
            content: [
              {
                type: "tool_use",
                id: "toolu_one",
                name: "Write",
                input: { file_path: work("one.txt"), content: "1" },
              },
              {
                type: "tool_use",
                id: "toolu_two",
                name: "Write",
                input: { file_path: work("two.txt"), content: "2" },
              },
            ],
          },
        },
        textTurn("Both done.", { hasToolResultFor: "toolu_two" }),
        toolTurn(
          "Bash",
          { command: `touch ${work("bashed.txt")}` },
          { id: "toolu_bash", match: { lastUserTextIncludes: "run bash" } },
        ),
        textTurn("Bash refused.", { hasToolResultFor: "toolu_bash" }),
        toolTurn(
          "Write",
          { file_path: work("plain.txt"), content: "PLAIN" },
          { id: "toolu_plain", match: { lastUserTextIncludes: "write plainly" } },
        ),
        textTurn("Plain refused.", { hasToolResultFor: "toolu_plain" }),
      ],
    },
  });
  served = await startServedApp({
    keys: { default: "k", other: "k-other" },
    runner: {
      client: createModelClient({ apiKey: TEST_API_KEY, baseURL: model.url }),
      hostTools: { cwd: tree.path("work"), home: tree.path("home") },
    },
  });
  client = served.client("k");
  other = served.client("k-other");
}, 60_000);
afterAll(async () => {
  await served?.close();
  await model?.close();
  await tree?.cleanup();
});

type Policy = "always_allow" | "always_ask" | "auto";

/** A session of an agent whose toolset has `fallback` as its default policy, with per-tool `configs`. */
async function openSession(
  fallback: Policy | "no toolset",
  configs: { name: "write" | "read"; policy: Policy }[] = [],
) {
  const env = await client.beta.environments.create({ name: `env-${Date.now()}-${Math.random()}` });
  const agent = await client.beta.agents.create({
    name: "confirmer",
    model: "claude-sonnet-4-6",
    tools:
      fallback === "no toolset"
        ? []
        : [
            {
              type: "agent_toolset_20260401",
              default_config: { permission_policy: { type: fallback } },
              configs: configs.map((c) => ({ name: c.name, permission_policy: { type: c.policy } })),
            },
          ],
  });
  return client.beta.sessions.create({ agent: agent.id, environment_id: env.id });
}

const idle = (e: Event) => e.type === "session.status_idle";

/** Opens a stream, sends `text`, and reads until the session goes idle. */
async function say(sessionId: string, text: string) {
  const stream = await client.beta.sessions.events.stream(sessionId);
  const events = stream[Symbol.asyncIterator]();
  await client.beta.sessions.events.send(sessionId, {
    events: [{ type: "user.message", content: [{ type: "text", text }] }],
  });
  const before = await readUntil(events, idle);
  return { stream, events, before };
}

function toolUse(events: Event[]) {
  const use = events.find((e) => e.type === "agent.tool_use");
  if (use?.type !== "agent.tool_use") throw new Error(`no agent.tool_use in ${events.map((e) => e.type)}`);
  return use;
}

describe("tool confirmations (permission_policy on the agent toolset)", () => {
  it("always_ask: the call waits on requires_action until user.tool_confirmation allows it, then runs", async () => {
    const session = await openSession("always_ask");
    const { stream, events, before } = await say(session.id, "write asked");
    const use = toolUse(before);
    expect(use).toMatchObject({
      name: "Write",
      evaluated_permission: "ask",
      evaluation: { type: "always_ask" },
    });
    expect(before.at(-1)).toMatchObject({
      type: "session.status_idle",
      stop_reason: { type: "requires_action", event_ids: [use.id] },
    });
    expect(existsSync(work("asked.txt"))).toBe(false);
    expect((await client.beta.sessions.retrieve(session.id)).status).toBe("idle");

    await client.beta.sessions.events.send(session.id, {
      events: [{ type: "user.tool_confirmation", tool_use_id: use.id, result: "allow" }],
    });
    const after = await readUntil(events, (e) => idle(e) && e.stop_reason.type === "end_turn");
    stream.controller.abort();
    expect(after.map((e) => e.type)).toContain("session.status_running");
    const result = after.find((e) => e.type === "agent.tool_result");
    expect(result).toMatchObject({ tool_use_id: use.id, is_error: false });
    expect(readFileSync(work("asked.txt"), "utf8")).toBe("ASKED");
    expect(JSON.stringify(after.filter((e) => e.type === "agent.message"))).toContain("Wrote it.");

    // Answered already: a second confirmation for it is refused.
    await expect(
      client.beta.sessions.events.send(session.id, {
        events: [{ type: "user.tool_confirmation", tool_use_id: use.id, result: "allow" }],
      }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining("already answered") });
  });

  it("a per-tool always_ask denied: the model gets an error tool result with the deny_message", async () => {
    const session = await openSession("always_allow", [{ name: "write", policy: "always_ask" }]);
    const { stream, events, before } = await say(session.id, "write denied");
    const use = toolUse(before);
    expect(use).toMatchObject({ name: "Write", evaluated_permission: "ask" });
    await client.beta.sessions.events.send(session.id, {
      events: [
        { type: "user.tool_confirmation", tool_use_id: use.id, result: "deny", deny_message: "NOT-TODAY" },
      ],
    });
    const after = await readUntil(events, (e) => idle(e) && e.stop_reason.type === "end_turn");
    stream.controller.abort();
    expect(after.find((e) => e.type === "agent.tool_result")).toMatchObject({
      tool_use_id: use.id,
      is_error: true,
    });
    expect(existsSync(work("denied.txt"))).toBe(false);
    expect(toolResultSent(model, "toolu_deny")).toMatchObject({
      is_error: true,
      content: [{ type: "text", text: "NOT-TODAY" }],
    });
  });

  it("always_allow: the call runs without asking, and its agent.tool_use says allow", async () => {
    const session = await openSession("always_allow");
    const { stream, before } = await say(session.id, "write freely");
    stream.controller.abort();
    expect(toolUse(before)).toMatchObject({
      name: "Write",
      evaluated_permission: "allow",
      evaluation: { type: "always_allow" },
    });
    expect(before.at(-1)).toMatchObject({ stop_reason: { type: "end_turn" } });
    expect(before.find((e) => e.type === "agent.tool_result")).toMatchObject({ is_error: false });
    expect(readFileSync(work("free.txt"), "utf8")).toBe("FREE");
  });

  it("always_ask holds even a read-only call the engine would allow on its own", async () => {
    const session = await openSession("always_allow", [{ name: "read", policy: "always_ask" }]);
    const { stream, events, before } = await say(session.id, "read notes");
    const use = toolUse(before);
    expect(before.at(-1)).toMatchObject({ stop_reason: { type: "requires_action", event_ids: [use.id] } });
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: "user.tool_confirmation", tool_use_id: use.id, result: "deny" }],
    });
    const after = await readUntil(events, (e) => idle(e) && e.stop_reason.type === "end_turn");
    stream.controller.abort();
    const result = after.find((e) => e.type === "agent.tool_result");
    expect(result).toMatchObject({ is_error: true });
    expect(JSON.stringify(result)).not.toContain("NOTES-TEXT");
    expect(JSON.stringify(result)).toContain("denied");
  });

  it("auto: the engine's own rules judge the call, and a call they would ask about waits for the user", async () => {
    const session = await openSession("always_allow", [{ name: "write", policy: "auto" }]);
    const { stream, events, before } = await say(session.id, "write auto");
    const use = toolUse(before);
    expect(use).toMatchObject({
      evaluated_permission: "ask",
      evaluation: { type: "auto", evaluated_permission: { type: "ask" } },
    });
    expect(before.at(-1)).toMatchObject({ stop_reason: { type: "requires_action", event_ids: [use.id] } });
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: "user.tool_confirmation", tool_use_id: use.id, result: "allow" }],
    });
    await readUntil(events, (e) => idle(e) && e.stop_reason.type === "end_turn");
    stream.controller.abort();
    expect(readFileSync(work("auto.txt"), "utf8")).toBe("AUTO");
    // Stored as the client saw it live.
    const stored = await client.beta.sessions.events.list(session.id);
    expect(stored.data.find((e) => e.id === use.id)).toMatchObject({ evaluated_permission: "ask" });
  });

  it("auto: a call the engine's rules allow says allow (auto), and is stored before its result", async () => {
    const session = await openSession("auto");
    const { stream, before } = await say(session.id, "read on auto");
    stream.controller.abort();
    const use = toolUse(before);
    expect(use).toMatchObject({
      name: "Read",
      evaluated_permission: "allow",
      evaluation: { type: "auto", evaluated_permission: { type: "allow" } },
    });
    const result = before.findIndex((e) => e.type === "agent.tool_result");
    expect(before[result]).toMatchObject({ tool_use_id: use.id, is_error: false });
    expect(before.indexOf(use)).toBeLessThan(result);
    expect(before.at(-1)).toMatchObject({ stop_reason: { type: "end_turn" } });
  });

  it("two calls asked at once: the idle names both, and answering one leaves the idle naming the other", async () => {
    const session = await openSession("always_ask");
    const { stream, events, before } = await say(session.id, "write both");
    const both = (e: Event) =>
      e.type === "session.status_idle" &&
      e.stop_reason.type === "requires_action" &&
      e.stop_reason.event_ids.length === 2;
    const last = before.at(-1);
    const waiting =
      last !== undefined && both(last) ? before : [...before, ...(await readUntil(events, both))];
    const [first, second] = waiting.filter((e) => e.type === "agent.tool_use");
    if (first === undefined || second === undefined) throw new Error("two tool uses expected");
    expect(waiting.at(-1)).toMatchObject({
      stop_reason: { event_ids: expect.arrayContaining([first.id, second.id]) },
    });
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: "user.tool_confirmation", tool_use_id: first.id, result: "allow" }],
    });
    const remainder = await readUntil(events, idle);
    expect(remainder.at(-1)).toMatchObject({
      stop_reason: { type: "requires_action", event_ids: [second.id] },
    });
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: "user.tool_confirmation", tool_use_id: second.id, result: "allow" }],
    });
    await readUntil(events, (e) => idle(e) && e.stop_reason.type === "end_turn");
    stream.controller.abort();
    expect(readFileSync(work("one.txt"), "utf8")).toBe("1");
    expect(readFileSync(work("two.txt"), "utf8")).toBe("2");
  });

  it("a deny rule beats always_allow: the call is refused without asking", async () => {
    const session = await openSession("always_allow");
    const { stream, before } = await say(session.id, "run bash");
    stream.controller.abort();
    const use = toolUse(before);
    expect(use).toMatchObject({ name: "Bash", evaluated_permission: "deny" });
    expect(use).not.toHaveProperty("evaluation");
    expect(before.at(-1)).toMatchObject({ stop_reason: { type: "end_turn" } });
    expect(before.find((e) => e.type === "agent.tool_result")).toMatchObject({
      is_error: true,
      content: [{ type: "text", text: "Permission to use Bash has been denied." }],
    });
    expect(existsSync(work("bashed.txt"))).toBe(false);
  });

  it("an agent without a toolset keeps the engine's headless rules: an ask is refused, not held", async () => {
    const session = await openSession("no toolset");
    const { stream, before } = await say(session.id, "write plainly");
    stream.controller.abort();
    expect(toolUse(before)).toMatchObject({
      evaluated_permission: "deny",
      evaluation: { type: "auto", evaluated_permission: { type: "deny" } },
    });
    expect(before.at(-1)).toMatchObject({ stop_reason: { type: "end_turn" } });
    expect(JSON.stringify(before.find((e) => e.type === "agent.tool_result"))).toContain(
      "Permission was not granted (no one to ask",
    );
    expect(existsSync(work("plain.txt"))).toBe(false);
  });

  it("refuses a confirmation for an unknown tool use (400) and one sent to another workspace's session (404)", async () => {
    const session = await openSession("always_ask");
    await expect(
      client.beta.sessions.events.send(session.id, {
        events: [{ type: "user.tool_confirmation", tool_use_id: "sevt_nope", result: "allow" }],
      }),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("not a tool use awaiting confirmation"),
    });
    await expect(
      other.beta.sessions.events.send(session.id, {
        events: [{ type: "user.tool_confirmation", tool_use_id: "sevt_nope", result: "allow" }],
      }),
    ).rejects.toMatchObject({ status: 404 });
    const listed = [];
    for await (const e of client.beta.sessions.events.list(session.id)) listed.push(e.type);
    expect(listed).not.toContain("user.tool_confirmation");
  });
});
