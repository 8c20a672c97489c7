import * as sdk from "@anthropic-ai/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { createModelClient } from "../../src/agent/model-client.js";
import { ModelError, type ModelErrorKind, toModelError } from "../../src/agent/model-error.js";
import { AGENT_ID_HEADER, type ModelRequest, type ModelStreamEvent } from "../../src/agent/model-types.js";
import { buildRequestBody } from "../../src/agent/request-body.js";
import { startModelServer } from "../../src/dev/model-server.js";
import { contextWindowFor, isModelAlias, resolveModel } from "../../src/models.js";
import {
  httpFaultTurn,
  startTestModel,
  TEST_API_KEY,
  type TestModel,
  textTurn,
  toolTurn,
} from "../support/model-server.js";

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function setup(...args: Parameters<typeof startTestModel>): Promise<TestModel> {
  model = await startTestModel(...args);
  return model;
}

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: "sonnet",
    system: "You are a test.",
    messages: [{ role: "user", content: "hello" }],
    tools: [],
    maxTokens: 1024,
    ...overrides,
  };
}

const signal = () => new AbortController().signal;

async function rejection(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

describe("streaming", () => {
  it("assembles streamed text and reports each delta", async () => {
    const { client } = await setup([textTurn("The quick brown fox jumps over the lazy dog.")]);
    const events: ModelStreamEvent[] = [];
    const message = await client.stream(request(), { signal: signal(), onEvent: (e) => events.push(e) });
    expect(message).toMatchObject({
      role: "assistant",
      model: "claude-sonnet-5-5",
      content: [{ type: "text", text: "The quick brown fox jumps over the lazy dog." }],
      stop_reason: "end_turn",
    });
    expect(message.id).toMatch(/^msg_/);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
    const deltas = events.filter((e) => e.type === "text_delta");
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((e) => e.text).join("")).toBe("The quick brown fox jumps over the lazy dog.");
  });

  it("parses tool input split across input_json deltas into an object", async () => {
    const input = { command: "ls -la", nested: { list: [1, 2, 3], text: "ünïcødé 😀" } };
    const { client } = await setup([toolTurn("Bash", input, { id: "toolu_fixed", text: "Running." })]);
    const events: ModelStreamEvent[] = [];
    const message = await client.stream(request(), { signal: signal(), onEvent: (e) => events.push(e) });
    expect(message.content).toEqual([
      { type: "text", text: "Running." },
      { type: "tool_use", id: "toolu_fixed", name: "Bash", input },
    ]);
    expect(message.stop_reason).toBe("tool_use");
    expect(events).toContainEqual({ type: "tool_use_start", id: "toolu_fixed", name: "Bash" });
  });

  it("keeps a tool call with empty input as {}", async () => {
    const { client } = await setup([toolTurn("Ls", {})]);
    const message = await client.stream(request(), { signal: signal() });
    expect(message.content).toMatchObject([{ type: "tool_use", name: "Ls", input: {} }]);
  });
});

