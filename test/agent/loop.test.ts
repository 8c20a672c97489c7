import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentEvent, AgentResult } from "../../src/agent/events.js";
import {
  type AgentRunOptions,
  type AgentTool,
  executeAgent,
  runAgent,
  type ToolGate,
} from "../../src/agent/loop.js";
import type { ModelMessage, ModelToolResultBlock } from "../../src/agent/model-types.js";
import type { RecordedRequest } from "../../src/dev/model-server.js";
import { defineTool, toolError } from "../../src/tools/define-tool.js";
import { startTestModel, type TestModel, textTurn, toolTurn } from "../support/model-server.js";

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function setup(...args: Parameters<typeof startTestModel>): Promise<TestModel> {
  model = await startTestModel(...args);
  return model;
}

/** A tool that waits `ms` (or until aborted) and records when it ran. */
function waitTool(log: { id: string; start: number; end: number }[]): AgentTool {
  return defineTool({
    name: "Wait",
    description: "Waits.",
    input: z.object({ ms: z.number(), tag: z.string() }),
    readOnly: true,
    async execute(input, ctx) {
      const start = Date.now();
      await sleep(input.ms, undefined, { signal: ctx.signal });
      log.push({ id: input.tag, start, end: Date.now() });
      return { content: `waited ${input.tag}` };
    },
  });
}

/**
 * A tool whose two calls meet: each waits until both have started (so calls run one at a time never finish: the
 * first fails after a generous 10 s), then "slow" waits until "fast" has finished. `log` gets the finishing order.
 */
function meetingTool(log: string[]): AgentTool {
  let arrived = 0;
  let bothStarted: () => void = () => {};
  const met = new Promise<void>((resolve) => {
    bothStarted = resolve;
  });
  let fastDone: () => void = () => {};
  const fastFinished = new Promise<void>((resolve) => {
    fastDone = resolve;
  });
  const serial = () =>
    sleep(10_000, undefined, { ref: false }).then(() => {
      throw new Error("the other call never started: calls ran one at a time");
    });
  return defineTool({
    name: "Meet",
    description: "Meets the other call.",
    input: z.object({ tag: z.string() }),
    readOnly: true,
    async execute(input) {
      arrived += 1;
      if (arrived === 2) bothStarted();
      await Promise.race([met, serial()]);
      if (input.tag === "slow") await fastFinished;
      log.push(input.tag);
      if (input.tag === "fast") fastDone();
      return { content: `met ${input.tag}` };
    },
  });
}

const throwingTool = defineTool({
  name: "Boom",
  description: "Always throws.",
  input: z.object({}),
  readOnly: true,
  async execute() {
    throw new Error("kaboom");
  },
});

const failingTool = defineTool({
  name: "Fail",
  description: "Reports a failure it expected.",
  input: z.object({}),
  readOnly: true,
  async execute() {
    return toolError("the thing is missing; create it first");
  },
});

const echoTool = defineTool({
  name: "Echo",
  description: "Echoes its text.",
  input: z.object({ text: z.string() }),
  readOnly: true,
  async execute(input) {
    return { content: input.text };
  },
});

