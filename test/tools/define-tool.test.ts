import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ABORTED_TEXT, defineTool, RESULT_LIMITS, toolError } from "../../src/tools/define-tool.js";
import { ctxFor, textOf } from "./helpers.js";

const Echo = z.strictObject({ text: z.string(), times: z.number().int().min(1).optional() });

function echoTool(extra: Partial<Parameters<typeof defineTool<typeof Echo>>[0]> = {}) {
  return defineTool({
    name: "Echo",
    description: "Echoes",
    input: Echo,
    readOnly: true,
    subject: (input) => input.text,
    execute: async (input) => ({ content: input.text.repeat(input.times ?? 1) }),
    ...extra,
  });
}

const never = () => new Promise<never>(() => {});

describe("defineTool", () => {
  it("exposes a JSON schema without $schema or safe-integer noise", () => {
    const tool = echoTool();
    expect(tool.inputSchema).toEqual({
      type: "object",
      properties: {
        text: { type: "string" },
        times: { type: "integer", minimum: 1 },
      },
      required: ["text"],
      additionalProperties: false,
    });
    expect(tool.name).toBe("Echo");
    expect(tool.readOnly).toBe(true);
  });

  it("throws for a bad name or a non-object schema (programmer errors)", () => {
    expect(() => echoTool({ name: "no spaces" })).toThrow(/Invalid tool name/);
    expect(() =>
      defineTool({
        name: "S",
        description: "",
        input: z.string(),
        readOnly: true,
        execute: async () => ({ content: "" }),
      }),
    ).toThrow(/object schema/);
  });

  it("runs and wraps string content in a text block", async () => {
    const result = await echoTool().run({ text: "hi", times: 2 }, ctxFor("/"));
    expect(result).toEqual({ content: [{ type: "text", text: "hihi" }], isError: false, touchedPaths: [] });
  });

  it.each([
    [{}, "Invalid input for Echo: text: Invalid input: expected string, received undefined"],
    [{ text: "a", times: 0 }, "Invalid input for Echo: times: Too small: expected number to be >=1"],
    ["nope", "Invalid input for Echo: (input): Invalid input: expected object, received string"],
    [{ text: "a", extra: 1 }, 'Invalid input for Echo: (input): Unrecognized key: "extra"'],
  ])("reports bad input %j as a model-readable error", async (input, message) => {
    const result = await echoTool().run(input, ctxFor("/"));
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(message);
  });

  it("gives the subject of valid input only", () => {
    const tool = echoTool();
    expect(tool.subject({ text: "git add ." })).toBe("git add .");
    expect(tool.subject({ bad: 1 })).toBeUndefined();
    expect(echoTool({ subject: undefined }).subject({ text: "x" })).toBeUndefined();
  });

  it("returns Aborted for an already-aborted signal without running", async () => {
    let ran = false;
    const tool = echoTool({
      execute: async () => {
        ran = true;
        return { content: "x" };
      },
    });
    const controller = new AbortController();
    controller.abort();
    const result = await tool.run({ text: "x" }, ctxFor("/", { signal: controller.signal }));
    expect(result).toEqual({
      content: [{ type: "text", text: ABORTED_TEXT }],
      isError: true,
      touchedPaths: [],
    });
    expect(ran).toBe(false);
  });

  it("returns Aborted when aborted while running, even if execute ignores the signal", async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const tool = echoTool({
      execute: (_input, ctx) => {
        seen = ctx.signal;
        return never();
      },
    });
    const pending = tool.run({ text: "x" }, ctxFor("/", { signal: controller.signal }));
    setTimeout(() => controller.abort(), 20);
    const result = await pending;
    expect(textOf(result)).toBe("Aborted");
    expect(result.isError).toBe(true);
    expect(seen?.aborted).toBe(true);
  });

  it("returns Aborted when execute finishes after an abort", async () => {
    const controller = new AbortController();
    const tool = echoTool({
      execute: async () => {
        controller.abort();
        return { content: "done" };
      },
    });
    expect(textOf(await tool.run({ text: "x" }, ctxFor("/", { signal: controller.signal })))).toBe("Aborted");
  });

  it("times out and aborts the execute signal", async () => {
    let seen: AbortSignal | undefined;
    const tool = echoTool({
      timeoutMs: 50,
      execute: (_input, ctx) => {
        seen = ctx.signal;
        return never();
      },
    });
    const result = await tool.run({ text: "x" }, ctxFor("/"));
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("Echo timed out after 0.05 seconds");
    expect(seen?.aborted).toBe(true);
  });

  it("turns thrown errors into error results", async () => {
    const tool = echoTool({
      execute: async () => {
        throw new Error("disk on fire");
      },
    });
    const result = await tool.run({ text: "x" }, ctxFor("/"));
    expect(result).toEqual({
      content: [{ type: "text", text: "Echo failed: disk on fire" }],
      isError: true,
      touchedPaths: [],
    });
  });

  it("passes tool errors, details and deduplicated touched paths through", async () => {
    const tool = echoTool({
      execute: async () => ({ ...toolError("nope", { why: 1 }), touchedPaths: ["/a", "/b", "/a"] }),
    });
    const result = await tool.run({ text: "x" }, ctxFor("/"));
    expect(result).toEqual({
      content: [{ type: "text", text: "nope" }],
      isError: true,
      details: { why: 1 },
      touchedPaths: ["/a", "/b"],
    });
  });

  it("caps over-long text at the head by default, leaving images alone", async () => {
    const lines = RESULT_LIMITS.maxLines + 100;
    const big = Array.from({ length: lines }, (_, i) => `l${i + 1}`).join("\n");
    const image = {
      type: "image" as const,
      source: { type: "base64" as const, media_type: "image/png" as const, data: "AA==" },
    };
    const tool = echoTool({ execute: async () => ({ content: [{ type: "text", text: big }, image] }) });
    const result = await tool.run({ text: "x" }, ctxFor("/"));
    const text = textOf(result);
    expect(text.startsWith("l1\n")).toBe(true);
    expect(text).toContain(
      `l${RESULT_LIMITS.maxLines}\n\n[Output truncated: kept the first ${RESULT_LIMITS.maxLines} of ${lines} lines`,
    );
    expect(result.content[1]).toEqual(image);
  });

  it("caps at the tail when asked", async () => {
    const big = `${"y".repeat(RESULT_LIMITS.maxBytes)}\nlast line`;
    const tool = echoTool({ truncate: "tail", execute: async () => ({ content: big }) });
    const text = textOf(await tool.run({ text: "x" }, ctxFor("/")));
    expect(text.startsWith("[Output truncated: kept the last 1 of 2 lines")).toBe(true);
    expect(text.endsWith("\n\nlast line")).toBe(true);
  });
});
