import * as nodeFs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import { afterEach, describe, expect, it } from "vitest";
import {
  loadScript,
  matchesTurn,
  parseScript,
  pickTurn,
  type RequestView,
  requestView,
  type ScriptMatch,
  ScriptTurn,
  type ScriptTurnInput,
} from "../../src/dev/model-script.js";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { errorTypeForStatus, MAX_DELTA_CHARS, splitChunks } from "../../src/dev/wire-message.js";
import { createNodeFs } from "../../src/io/fs.js";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(turns: ScriptTurnInput[], apiKey?: string): Promise<ModelServer> {
  server = await startModelServer({ script: { turns }, ...(apiKey === undefined ? {} : { apiKey }) });
  return server;
}

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "X-Custom-Header": "Yes", ...headers },
    body: JSON.stringify(body),
  });
}

const BASE = { model: "claude-test", max_tokens: 100, messages: [{ role: "user" as const, content: "hi" }] };

interface ParsedEvent {
  event: string;
  data: Record<string, unknown> & { type: string };
}

function parseSse(text: string): ParsedEvent[] {
  return text
    .split("\n\n")
    .filter((chunk) => chunk.trim() !== "")
    .map((chunk) => {
      const lines = chunk.split("\n");
      const event = lines.find((l) => l.startsWith("event: "))?.slice(7) ?? "";
      const data = JSON.parse(lines.find((l) => l.startsWith("data: "))?.slice(6) ?? "{}");
      return { event, data };
    });
}

describe("SSE streaming", () => {
  it("streams text and tool_use the way the real API does", async () => {
    const s = await start([
      {
        response: {
          content: [
            { type: "text", text: "Let me read that file for you." },
            { type: "tool_use", name: "Read", input: { file_path: "/tmp/a.txt", limit: 10 } },
          ],
        },
      },
    ]);
    const res = await post(s.url, { ...BASE, stream: true });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = parseSse(await res.text());
    for (const e of events) expect(e.event).toBe(e.data.type);
    const names = events.map((e) => e.event);
    expect(names[0]).toBe("message_start");
    expect(names.slice(-2)).toEqual(["message_delta", "message_stop"]);
    const start0 = events[0]?.data.message as { id: string; content: unknown[]; stop_reason: unknown };
    expect(start0.id).toMatch(/^msg_01[A-Za-z0-9]{22}$/);
    expect(start0.content).toEqual([]);
    expect(start0.stop_reason).toBeNull();

    const deltas = events.filter((e) => e.event === "content_block_delta").map((e) => e.data);
    const textDeltas = deltas.filter((d) => d.index === 0).map((d) => (d.delta as { text: string }).text);
    expect(textDeltas.length).toBeGreaterThan(1);
    expect(textDeltas.join("")).toBe("Let me read that file for you.");
    const jsonDeltas = deltas
      .filter((d) => d.index === 1)
      .map((d) => d.delta as { type: string; partial_json: string });
    expect(jsonDeltas.every((d) => d.type === "input_json_delta")).toBe(true);
    expect(jsonDeltas.filter((d) => d.partial_json !== "").length).toBeGreaterThan(1);
    expect(JSON.parse(jsonDeltas.map((d) => d.partial_json).join(""))).toEqual({
      file_path: "/tmp/a.txt",
      limit: 10,
    });

    const toolStart = events.find((e) => e.event === "content_block_start" && e.data.index === 1);
    expect(toolStart?.data.content_block).toMatchObject({
      type: "tool_use",
      id: expect.stringMatching(/^toolu_01[A-Za-z0-9]{22}$/),
      name: "Read",
      input: {},
    });
    const delta = events.find((e) => e.event === "message_delta")?.data;
    expect(delta).toMatchObject({
      delta: { stop_reason: "tool_use" },
      usage: { output_tokens: expect.any(Number) },
    });
  });

  it("sends an error event mid-stream for a stream_error fault", async () => {
    const s = await start([
      {
        response: { content: [{ type: "text", text: "hello there" }] },
        fault: { kind: "stream_error", afterEvents: 3 },
      },
    ]);
    const events = parseSse(await (await post(s.url, { ...BASE, stream: true })).text());
    expect(events).toHaveLength(4);
    expect(events[3]).toEqual({
      event: "error",
      data: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
    });
  });

  it("destroys the socket after N events for a cut fault", async () => {
    const s = await start([
      {
        response: { content: [{ type: "text", text: "a long answer" }] },
        fault: { kind: "cut", afterEvents: 2 },
      },
    ]);
    const res = await post(s.url, { ...BASE, stream: true });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });
});

it("paces events by latencyMs", async () => {
  server = await startModelServer({
    script: { turns: [{ response: { content: [{ type: "text", text: "abc" }] } }] },
    latencyMs: 25,
  });
  const started = Date.now();
  const events = parseSse(await (await post(server.url, { ...BASE, stream: true })).text());
  expect(events).toHaveLength(9);
  expect(Date.now() - started).toBeGreaterThanOrEqual(8 * 25 - 5);
});

