import { fileURLToPath } from "node:url";
import type Anthropic from "@anthropic-ai/sdk";
import type { BetaManagedAgentsStreamSessionEvents } from "@anthropic-ai/sdk/resources/beta/sessions/events";
import { execa, type ResultPromise } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { TEST_API_KEY, textTurn, toolTurn } from "../support/model-server.js";
import { freshPgliteDir } from "../support/pglite-template.js";
import { sayAndRead } from "../support/session-stream.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { type ServeProcess, sdkClient, startServe } from "./serve-process.js";

// Agents' MCP servers in served sessions: the official SDK client creates agents with `mcp_servers` and
// `mcp_toolset`s against the shipped bin's `serve`; the session connects to a real MCP server over streamable
// HTTP (test/support/tools-http-server.mjs), and the scripted model calls its tool.

const KEY = "sk-agent-mcp";
const TOOLS_SERVER = fileURLToPath(new URL("../support/tools-http-server.mjs", import.meta.url));
type Event = BetaManagedAgentsStreamSessionEvents;

let tree: TmpTree;
let model: ModelServer;
let server: ServeProcess;
let client: Anthropic;
let tools: ResultPromise;
let toolsUrl: string;
let toolsLog = "";

beforeAll(async () => {
  tree = await tmpTree({ "home/.keep": "" });
  tools = execa(process.execPath, [TOOLS_SERVER], { reject: false, stdin: "ignore" });
  tools.stderr?.on("data", (chunk: Buffer) => {
    toolsLog += chunk.toString();
  });
  toolsUrl = await new Promise<string>((resolve, reject) => {
    let out = "";
    tools.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /(http:\S+)/.exec(out);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    tools.then((r) => reject(new Error(`the MCP server exited: ${r.stderr}`)));
  });
  model = await startModelServer({
    apiKey: TEST_API_KEY,
    script: {
      turns: [
        toolTurn(
          "mcp__stock__lookup_stock",
          { sku: "A1" },
          { match: { lastUserTextIncludes: "check stock" } },
        ),
        textTurn("Seven left.", {
          hasToolResultFor: "mcp__stock__lookup_stock",
          toolResultIncludes: "STOCK-FOR-A1",
        }),
        textTurn("Answered without MCP.", { lastUserTextIncludes: "anyone there" }),
        textTurn("Nobody inside.", { lastUserTextIncludes: "anyone inside" }),
        toolTurn("mcp__stock__lookup_stock", { sku: "B2" }, { match: { lastUserTextIncludes: "ask first" } }),
        textTurn("B2 confirmed.", {
          hasToolResultFor: "mcp__stock__lookup_stock",
          toolResultIncludes: "STOCK-FOR-B2",
        }),
      ],
    },
  });
  server = await startServe(
    ["--db", await freshPgliteDir(tree.path("data")), "--api-key", KEY, "--mcp-allow-host", "127.0.0.1"],
    {
      ANTHROPIC_API_KEY: TEST_API_KEY,
      ANTHROPIC_BASE_URL: model.url,
    },
  );
  client = sdkClient(server.url, KEY);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await model?.close();
  tools?.kill("SIGTERM");
  await tools;
  await tree?.cleanup();
});

/** One user turn, read up to its idle. */
const say = (sessionId: string, text: string) => sayAndRead(client, sessionId, text);

/** The body of the model request recorded at `index`, as JSON text. */
const requestText = (index: number) => JSON.stringify(model.requests[index]?.body ?? null);