describe("the request", () => {
  it("sends the agent-id header only for sub-agents", async () => {
    const { client, server } = await setup([textTurn("a"), textTurn("b")]);
    await client.stream(request(), { signal: signal() });
    await client.stream(request(), { signal: signal(), agentId: "fork-1" });
    expect(server.requests[0]?.headers[AGENT_ID_HEADER]).toBeUndefined();
    expect(server.requests[1]?.headers[AGENT_ID_HEADER]).toBe("fork-1");
  });

  it("sends effort and cache breakpoints without mutating the caller's arrays", async () => {
    const { client, server } = await setup([textTurn("ok")]);
    const req = request({
      model: "opus",
      effort: "high",
      tools: [
        { name: "Read", description: "reads", input_schema: { type: "object", properties: {} } },
        { name: "Skill", description: "skills", input_schema: { properties: { skill: { type: "string" } } } },
      ],
      messages: [
        { role: "user", content: "first" },
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Read", input: { p: 1 } }] },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "t1", content: "data" },
            { type: "text", text: "<system-reminder>skills</system-reminder>" },
          ],
        },
      ],
    });
    const before = structuredClone(req);
    await client.stream(req, { signal: signal() });
    expect(req).toEqual(before);

    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body.model).toBe("claude-opus-5-5");
    expect(body.max_tokens).toBe(1024);
    expect(body.stream).toBe(true);
    expect(body.output_config).toEqual({ effort: "high" });
    expect(body.system).toEqual([
      { type: "text", text: "You are a test.", cache_control: { type: "ephemeral" } },
    ]);
    expect(body.tools).toEqual([
      { name: "Read", description: "reads", input_schema: { type: "object", properties: {} } },
      {
        name: "Skill",
        description: "skills",
        input_schema: { type: "object", properties: { skill: { type: "string" } } },
        cache_control: { type: "ephemeral" },
      },
    ]);
    const messages = body.messages as Array<{ content: Array<Record<string, unknown>> | string }>;
    expect(messages[0]?.content).toBe("first");
    expect(messages[1]?.content).toEqual([{ type: "tool_use", id: "t1", name: "Read", input: { p: 1 } }]);
    expect(messages[2]?.content).toEqual([
      { type: "tool_result", tool_use_id: "t1", content: "data" },
      {
        type: "text",
        text: "<system-reminder>skills</system-reminder>",
        cache_control: { type: "ephemeral" },
      },
    ]);
  });

  it.each<[string, Partial<ModelRequest>, Record<string, unknown>]>([
    [
      "empty system and tools are left out",
      { system: "", tools: [] },
      { system: undefined, tools: undefined },
    ],
    [
      "no effort: medium on a model that supports effort (SPEC §14.2)",
      {},
      { output_config: { effort: "medium" } },
    ],
    ["a set effort wins over the default", { effort: "low" }, { output_config: { effort: "low" } }],
    [
      "a dated id of an effort model",
      { model: "claude-opus-4-5-20251101" },
      { output_config: { effort: "medium" } },
    ],
    [
      "a model without effort support gets no field",
      { model: "claude-sonnet-4-5" },
      { output_config: undefined },
    ],
    [
      "not even when an effort is set",
      { model: "claude-haiku-4-5", effort: "high" },
      { output_config: undefined },
    ],
    ["an unknown model gets no field", { model: "my-proxy-model" }, { output_config: undefined }],
    [
      "a string newest message becomes a cached text block",
      { messages: [{ role: "user", content: "hi" }] },
      {
        messages: [
          { role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }] },
        ],
      },
    ],
    ["an unknown model passes through", { model: "my-proxy-model" }, { model: "my-proxy-model" }],
  ])("buildRequestBody: %s", (_name, overrides, expected) => {
    const body: Record<string, unknown> = { ...buildRequestBody(request(overrides)) };
    for (const [key, value] of Object.entries(expected)) expect(body[key]).toEqual(value);
  });
});

