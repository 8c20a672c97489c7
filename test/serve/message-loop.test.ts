import { afterEach, describe, expect, it } from "vitest";
import { createMemoryFs } from "../../src/io/memory-fs.js";
import { createNoSandbox } from "../../src/sandbox/no-sandbox.js";
import { type LoopEvent, MAX_MODEL_CALLS, runMessageLoop } from "../../src/serve/messages/message-loop.js";
import type { OutputFiles } from "../../src/serve/messages/output-files.js";
import { startTestModel, type TestModel } from "../support/model-server.js";

// The Messages route's inner loop (issue #49) over the real model client and the scripted server: it stops when
// the model does, passes its stop reason through, and pauses the turn after MAX_MODEL_CALLS calls.

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

/** Output files that never change (the commands here run nowhere). */
const NO_OUTPUTS: OutputFiles = { snapshot: async () => new Map(), publish: async () => [] };

/** The loop over `model` with a sandbox that runs no command; `onEvent` hears its events. */
function loop(test: TestModel, onEvent?: (event: LoopEvent) => void) {
  return runMessageLoop({
    ...(onEvent === undefined ? {} : { onEvent }),
    client: test.client,
    model: "claude-sonnet-5-5",
    system: "",
    maxTokens: 100,
    messages: [{ role: "user", content: "go" }],
    tools: [],
    toolsContext: {
      sandbox: createNoSandbox({ fs: createMemoryFs(), reason: "nothing runs in this test" }),
      cwd: "/",
      outputs: NO_OUTPUTS,
    },
    signal: new AbortController().signal,
  });
}

describe("runMessageLoop", () => {
  it("pauses the turn (pause_turn) after MAX_MODEL_CALLS calls, each call shown with its result", async () => {
    model = await startTestModel([
      {
        repeat: true,
        response: {
          content: [{ type: "tool_use", name: "bash_code_execution", input: { command: "echo again" } }],
          usage: { input_tokens: 3, output_tokens: 1 },
        },
      },
    ]);
    const result = await loop(model);
    expect(result.stopReason).toBe("pause_turn");
    expect(model.server.requests).toHaveLength(MAX_MODEL_CALLS);
    expect(result.usage.input_tokens).toBe(3 * MAX_MODEL_CALLS);
    expect(result.content).toHaveLength(2 * MAX_MODEL_CALLS);
    // Tier none: each command's result is the `unavailable` error, and the model read it as an error.
    expect(result.content[1]).toMatchObject({
      type: "bash_code_execution_tool_result",
      content: { type: "bash_code_execution_tool_result_error", error_code: "unavailable" },
    });
    expect(JSON.stringify(model.server.requests.at(-1)?.body)).toContain("Error: unavailable");
  });

  it("ends with the model's own stop reason (max_tokens) and tells it of a tool it was not offered", async () => {
    model = await startTestModel([
      {
        match: { lastUserTextIncludes: "go" },
        response: { content: [{ type: "tool_use", name: "web_search", input: { query: "x" } }] },
      },
      {
        match: { toolResultIncludes: "no tool is named" },
        response: { content: [{ type: "text", text: "cut sh" }], stop_reason: "max_tokens" },
      },
    ]);
    const result = await loop(model);
    expect(result.stopReason).toBe("max_tokens");
    expect(result.content).toEqual([{ type: "text", text: "cut sh", citations: null }]);
  });

  it("tells the text live, as the model streams it, and each server block once known, in the response's order", async () => {
    model = await startTestModel([
      {
        match: { lastUserTextIncludes: "go" },
        response: {
          content: [
            { type: "text", text: "Let me run that for you." },
            { type: "tool_use", name: "bash_code_execution", input: { command: "ls" } },
          ],
        },
      },
      {
        match: { hasToolResultFor: "bash_code_execution" },
        response: { content: [{ type: "text", text: "Done." }] },
      },
    ]);
    const events: LoopEvent[] = [];
    const result = await loop(model, (event) => {
      events.push(event);
    });
    const kinds = events.map((e) => (e.kind === "block" ? e.block.type : e.kind));
    const deltas = kinds.filter((k) => k === "text_delta").length;
    expect(deltas).toBeGreaterThan(2);
    expect(kinds.filter((k) => k !== "text_delta")).toEqual([
      "text_start",
      "block_stop",
      "server_tool_use",
      "bash_code_execution_tool_result",
      "text_start",
      "block_stop",
    ]);
    expect(result.content.map((b) => b.type)).toEqual([
      "text",
      "server_tool_use",
      "bash_code_execution_tool_result",
      "text",
    ]);
    expect(result.content[0]).toEqual({ type: "text", text: "Let me run that for you.", citations: null });
  });
});