it("refuses an invalid script with readable text", async () => {
  await expect(startModelServer({ script: { turns: [{ repeat: "yes" }] } as never })).rejects.toThrow(
    /Invalid model script:[\s\S]*repeat/,
  );
});

describe("splitChunks", () => {
  it.each<[string, string[]]>([
    ["", []],
    ["a", ["a"]],
    ["abc", ["a", "b", "c"]],
    ["abcdef", ["ab", "cd", "ef"]],
    ["😀😀😀", ["😀", "😀", "😀"]],
  ])("%j → %j", (text, chunks) => {
    expect(splitChunks(text)).toEqual(chunks);
  });

  it("caps chunk size and keeps the text", () => {
    const text = "x".repeat(1000);
    const chunks = splitChunks(text);
    expect(Math.max(...chunks.map((c) => c.length))).toBe(MAX_DELTA_CHARS);
    expect(chunks.join("")).toBe(text);
  });
});

describe("JSON responses and errors", () => {
  it("answers without stream with a JSON Message (SDK, non-streaming)", async () => {
    const s = await start([{ response: { content: [{ type: "text", text: "plain" }] } }]);
    const sdk = new Anthropic({ apiKey: "k", baseURL: s.url, maxRetries: 0 });
    const message = await sdk.messages.create({ model: "claude-x", max_tokens: 10, messages: BASE.messages });
    expect(message).toMatchObject({
      type: "message",
      role: "assistant",
      model: "claude-x",
      content: [{ type: "text", text: "plain" }],
      stop_reason: "end_turn",
    });
    expect(message.id).toMatch(/^msg_/);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
  });

  it.each([
    [529, "overloaded_error"],
    [429, "rate_limit_error"],
    [500, "api_error"],
    [503, "api_error"],
    [401, "authentication_error"],
    [400, "invalid_request_error"],
  ])("an http fault %i has an Anthropic error body of type %s", async (status, type) => {
    const s = await start([{ fault: { kind: "http", status, retryAfterSeconds: 0 } }]);
    const res = await post(s.url, BASE);
    expect(res.status).toBe(status);
    expect(res.headers.get("retry-after")).toBe("0");
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.json()).toEqual({ type: "error", error: { type, message: `Scripted ${type}` } });
    expect(errorTypeForStatus(status)).toBe(type);
  });

  it("fails loudly when no turn matches, and tells the SDK not to retry", async () => {
    const s = await start([{ match: { lastUserTextIncludes: "nope" }, response: { content: [] } }]);
    const res = await post(s.url, BASE);
    expect(res.status).toBe(500);
    expect(res.headers.get("x-should-retry")).toBe("false");
    const body = (await res.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe("api_error");
    expect(body.error.message).toContain("no script turn matches");
    expect(body.error.message).toContain('last user text: "hi"');
  });

  it("rejects a request without max_tokens like the API", async () => {
    const s = await start([{ repeat: true, response: { content: [] } }]);
    const res = await post(s.url, { model: "m", messages: [] });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe("invalid_request_error");
  });

  it("checks the API key when given one", async () => {
    const s = await start([{ repeat: true, response: { content: [] } }], "secret");
    expect((await post(s.url, BASE)).status).toBe(401);
    expect((await post(s.url, BASE, { "x-api-key": "secret" })).status).toBe(200);
    expect((await post(s.url, BASE, { authorization: "Bearer secret" })).status).toBe(200);
  });

  it("estimates tokens at count_tokens and 404s elsewhere", async () => {
    const s = await start([]);
    const body = { model: "m", messages: [{ role: "user", content: "x".repeat(400) }] };
    const res = await fetch(`${s.url}/v1/messages/count_tokens`, {
      method: "POST",
      body: JSON.stringify(body),
    });
    const { input_tokens } = (await res.json()) as { input_tokens: number };
    expect(input_tokens).toBe(Math.ceil(JSON.stringify(body).length / 4));
    expect((await fetch(`${s.url}/v1/other`)).status).toBe(404);
  });
});

describe("turn selection and recording", () => {
  it("uses turns up in order, reuses repeat turns and records every request", async () => {
    const s = await start([
      { label: "once", response: { content: [{ type: "text", text: "first" }] } },
      { repeat: true, response: { content: [{ type: "text", text: "again" }] } },
    ]);
    const texts: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const message = (await (await post(s.url, BASE)).json()) as { content: Array<{ text: string }> };
      texts.push(message.content[0]?.text ?? "");
    }
    expect(texts).toEqual(["first", "again", "again"]);
    expect(s.requests.map((r) => r.turn)).toEqual([0, 1, 1]);
    const first = s.requests[0];
    expect(first).toMatchObject({ method: "POST", path: "/v1/messages", body: BASE, agentId: undefined });
    expect(first?.headers["x-custom-header"]).toBe("Yes");
    expect(s.requests.map((r) => r.time)).toEqual([...s.requests.map((r) => r.time)].sort((a, b) => a - b));
    expect(s.remainingTurns().map((t) => t.repeat)).toEqual([true]);
  });

  it("matches on the agent-id header and accepts added turns", async () => {
    const s = await start([
      { match: { agentId: "*" }, response: { content: [{ type: "text", text: "sub" }] } },
    ]);
    s.addTurns([{ match: { agentId: null }, response: { content: [{ type: "text", text: "main" }] } }]);
    const main = (await (await post(s.url, BASE)).json()) as { content: Array<{ text: string }> };
    const sub = (await (await post(s.url, BASE, { "x-skillwright-agent-id": "a1" })).json()) as {
      content: Array<{ text: string }>;
    };
    expect([main.content[0]?.text, sub.content[0]?.text]).toEqual(["main", "sub"]);
    expect(s.requests[1]?.agentId).toBe("a1");
    expect(() => s.addTurns([{ fault: { kind: "cut", afterEvents: 1 } }])).toThrow(/needs a response/);
  });
});

