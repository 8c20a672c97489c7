import type { BetaManagedAgentsCustomTool } from "@anthropic-ai/sdk/resources/beta/agents/agents";
import type { AgentTool } from "../../agent/loop.js";
import type { ToolContent } from "../../tools/define-tool.js";
import type { UserWaits } from "./await-action.js";

/** The text and image blocks of a `user.custom_tool_result`'s content, as tool result content. Pure. */
export function customResultContent(content: unknown): ToolContent[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((block: unknown): ToolContent[] => {
    if (typeof block !== "object" || block === null) return [];
    const b: Record<string, unknown> = { ...block };
    return b.type === "text" && typeof b.text === "string" ? [{ type: "text", text: b.text }] : [];
  });
}

/**
 * One of the agent's custom tools (the application's own, SPEC §16): a call appends `agent.custom_tool_use`
 * and `session.status_idle` (`requires_action`), then waits (on any instance's writes) for the
 * `user.custom_tool_result` naming that event, appends `session.status_running` and returns its content.
 */
export function createCustomTool(spec: BetaManagedAgentsCustomTool, waits: UserWaits): AgentTool {
  const { type: _type, ...schema } = spec.input_schema;
  return {
    name: spec.name,
    description: spec.description,
    inputSchema: {
      type: "object",
      ...schema,
      properties: spec.input_schema.properties ?? {},
      required: spec.input_schema.required ?? [],
    },
    readOnly: false,
    subject: () => undefined,
    async run(rawInput, ctx) {
      const input = typeof rawInput === "object" && rawInput !== null ? { ...rawInput } : {};
      const answer = await waits.wait(
        {
          async blockOn() {
            const [use] = await waits.append([{ type: "agent.custom_tool_use", name: spec.name, input }]);
            if (use === undefined) throw new Error("the custom tool use was not stored");
            return use.id;
          },
          answers: (event, id) => event.type === "user.custom_tool_result" && event.custom_tool_use_id === id,
        },
        ctx.signal,
      );
      if (answer === undefined) {
        return {
          content: [{ type: "text", text: "interrupted before the tool's result arrived" }],
          isError: true,
          touchedPaths: [],
        };
      }
      return {
        content: customResultContent(answer.content),
        isError: answer.is_error === true,
        touchedPaths: [],
      };
    },
  };
}