function options(client: TestModel["client"], overrides: Partial<AgentRunOptions> = {}): AgentRunOptions {
  return {
    client,
    system: "You are the loop under test.",
    tools: [echoTool],
    messages: [{ role: "user", content: "start" }],
    turn: { model: "sonnet", grants: [], removedTools: [] },
    maxTokens: 1024,
    cwd: process.cwd(),
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function run(
  opts: AgentRunOptions,
): Promise<{ result: AgentResult; events: AgentEvent[]; messages: ModelMessage[] }> {
  const events: AgentEvent[] = [];
  const messages: ModelMessage[] = [];
  const result = await executeAgent({ ...opts, onMessage: async (m) => void messages.push(m) }, (e) =>
    events.push(e),
  );
  return { result, events, messages };
}

type Body = {
  system?: unknown;
  tools?: { name: string }[];
  model: string;
  messages: { role: string; content: unknown }[];
};

function body(request: RecordedRequest | undefined): Body {
  expect(request).toBeDefined();
  return request?.body as Body;
}

/** The tool_result blocks of the newest user message of a recorded request. */
function toolResults(request: RecordedRequest | undefined): ModelToolResultBlock[] {
  const last = body(request).messages.at(-1);
  expect(last?.role).toBe("user");
  const content = Array.isArray(last?.content) ? (last.content as { type: string }[]) : [];
  return content.filter((b): b is ModelToolResultBlock => b.type === "tool_result");
}

function resultText(block: ModelToolResultBlock | undefined): string {
  if (block === undefined) return "";
  if (typeof block.content === "string") return block.content;
  return block.content.map((b) => (b.type === "text" ? b.text : "")).join("");
}

describe("executeAgent: tool calls", () => {
  it("runs the tool calls of one message concurrently and answers them in tool_use order", async () => {
    const log: string[] = [];
    const { client, server } = await setup([
      {
        response: {
          content: [
            { type: "tool_use", id: "toolu_slow", name: "Meet", input: { tag: "slow" } },
            { type: "tool_use", id: "toolu_fast", name: "Meet", input: { tag: "fast" } },
          ],
        },
      },
      textTurn("both done", { hasToolResultFor: "Meet" }),
    ]);
    const { result } = await run(options(client, { tools: [meetingTool(log)] }));

    // Both calls were running at once (each waited for the other to start); they finished fast first.
    expect(result).toMatchObject({ cause: "end_turn", text: "both done", turns: 2, toolsUsed: ["Meet"] });
    expect(log).toEqual(["fast", "slow"]);
    const results = toolResults(server.requests[1]);
    expect(results.map((r) => r.tool_use_id)).toEqual(["toolu_slow", "toolu_fast"]);
    expect(results.map(resultText)).toEqual(["met slow", "met fast"]);
  });

  it("turns a thrown error and an expected failure into is_error results, and goes on", async () => {
    const { client, server } = await setup([
      {
        response: {
          content: [
            { type: "tool_use", id: "toolu_boom", name: "Boom", input: {} },
            { type: "tool_use", id: "toolu_fail", name: "Fail", input: {} },
            { type: "tool_use", id: "toolu_ok", name: "Echo", input: { text: "fine" } },
          ],
        },
      },
      textTurn("recovered", { hasToolResultFor: "Boom" }),
    ]);
    const { result } = await run(options(client, { tools: [throwingTool, failingTool, echoTool] }));

    expect(result.cause).toBe("end_turn");
    const results = toolResults(server.requests[1]);
    expect(results.map((r) => [r.tool_use_id, r.is_error === true, resultText(r)])).toEqual([
      ["toolu_boom", true, "Boom failed: kaboom"],
      ["toolu_fail", true, "the thing is missing; create it first"],
      ["toolu_ok", false, "fine"],
    ]);
  });

  it("turns a tool or gate that throws (not built with defineTool) into an is_error result", async () => {
    const raw: AgentTool = {
      name: "Raw",
      description: "Throws from run.",
      inputSchema: { type: "object" },
      readOnly: true,
      subject: () => undefined,
      run: async () => {
        throw new Error("raw tool broke");
      },
    };
    const gate: ToolGate = {
      async before(call) {
        if (call.tool.name === "Echo") throw new Error("policy store unreachable");
        return { behavior: "allow" };
      },
    };
    const { client, server } = await setup([
      {
        response: {
          content: [
            { type: "tool_use", id: "toolu_raw", name: "Raw", input: {} },
            { type: "tool_use", id: "toolu_echo", name: "Echo", input: { text: "x" } },
          ],
        },
      },
      textTurn("recovered", { hasToolResultFor: "Raw" }),
    ]);
    const { result, events } = await run(options(client, { tools: [raw, echoTool], gate }));

    expect(result).toMatchObject({ cause: "end_turn", text: "recovered" });
    expect(toolResults(server.requests[1]).map((r) => [r.is_error, resultText(r)])).toEqual([
      [true, "Raw failed: raw tool broke"],
      [true, "Echo failed: policy store unreachable"],
    ]);
    expect(events.filter((e) => e.type === "tool_end")).toHaveLength(2);
  });

  it("answers a call to an unknown tool with an error naming the tools that exist", async () => {
    const { client, server } = await setup([
      toolTurn("Nope", {}, { id: "toolu_nope" }),
      textTurn("ok", { hasToolResultFor: "toolu_nope" }),
    ]);
    const { result } = await run(options(client, { tools: [echoTool, failingTool] }));

    expect(result.cause).toBe("end_turn");
    const [only] = toolResults(server.requests[1]);
    expect(only?.is_error).toBe(true);
    expect(resultText(only)).toBe("No such tool available: Nope. Available tools: Echo, Fail");
  });

  it("sends a gate's denial as an is_error result without running the tool", async () => {
    let ran = 0;
    const counted = defineTool({
      name: "Danger",
      description: "Must not run.",
      input: z.object({}),
      readOnly: false,
      async execute() {
        ran += 1;
        return { content: "ran" };
      },
    });
    const seen: string[] = [];
    const gate: ToolGate = {
      async before(call) {
        seen.push(`${call.tool.name}:${call.id}`);
        return call.tool.name === "Danger"
          ? { behavior: "deny", message: "Danger is not allowed here." }
          : { behavior: "allow" };
      },
    };
    const { client, server } = await setup([
      {
        response: {
          content: [
            { type: "tool_use", id: "toolu_d", name: "Danger", input: {} },
            { type: "tool_use", id: "toolu_e", name: "Echo", input: { text: "safe" } },
          ],
        },
      },
      textTurn("ok", { hasToolResultFor: "Danger" }),
    ]);
    const { result } = await run(options(client, { tools: [counted, echoTool], gate }));

    expect(result.cause).toBe("end_turn");
    expect(ran).toBe(0);
    expect(seen.sort()).toEqual(["Danger:toolu_d", "Echo:toolu_e"]);
    const results = toolResults(server.requests[1]);
    expect(results.map((r) => [r.is_error === true, resultText(r)])).toEqual([
      [true, "Danger is not allowed here."],
      [false, "safe"],
    ]);
  });

  it("reports its decision on each call before the call runs or is refused (tool_decision)", async () => {
    const gate: ToolGate = {
      async before(call) {
        return call.input !== null &&
          typeof call.input === "object" &&
          "text" in call.input &&
          call.input.text === "no"
          ? { behavior: "deny", message: "not that" }
          : { behavior: "allow" };
      },
    };
    const { client } = await setup([
      {
        response: {
          content: [
            { type: "tool_use", id: "toolu_yes", name: "Echo", input: { text: "yes" } },
            { type: "tool_use", id: "toolu_no", name: "Echo", input: { text: "no" } },
            { type: "tool_use", id: "toolu_gone", name: "Nope", input: {} },
          ],
        },
      },
      textTurn("ok", { hasToolResultFor: "toolu_gone" }),
    ]);
    const { events } = await run(options(client, { gate }));
    const decisions = events.flatMap((e) =>
      e.type === "tool_decision" ? [{ id: e.id, behavior: e.behavior, refused: e.refused }] : [],
    );
    expect(decisions.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: "toolu_gone", behavior: "deny", refused: true },
      { id: "toolu_no", behavior: "deny", refused: undefined },
      { id: "toolu_yes", behavior: "allow", refused: undefined },
    ]);
    for (const id of ["toolu_yes", "toolu_no", "toolu_gone"]) {
      const at = (type: string) => events.findIndex((e) => e.type === type && "id" in e && e.id === id);
      expect(at("tool_start")).toBeLessThan(at("tool_decision"));
      expect(at("tool_decision")).toBeLessThan(at("tool_end"));
    }
  });

  it("runs an allowed call only once the gate's ready() resolves, after its tool_decision; a rejection leaves it unrun", async () => {
    const ran: string[] = [];
    const order: string[] = [];
    const counted = defineTool({
      name: "Mark",
      description: "Marks.",
      input: z.object({ tag: z.string() }),
      readOnly: false,
      async execute(input) {
        ran.push(input.tag);
        order.push(`run ${input.tag}`);
        return { content: `marked ${input.tag}` };
      },
    });
    const gate: ToolGate = {
      before: async () => ({ behavior: "allow" }),
      async ready(call) {
        const tag = (call.input as { tag: string }).tag;
        order.push(`ready ${tag}`);
        await sleep(1);
        if (tag === "refused") throw new Error("its event could not be stored");
        order.push(`recorded ${tag}`);
      },
    };
    const { client, server } = await setup([
      {
        response: {
          content: [
            { type: "tool_use", id: "toolu_ok", name: "Mark", input: { tag: "ok" } },
            { type: "tool_use", id: "toolu_refused", name: "Mark", input: { tag: "refused" } },
          ],
        },
      },
      textTurn("done", { hasToolResultFor: "Mark" }),
    ]);
    const { events } = await run(options(client, { tools: [counted], gate }));

    expect(ran).toEqual(["ok"]);
    expect(order.indexOf("recorded ok")).toBeGreaterThan(-1);
    expect(order.indexOf("recorded ok")).toBeLessThan(order.indexOf("run ok"));
    const at = (type: string, id: string) =>
      events.findIndex((e) => e.type === type && "id" in e && e.id === id);
    expect(at("tool_decision", "toolu_ok")).toBeLessThan(at("tool_end", "toolu_ok"));
    const results = toolResults(server.requests[1]);
    expect(results.map((r) => [r.is_error === true, resultText(r)])).toEqual([
      [false, "marked ok"],
      [true, "Mark failed: its event could not be stored"],
    ]);
  });

  it("gives the gate's after() text to the model after the tool results", async () => {
    const gate: ToolGate = {
      before: async () => ({ behavior: "allow" }),
      after: async (call) => [`post-hook saw ${call.tool.name}`],
    };
    const { client, server } = await setup([
      toolTurn("Echo", { text: "x" }, { id: "toolu_x" }),
      textTurn("ok", { hasToolResultFor: "Echo" }),
    ]);
    await run(options(client, { gate }));

    const last = body(server.requests[1]).messages.at(-1)?.content as { type: string; text?: string }[];
    expect(last.map((b) => b.type)).toEqual(["tool_result", "text"]);
    expect(last[1]?.text).toBe("post-hook saw Echo");
  });
});