describe("served sessions use the agent's MCP servers", () => {
  it("offers the toolset's enabled tools, runs the call on the server, and tells it as agent.mcp_tool_use/_result", async () => {
    const env = await client.beta.environments.create({ name: "mcp-env" });
    const agent = await client.beta.agents.create({
      name: "stock-agent",
      model: "claude-sonnet-5-5",
      mcp_servers: [{ type: "url", name: "stock", url: toolsUrl }],
      tools: [
        {
          type: "mcp_toolset",
          mcp_server_name: "stock",
          configs: [{ name: "delete_everything", enabled: false }],
        },
      ],
    });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: env.id });
    const before = model.requests.length;
    const events = await say(session.id, "check stock for A1");

    const use = events.find((e) => e.type === "agent.mcp_tool_use");
    expect(use).toMatchObject({
      type: "agent.mcp_tool_use",
      name: "lookup_stock",
      mcp_server_name: "stock",
      input: { sku: "A1" },
      evaluated_permission: "allow",
    });
    const result = events.find((e) => e.type === "agent.mcp_tool_result");
    expect(result).toMatchObject({
      type: "agent.mcp_tool_result",
      mcp_tool_use_id: use?.id,
      is_error: false,
      content: [{ type: "text", text: "STOCK-FOR-A1: 7 left" }],
    });
    expect(events.some((e) => e.type === "agent.tool_use")).toBe(false);
    expect(events.some((e) => e.type === "session.error")).toBe(false);
    expect(events.find((e) => e.type === "agent.message")).toMatchObject({
      content: [{ type: "text", text: "Seven left." }],
    });
    // The enabled tool was offered and the disabled one was not; the server's answer went back to the model.
    const first = requestText(before);
    expect(first).toContain('"name":"mcp__stock__lookup_stock"');
    expect(first).not.toContain("delete_everything");
    expect(requestText(before + 1)).toContain("STOCK-FOR-A1: 7 left");
    expect(toolsLog).toContain("called lookup_stock");
    expect(toolsLog).not.toContain("called delete_everything");
  });

  it("an always_ask tool waits on requires_action; user.tool_confirmation allow makes the call on the server", async () => {
    const env = await client.beta.environments.create({ name: "mcp-env-ask" });
    const agent = await client.beta.agents.create({
      name: "asking-agent",
      model: "claude-sonnet-5-5",
      mcp_servers: [{ type: "url", name: "stock", url: toolsUrl }],
      tools: [
        {
          type: "mcp_toolset",
          mcp_server_name: "stock",
          default_config: { permission_policy: { type: "always_ask" } },
        },
      ],
    });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: env.id });
    const calls = toolsLog;
    const asked = await say(session.id, "ask first, then look up B2");
    const use = asked.find((e) => e.type === "agent.mcp_tool_use");
    expect(use).toMatchObject({
      name: "lookup_stock",
      mcp_server_name: "stock",
      evaluated_permission: "ask",
      evaluation: { type: "always_ask" },
    });
    expect(asked.at(-1)).toMatchObject({
      type: "session.status_idle",
      stop_reason: { type: "requires_action", event_ids: [use?.id] },
    });
    expect(toolsLog).toBe(calls);

    const stream = await client.beta.sessions.events.stream(session.id);
    const events = stream[Symbol.asyncIterator]();
    await client.beta.sessions.events.send(session.id, {
      events: [{ type: "user.tool_confirmation", tool_use_id: use?.id ?? "", result: "allow" }],
    });
    const after: Event[] = [];
    try {
      for (;;) {
        const next = await events.next();
        if (next.done === true) throw new Error("the stream ended");
        after.push(next.value);
        if (next.value.type === "session.status_idle" && next.value.stop_reason.type === "end_turn") break;
      }
    } finally {
      stream.controller.abort();
    }
    const result = after.find((e) => e.type === "agent.mcp_tool_result");
    expect(result).toMatchObject({ mcp_tool_use_id: use?.id, is_error: false });
    expect(JSON.stringify(result)).toContain("STOCK-FOR-B2");
    expect(toolsLog.slice(calls.length)).toContain("called lookup_stock");
  });

  it("refuses servers on loopback and metadata addresses not allowed by name, and goes on past a server that is down: a session.error each, the turn still answers", async () => {
    const env = await client.beta.environments.create({ name: "mcp-env-refused" });
    const port = new URL(toolsUrl).port;
    const agent = await client.beta.agents.create({
      name: "refused-agent",
      model: "claude-sonnet-5-5",
      mcp_servers: [
        { type: "url", name: "local", url: `http://localhost:${port}/mcp` },
        { type: "url", name: "metadata", url: "http://169.254.169.254/mcp" },
        // Allowed, but nothing listens there: a failing server, not a refused one.
        { type: "url", name: "down", url: "http://127.0.0.1:1/mcp" },
      ],
      tools: [
        { type: "mcp_toolset", mcp_server_name: "local" },
        { type: "mcp_toolset", mcp_server_name: "metadata" },
        { type: "mcp_toolset", mcp_server_name: "down" },
      ],
    });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: env.id });
    const calls = toolsLog;
    const events = await say(session.id, "anyone there?");
    const errors = events.flatMap((e) => (e.type === "session.error" ? [e.error] : []));
    expect(errors).toHaveLength(3);
    expect(errors[0]).toMatchObject({ type: "mcp_connection_failed_error", mcp_server_name: "local" });
    expect(errors[0]?.message).toMatch(/localhost .*loopback, private.*--mcp-allow-host localhost/);
    expect(errors[1]).toMatchObject({ type: "mcp_connection_failed_error", mcp_server_name: "metadata" });
    expect(errors[1]?.message).toContain("169.254.169.254");
    expect(errors[2]).toMatchObject({ type: "mcp_connection_failed_error", mcp_server_name: "down" });
    expect(errors[2]?.message).toContain('MCP server "down" failed to connect');
    expect(events.find((e) => e.type === "agent.message")).toMatchObject({
      content: [{ type: "text", text: "Answered without MCP." }],
    });
    expect(events.at(-1)).toMatchObject({ type: "session.status_idle", stop_reason: { type: "end_turn" } });
    expect(toolsLog).toBe(calls);
  });
});

