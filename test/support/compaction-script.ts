// The pieces of a scripted long agentic run that compaction tests share: a tool with big results, the model's
// turn calling it, and checks on the requests the scripted server received.
import type { AgentTool } from "../../src/agent/loop.js";
import type { ModelMessage } from "../../src/agent/model-types.js";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import type { RequestBody } from "./harness.js";

/** A real tool (not built with defineTool, so not truncated) named `fetch_page`, returning `size` chars. */
export function bigTool(size: number): AgentTool {
  return {
    name: "fetch_page",
    description: "Fetches a page",
    inputSchema: { type: "object", properties: { url: { type: "string" } } },
    readOnly: true,
    subject: () => undefined,
    run: async (input) => ({
      content: [{ type: "text", text: `${JSON.stringify(input)} ${"x".repeat(size)}` }],
      isError: false,
      touchedPaths: [],
    }),
  };
}

/** A scripted model turn calling {@link bigTool} once per id (the ids become the tool_use ids). */
export function fetchTurn(ids: string[], match?: ScriptTurnInput["match"]): ScriptTurnInput {
  return {
    ...(match === undefined ? {} : { match }),
    response: {
      content: ids.map((id) => ({
        type: "tool_use" as const,
        id,
        name: "fetch_page",
        input: { url: `https://example.com/${id}` },
      })),
    },
  };
}

/** Whether a request is a compaction summary request (its system prompt). */
export function isSummary(body: RequestBody): boolean {
  return JSON.stringify(body.system ?? "").includes("You summarize conversations");
}

/** Every tool_use has its tool_result in the next message, and every tool_result its tool_use before it. */
export function loopIntact(messages: readonly ModelMessage[]): boolean {
  const uses: string[] = [];
  for (const [i, message] of messages.entries()) {
    if (typeof message.content === "string") continue;
    for (const block of message.content) {
      if (block.type === "tool_result" && !uses.includes(block.tool_use_id)) return false;
      if (block.type !== "tool_use") continue;
      uses.push(block.id);
      const next = messages[i + 1]?.content;
      if (
        typeof next === "string" ||
        next?.some((b) => b.type === "tool_result" && b.tool_use_id === block.id) !== true
      )
        return false;
    }
  }
  return true;
}