describe("executeAgent: turn state", () => {
  it("applies a tool's patch and follow-up blocks to the rest of the turn", async () => {
    const patching: AgentTool = {
      name: "Patch",
      description: "Switches the model and removes Echo.",
      inputSchema: { type: "object", properties: {} },
      readOnly: true,
      subject: () => undefined,
      async run() {
        return {
          content: [{ type: "text", text: "patched" }],
          isError: false,
          touchedPaths: [],
          patch: { model: "haiku", effort: "low", removeTools: ["Echo"] },
          followUp: [{ type: "text", text: "FOLLOW-UP" }],
        };
      },
    };
    const { client, server } = await setup([
      toolTurn("Patch", {}),
      toolTurn("Echo", { text: "x" }, { match: { hasToolResultFor: "Patch", model: "claude-haiku-5-5" } }),
      textTurn("ok", { hasToolResultFor: "Echo" }),
    ]);
    const { result } = await run(options(client, { tools: [echoTool, patching] }));

    expect(result.cause).toBe("end_turn");
    const first = server.requests[0]?.body as Body & { output_config?: unknown };
    const second = server.requests[1]?.body as Body & { output_config?: unknown };
    const third = server.requests[2]?.body as Body;
    // The tools array never changes (a fixed prompt prefix): the removed Echo stays offered, its call is refused.
    expect(first.tools?.map((t) => t.name)).toEqual(["Echo", "Patch"]);
    expect(JSON.stringify(second.tools)).toBe(JSON.stringify(first.tools));
    const lastContent = third.messages.at(-1)?.content ?? [];
    const refused = (lastContent as { type: string; is_error?: boolean; content?: unknown }[])[0];
    expect(refused).toMatchObject({
      is_error: true,
      content: [
        {
          type: "text",
          text: "The Echo tool is not available for the rest of this turn: it is disallowed. Continue without it.",
        },
      ],
    });
    expect(first.output_config).toEqual({ effort: "medium" });
    expect(second.output_config).toEqual({ effort: "low" });
    const last = second.messages.at(-1)?.content as { type: string; text?: string }[];
    expect(last.map((b) => b.type)).toEqual(["tool_result", "text"]);
    expect(last[1]?.text).toBe("FOLLOW-UP");
  });

  it("adds reminder texts to each tool-result message, after the results", async () => {
    let calls = 0;
    const { client, server } = await setup([
      toolTurn("Echo", { text: "a" }),
      textTurn("ok", { hasToolResultFor: "Echo" }),
    ]);
    await run(
      options(client, {
        reminders: async () => {
          calls += 1;
          return [`<system-reminder>delta ${calls}</system-reminder>`];
        },
      }),
    );

    expect(calls).toBe(1);
    const last = body(server.requests[1]).messages.at(-1)?.content as { type: string; text?: string }[];
    expect(last.at(-1)).toEqual({
      type: "text",
      text: "<system-reminder>delta 1</system-reminder>",
      cache_control: { type: "ephemeral" },
    });
  });

  it("keeps the system prompt and the tools byte-identical across every request of a session", async () => {
    const { client, server } = await setup([
      toolTurn("Echo", { text: "1" }),
      toolTurn("Echo", { text: "2" }, { match: { toolResultIncludes: "1" } }),
      {
        response: {
          content: [
            { type: "tool_use", name: "Echo", input: { text: "3" } },
            { type: "tool_use", name: "Fail", input: {} },
          ],
        },
        match: { toolResultIncludes: "2" },
      },
      textTurn("done", { hasToolResultFor: "Fail" }),
    ]);
    const opts = options(client, { tools: [echoTool, failingTool] });
    const first = await run(opts);
    expect(first.result).toMatchObject({ cause: "end_turn", turns: 4 });
    // A second user turn on the same transcript.
    server.addTurns([textTurn("again", { lastUserTextIncludes: "next" })]);
    const next = await run({
      ...opts,
      messages: [...opts.messages, ...first.messages, { role: "user", content: "next" }],
    });
    expect(next.result.text).toBe("again");

    const bodies = server.requests.map((r) => r.body as Record<string, unknown>);
    expect(bodies).toHaveLength(5);
    const systems = new Set(bodies.map((b) => JSON.stringify(b.system)));
    const tools = new Set(bodies.map((b) => JSON.stringify(b.tools)));
    expect(systems.size).toBe(1);
    expect(tools.size).toBe(1);
    expect(JSON.stringify(bodies[0]?.system)).toContain("You are the loop under test.");
  });
});