describe("matchers", () => {
  const body = {
    model: "claude-sonnet-5-5",
    system: [{ type: "text", text: "You are skillwright." }],
    tools: [{ name: "Read" }, { name: "Skill" }],
    messages: [
      { role: "user", content: "please deploy" },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "Skill", input: {} }] },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: "Launching skill: deploy" },
          { type: "text", text: "Base directory for this skill: /x" },
        ],
      },
    ],
  };
  const main = requestView(body, {});
  const sub = requestView(body, { "x-skillwright-agent-id": "agent-7" });

  it("reduces a request to what matchers use", () => {
    expect(sub).toEqual<RequestView>({
      agentId: "agent-7",
      model: "claude-sonnet-5-5",
      system: "You are skillwright.",
      toolNames: ["Read", "Skill"],
      lastUserText: "Base directory for this skill: /x",
      toolResultText: "Launching skill: deploy",
      toolResultsFor: ["toolu_1", "Skill"],
    });
    expect(requestView("garbage", {}).lastUserText).toBe("");
  });

  it.each<[ScriptMatch, boolean, boolean]>([
    [{}, true, true],
    [{ agentId: null }, true, false],
    [{ agentId: "*" }, false, true],
    [{ agentId: "agent-7" }, false, true],
    [{ agentId: "agent-8" }, false, false],
    [{ lastUserTextIncludes: "Base directory" }, true, true],
    [{ lastUserTextIncludes: "please deploy" }, false, false],
    [{ lastUserTextIncludes: ["Base directory", "skill: /x"] }, true, true],
    [{ lastUserTextIncludes: ["Base directory", "please deploy"] }, false, false],
    [{ toolResultIncludes: "Launching" }, true, true],
    [{ hasToolResultFor: "Skill" }, true, true],
    [{ hasToolResultFor: "toolu_1" }, true, true],
    [{ hasToolResultFor: "Read" }, false, false],
    [{ systemIncludes: "skillwright" }, true, true],
    [{ systemIncludes: "pirate" }, false, false],
    [{ model: "claude-sonnet-5-5" }, true, true],
    [{ hasTool: "Skill" }, true, true],
    [{ hasTool: "Bash" }, false, false],
    [{ agentId: null, systemIncludes: "skillwright" }, true, false],
  ])("%j → main %s, sub %s", (match, forMain, forSub) => {
    expect(matchesTurn(match, main)).toBe(forMain);
    expect(matchesTurn(match, sub)).toBe(forSub);
  });

  it("picks the first unused matching turn", () => {
    const turns = [
      { match: { agentId: "*" }, response: { content: [] } },
      { response: { content: [] } },
      { response: { content: [] } },
    ].map((t) => ScriptTurn.parse(t));
    expect(pickTurn(turns, new Set(), main)).toBe(1);
    expect(pickTurn(turns, new Set([1]), main)).toBe(2);
    expect(pickTurn(turns, new Set([1, 2]), main)).toBeUndefined();
    expect(pickTurn(turns, new Set(), sub)).toBe(0);
  });
});

describe("loadScript", () => {
  it("loads a valid file and explains an invalid one", async () => {
    const dir = await nodeFs.mkdtemp(path.join(os.tmpdir(), "model-script-"));
    try {
      const good = path.join(dir, "good.json");
      await nodeFs.writeFile(
        good,
        JSON.stringify({ turns: [{ response: { content: [{ type: "text", text: "x" }] } }] }),
      );
      const script = await loadScript(good, createNodeFs());
      expect(script.turns[0]?.repeat).toBe(false);

      const bad = path.join(dir, "bad.json");
      await nodeFs.writeFile(bad, JSON.stringify({ turns: [{ fault: { kind: "http", status: 200 } }] }));
      await expect(loadScript(bad, createNodeFs())).rejects.toThrow(/bad\.json is invalid:[\s\S]*status/);
    } finally {
      await nodeFs.rm(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ["{", /not valid JSON/],
    ['{"turns":[{"response":{"content":[{"type":"image"}]}}]}', /is invalid/],
    ['{"turns":[{"match":{"agent":"x"},"response":{"content":[]}}]}', /agent/],
    ['{"turns":[{"fault":{"kind":"slow","firstByteDelayMs":5}}]}', /needs a response/],
  ])("parseScript(%j) fails with %s", (text, error) => {
    const result = parseScript(text, "s.json");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(error);
  });
});
