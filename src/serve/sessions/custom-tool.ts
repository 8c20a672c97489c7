import type { BetaManagedAgentsCustomTool } from "@anthropic-ai/sdk/resources/beta/agents/agents";
import type { AgentTool } from "../../agent/loop.js";
import type { ToolContent } from "../../tools/define-tool.js";
import type { SessionEvent } from "../store/sessions.js";
import type { OutEvent } from "./agent-event-map.js";

/** How a custom tool reaches the session: append events, and follow the events appended after now. */
export interface CustomToolIo {
  append(events: OutEvent[]): Promise<SessionEvent[]>;
  follow(signal: AbortSignal): Promise<AsyncIterable<SessionEvent>>;
}

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
 * One of the agent's custom tools (the application's own, seed 002): a call appends `agent.custom_tool_use`
 * and `session.status_idle` (`requires_action`), then waits (on any instance's writes) for the
 * `user.custom_tool_result` naming that event, appends `session.status_running` and returns its content.
 */
export function createCustomTool(spec: BetaManagedAgentsCustomTool, io: CustomToolIo): AgentTool {
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
      const stop = new AbortController();
      const onAbort = () => stop.abort();
      ctx.signal.addEventListener("abort", onAbort, { once: true });
      try {
        const events = await io.follow(stop.signal);
        const input = typeof rawInput === "object" && rawInput !== null ? { ...rawInput } : {};
        const [use] = await io.append([{ type: "agent.custom_tool_use", name: spec.name, input }]);
        if (use === undefined) throw new Error("the custom tool use was not stored");
        await io.append([
          {
            type: "session.status_idle",
            stop_reason: { type: "requires_action", event_ids: [use.id] },
            stop_details: null,
          },
        ]);
        for await (const event of events) {
          if (event.type !== "user.custom_tool_result" || event.custom_tool_use_id !== use.id) continue;
          await io.append([{ type: "session.status_running" }]);
          return {
            content: customResultContent(event.content),
            isError: event.is_error === true,
            touchedPaths: [],
          };
        }
        return {
          content: [{ type: "text", text: "interrupted before the tool's result arrived" }],
          isError: true,
          touchedPaths: [],
        };
      } finally {
        ctx.signal.removeEventListener("abort", onAbort);
        stop.abort();
      }
    },
  };
}