describe("executeAgent: stopping", () => {
  it("stops at maxTurns with cause max_turns after that many requests", async () => {
    const { client, server } = await setup([{ ...toolTurn("Echo", { text: "again" }), repeat: true }]);
    const { result, messages } = await run(options(client, { maxTurns: 3 }));

    expect(result).toMatchObject({ cause: "max_turns", turns: 3 });
    expect(server.requests).toHaveLength(3);
    // Every call was answered, so the transcript can be sent again.
    expect(messages.map((m) => m.role)).toEqual([
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
    ]);
  });

  it("aborts mid-tool: the tool sees the abort, no further request is made, cause aborted", async () => {
    const log: { id: string; start: number; end: number }[] = [];
    const { client, server } = await setup([
      toolTurn("Wait", { ms: 30_000, tag: "long" }, { id: "toolu_long" }),
      textTurn("never"),
    ]);
    const controller = new AbortController();
    const started = Date.now();
    const events: AgentEvent[] = [];
    const messages: ModelMessage[] = [];
    const result = await executeAgent(
      {
        ...options(client, { tools: [waitTool(log)], signal: controller.signal }),
        onMessage: async (m) => void messages.push(m),
      },
      (event) => {
        events.push(event);
        if (event.type === "tool_start") setTimeout(() => controller.abort(), 50);
      },
    );

    expect(result.cause).toBe("aborted");
    expect(Date.now() - started).toBeLessThan(15_000); // not the 30 s of the wait
    expect(server.requests).toHaveLength(1);
    expect(log).toEqual([]);
    const end = events.find((e) => e.type === "tool_end");
    expect(end?.type === "tool_end" && end.result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "Aborted" }],
    });
    // The aborted call still gets its result in the transcript.
    const last = messages.at(-1);
    expect(last?.role).toBe("user");
    expect(last?.content).toEqual([
      {
        type: "tool_result",
        tool_use_id: "toolu_long",
        content: [{ type: "text", text: "Aborted" }],
        is_error: true,
      },
    ]);
  });

  it("ends with an error event and cause error when the model call fails", async () => {
    const { client } = await setup([{ fault: { kind: "http", status: 400, message: "bad thing" } }]);
    const { result, events } = await run(options(client));

    expect(result.cause).toBe("error");
    expect(result.error?.kind).toBe("bad_request");
    expect(result.error?.message).toContain("bad thing");
    expect(events.filter((e) => e.type === "error")).toHaveLength(1);
  });

  it("runAgent streams the same events and ends with done carrying the result", async () => {
    const { client } = await setup([
      toolTurn("Echo", { text: "hi" }),
      textTurn("bye", { hasToolResultFor: "Echo" }),
    ]);
    const seen: string[] = [];
    let done: AgentResult | undefined;
    for await (const event of runAgent(options(client, { agentId: "agent-7" }))) {
      seen.push(event.type);
      expect(event.agentId).toBe("agent-7");
      if (event.type === "done") done = event.result;
    }
    expect(seen.at(-1)).toBe("done");
    expect(seen.filter((t) => t === "request_start")).toHaveLength(2);
    expect(seen).toContain("text_delta");
    expect(seen).toContain("tool_start");
    expect(done).toMatchObject({ cause: "end_turn", text: "bye", turns: 2, toolsUsed: ["Echo"] });
  });
});