describe("retries and failures", () => {
  it("lets the SDK retry a 529 and reports the retry", async () => {
    const { client, server } = await setup([httpFaultTurn(529), textTurn("recovered")]);
    const events: ModelStreamEvent[] = [];
    const message = await client.stream(request(), { signal: signal(), onEvent: (e) => events.push(e) });
    expect(message.content).toEqual([{ type: "text", text: "recovered" }]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.headers["x-stainless-retry-count"]).toBe("1");
    expect(events.filter((e) => e.type === "retry")).toEqual([{ type: "retry", attempt: 1 }]);
  });

  it("gives up on a 500 after the configured retries", async () => {
    const fault = { ...httpFaultTurn(500), repeat: true };
    const { client, server } = await setup([fault]);
    const error = await rejection(client.stream(request(), { signal: signal() }));
    expect(error.kind).toBe("server");
    expect(error.status).toBe(500);
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(
      "Model API server error (HTTP 500): Scripted api_error (gave up after 3 attempts)",
    );
    expect(server.requests).toHaveLength(3);
  });

  it("does not retry an auth failure", async () => {
    const { server } = await setup([textTurn("never")]);
    const client = createModelClient({ apiKey: "wrong", baseURL: server.url });
    const error = await rejection(client.stream(request(), { signal: signal() }));
    expect(error.kind).toBe("auth");
    expect(error.status).toBe(401);
    expect(server.requests).toHaveLength(1);
  });

  it("rejects at once without credentials for the public API", async () => {
    const client = createModelClient({ env: {} });
    const error = await rejection(client.stream(request(), { signal: signal() }));
    expect(error.kind).toBe("auth");
    expect(error.message).toContain("ANTHROPIC_API_KEY");
  });

  it("reads ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY from its env, as the SDK does", async () => {
    const { server } = await setup([textTurn("from the env")]);
    const client = createModelClient({
      env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: TEST_API_KEY },
    });
    const message = await client.stream(request(), { signal: signal() });
    expect(JSON.stringify(message.content)).toContain("from the env");
    expect(JSON.stringify(server.requests[0]?.headers)).toContain(TEST_API_KEY);
  });

  it("sends no credentials to a base URL of one's own given alone (a local gateway)", async () => {
    const server = await startModelServer({ script: { turns: [textTurn("keyless")] } });
    try {
      const client = createModelClient({ env: { ANTHROPIC_BASE_URL: server.url } });
      const message = await client.stream(request(), { signal: signal() });
      expect(JSON.stringify(message.content)).toContain("keyless");
      expect(server.requests[0]?.headers["x-api-key"]).toBeUndefined();
      expect(server.requests[0]?.headers.authorization).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it("rejects fast when the stream is cut mid-message", async () => {
    const { client, server } = await setup([
      {
        response: { content: [{ type: "text", text: "a reply that never ends" }] },
        fault: { kind: "cut", afterEvents: 4 },
      },
    ]);
    const started = Date.now();
    const error = await rejection(client.stream(request(), { signal: signal() }));
    expect(error.kind).toBe("stream_cut");
    expect(error.message).toMatch(/cut off before the message was complete|ended before message_stop/);
    expect(Date.now() - started).toBeLessThan(15_000); // at once, not after a timeout
    expect(server.requests).toHaveLength(1);
  });

  it("reports an error event inside the stream", async () => {
    const { client } = await setup([
      {
        response: { content: [{ type: "text", text: "partial" }] },
        fault: { kind: "stream_error", afterEvents: 3 },
      },
    ]);
    const error = await rejection(client.stream(request(), { signal: signal() }));
    expect(error.kind).toBe("overloaded");
    expect(error.message).toBe("Model API overloaded during streaming: Overloaded");
  });

  it.each([
    ["a slow first byte", { kind: "slow", firstByteDelayMs: 30_000 } as const, undefined],
    ["withheld headers", undefined, 30_000],
  ])("rejects as aborted when aborted during %s", async (_name, fault, delayMs) => {
    const { client } = await setup([
      {
        response: { content: [{ type: "text", text: "late" }] },
        ...(fault === undefined ? {} : { fault }),
        ...(delayMs === undefined ? {} : { delayMs }),
      },
    ]);
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 100);
    const error = await rejection(client.stream(request(), { signal: controller.signal }));
    expect(error.kind).toBe("aborted");
    expect(Date.now() - started).toBeLessThan(15_000); // not the 30 s the server holds
  });

  it("names the endpoint when it cannot connect", async () => {
    const closed = await startModelServer({ script: { turns: [] } });
    await closed.close();
    const client = createModelClient({ apiKey: "k", baseURL: closed.url, maxRetries: 0 });
    const error = await rejection(client.stream(request(), { signal: signal() }));
    expect(error.kind).toBe("connection");
    expect(error.message).toContain(closed.url);
  });

  it("fails loudly when the script has no matching turn", async () => {
    const { client, server } = await setup([textTurn("x", { lastUserTextIncludes: "something else" })]);
    const error = await rejection(client.stream(request(), { signal: signal() }));
    expect(error.kind).toBe("server");
    expect(error.message).toContain("no script turn matches");
    expect(server.requests).toHaveLength(1);
  });

  it("lets an onEvent exception through unchanged", async () => {
    const { client } = await setup([textTurn("boom")]);
    const thrown = new Error("host bug");
    await expect(
      client.stream(request(), {
        signal: signal(),
        onEvent: () => {
          throw thrown;
        },
      }),
    ).rejects.toBe(thrown);
  });

  it.each<[string, unknown, ModelErrorKind]>([
    [
      "429",
      new sdk.RateLimitError(429, { error: { type: "rate_limit_error" } }, undefined, new Headers()),
      "rate_limit",
    ],
    ["529", new sdk.APIError(529, undefined, "overloaded", new Headers()), "overloaded"],
    ["403", new sdk.APIError(403, undefined, "no", new Headers()), "auth"],
    [
      "prompt too long",
      new sdk.BadRequestError(
        400,
        {
          error: {
            type: "invalid_request_error",
            message: "prompt is too long: 250000 tokens > 200000 maximum",
          },
        },
        undefined,
        new Headers(),
      ),
      "prompt_too_long",
    ],
    ["422", new sdk.APIError(422, undefined, "bad", new Headers()), "bad_request"],
    ["abort", new sdk.APIUserAbortError(), "aborted"],
    ["timeout", new sdk.APIConnectionTimeoutError(), "timeout"],
    ["other", new Error("odd"), "unknown"],
  ])("toModelError maps %s", (_name, error, kind) => {
    const context = { signal: signal(), attempts: 1, streaming: false, baseURL: "http://x" };
    expect(toModelError(error, sdk, context).kind).toBe(kind);
  });

  it("toModelError calls a transport error during streaming a cut stream", () => {
    const context = { signal: signal(), attempts: 1, streaming: true, baseURL: "http://x" };
    expect(toModelError(new TypeError("terminated"), sdk, context).kind).toBe("stream_cut");
  });
});

describe("matchers seen through the client", () => {
  it("answers main agent and sub-agent from their own turns", async () => {
    const { client } = await setup([
      textTurn("for the fork", { agentId: "*" }),
      textTurn("about tests", { agentId: null, lastUserTextIncludes: "tests" }),
      textTurn("for main", { agentId: null }),
    ]);
    const main = await client.stream(request(), { signal: signal() });
    const fork = await client.stream(request(), { signal: signal(), agentId: "f1" });
    const tests = await client.stream(request({ messages: [{ role: "user", content: "run the tests" }] }), {
      signal: signal(),
    });
    expect([main, fork, tests].map((m) => m.content[0])).toEqual([
      { type: "text", text: "for main" },
      { type: "text", text: "for the fork" },
      { type: "text", text: "about tests" },
    ]);
  });
});

describe("models", () => {
  it.each([
    ["sonnet", "claude-sonnet-5-5"],
    ["Opus", "claude-opus-5-5"],
    [" haiku ", "claude-haiku-5-5"],
    ["claude-sonnet-4-5-20250929", "claude-sonnet-4-5-20250929"],
    ["inherit", "inherit"],
  ])("resolveModel(%j) = %s", (input, id) => {
    expect(resolveModel(input)).toBe(id);
  });

  it.each([
    ["sonnet", 1_000_000],
    ["claude-opus-4-6", 1_000_000],
    ["claude-haiku-4-5-20251001", 200_000],
    ["claude-3-7-sonnet-latest", 200_000],
    ["gpt-5", undefined],
  ])("contextWindowFor(%j) = %s", (input, tokens) => {
    expect(contextWindowFor(input)).toBe(tokens);
  });

  it("knows its aliases", () => {
    expect(isModelAlias("sonnet")).toBe(true);
    expect(isModelAlias("inherit")).toBe(false);
  });
});