describe("served sessions refuse loopback addresses written inside IPv6 forms", () => {
  it("refuses IPv4-compatible, IPv4-mapped, NAT64, 6to4 and Teredo spellings of 127.0.0.1 before connecting, though 127.0.0.1 itself is allowed by name", async () => {
    const env = await client.beta.environments.create({ name: "mcp-env-ipv6" });
    const port = new URL(toolsUrl).port;
    const hosts = [
      "[::7f00:1]",
      "[::ffff:7f00:1]",
      "[::ffff:127.0.0.1]",
      "[::ffff:0:7f00:1]",
      "[64:ff9b::7f00:1]",
      "[2002:7f00:1::1]",
      "[2001:0:4136:e378:8000:63bf:80ff:fffe]",
    ];
    const servers = hosts.map((host, i) => ({
      type: "url" as const,
      name: `v6-${i}`,
      url: `http://${host}:${port}/mcp`,
    }));
    const agent = await client.beta.agents.create({
      name: "ipv6-agent",
      model: "claude-sonnet-5-5",
      mcp_servers: servers,
      tools: servers.map((s) => ({ type: "mcp_toolset" as const, mcp_server_name: s.name })),
    });
    const session = await client.beta.sessions.create({ agent: agent.id, environment_id: env.id });
    const calls = toolsLog;
    const events = await say(session.id, "anyone inside?");
    const errors = events.flatMap((e) => (e.type === "session.error" ? [e.error] : []));
    expect(errors).toHaveLength(hosts.length);
    for (const error of errors) {
      expect(error).toMatchObject({ type: "mcp_connection_failed_error" });
      expect(error.message).toMatch(
        /carrying (.* \/ )?127\.0\.0\.1\) is a loopback, private, link-local or metadata address/,
      );
    }
    expect(events.find((e) => e.type === "agent.message")).toMatchObject({
      content: [{ type: "text", text: "Nobody inside." }],
    });
    expect(toolsLog).toBe(calls);
  });
});

/** What the SDK's `BadRequestError` for a 400 whose message contains `text` looks like. */
const badRequest = (text: string) => ({
  status: 400,
  error: { type: "error", error: { type: "invalid_request_error", message: expect.stringContaining(text) } },
});

describe("agent validation of MCP servers and toolsets", () => {
  const base = { name: "bad", model: "claude-sonnet-5-5" } as const;
  const server = { type: "url" as const, name: "srv", url: "https://mcp.example.com/mcp" };

  it("refuses a toolset naming an unknown server (400)", async () => {
    const error = await client.beta.agents
      .create({ ...base, mcp_servers: [server], tools: [{ type: "mcp_toolset", mcp_server_name: "nope" }] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject(badRequest('mcp_toolset names MCP server "nope"'));
  });

  it("refuses a server no toolset references (400)", async () => {
    const error = await client.beta.agents
      .create({ ...base, mcp_servers: [server] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject(badRequest('MCP server "srv" is not referenced by any mcp_toolset'));
  });

  it("refuses an update that leaves a server without its toolset (400), and keeps the agent as it was", async () => {
    const agent = await client.beta.agents.create({
      ...base,
      mcp_servers: [server],
      tools: [{ type: "mcp_toolset", mcp_server_name: "srv" }],
    });
    const error = await client.beta.agents
      .update(agent.id, { version: agent.version, tools: [] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject(badRequest('MCP server "srv" is not referenced by any mcp_toolset'));
    expect((await client.beta.agents.retrieve(agent.id)).version).toBe(agent.version);
  });

  it("refuses a bad URL (400)", async () => {
    for (const url of ["not a url", "ftp://mcp.example.com/mcp", "file:///etc/passwd"]) {
      const error = await client.beta.agents
        .create({
          ...base,
          mcp_servers: [{ ...server, url }],
          tools: [{ type: "mcp_toolset", mcp_server_name: "srv" }],
        })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 400 });
    }
  });
});