describe("transformContext", () => {
  it("is applied to each request's messages; the loop's own messages and what it records stay as they were", async () => {
    const m = await setup([toolTurn("Echo", { text: "hi" }), textTurn("done")]);
    const seen: string[] = [];
    const transformContext = (messages: readonly ModelMessage[]): ModelMessage[] => {
      seen.push(JSON.stringify(messages));
      return messages.map((message) =>
        typeof message.content === "string"
          ? { ...message, content: message.content.toUpperCase() }
          : message,
      );
    };
    const { result, messages } = await run(options(m.client, { transformContext }));
    expect(result.cause).toBe("end_turn");
    const bodies = m.server.requests
      .filter((r) => r.path === "/v1/messages")
      .map((r) => r.body as { messages: { content: unknown }[] });
    expect(bodies).toHaveLength(2);
    expect(seen).toHaveLength(2);
    // Each request sends the transform's output; the transform sees the untransformed conversation.
    for (const body of bodies) {
      expect(JSON.stringify(body.messages[0])).toContain("START");
      expect(JSON.stringify(body.messages[0])).not.toContain("start");
    }
    expect(JSON.parse(seen[1] ?? "[]")[0]).toEqual({ role: "user", content: "start" });
    expect(messages.map((message) => message.role)).toEqual(["assistant", "user", "assistant"]);
  });
});
