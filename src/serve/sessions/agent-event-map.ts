import type { AgentEvent } from "../../agent/events.js";
import { messageText } from "../../agent/loop.js";
import type { ToolResult } from "../../tools/define-tool.js";

/** A session event to append, before the store gives it its id and time. */
export type OutEvent = { type: string } & Record<string, unknown>;

/** The child thread a fork runs on, as the session's events name it. */
export interface ForkThread {
  id: string;
  /** The thread's `agent_name`: the forked skill's name. */
  name: string;
}

/**
 * What the mapping remembers between engine events of one turn: the event id of each open model request (by
 * agent) and of each tool use (by the engine's tool-call id), so `_end` and `_result` events point at them,
 * and the child thread of each fork (by agent id), whose events carry its `session_thread_id`.
 */
export interface EventMapState {
  readonly requestStarts: Map<string, string>;
  readonly toolUses: Map<string, string>;
  readonly threads: Map<string, ForkThread>;
  /** Names of the agent's custom tools: their calls are told as `agent.custom_tool_use` by the tool itself. */
  customTools: ReadonlySet<string>;
  /** The agent's MCP tools by tool name: their calls are `agent.mcp_tool_use` / `agent.mcp_tool_result`. */
  mcpTools?: ReadonlyMap<string, McpToolRef>;
}

/** An MCP tool a session offers: which server and tool it calls. */
export interface McpToolRef {
  server: string;
  tool: string;
}

const MAIN = "main";

/** Where the stored id of an event is kept for the events that point at it. */
export interface Remember {
  map: "requestStarts" | "toolUses";
  key: string;
}

/** The text blocks of a tool result, as the SDK's `agent.tool_result` content. Pure. */
export function resultContent(result: ToolResult): { type: "text"; text: string }[] {
  return result.content.flatMap((c) => (c.type === "text" ? [{ type: "text" as const, text: c.text }] : []));
}

/**
 * The session events an engine event becomes (SDK names and fields), and, for events whose id a later one
 * needs, where to remember the stored id. The main agent's and each fork's model requests (spans), messages
 * and tool calls are events; a fork's carry its thread's `session_thread_id` (an agent with no thread in
 * `state` shows only its spans). A fork's start and end are its thread's events (see fork-threads.ts), not
 * these. Pure apart from reading `state`.
 */
export function sessionEventsFor(
  event: AgentEvent,
  state: EventMapState,
): { event: OutEvent; remember?: Remember }[] {
  const thread = event.agentId === undefined ? undefined : state.threads.get(event.agentId);
  const tag = (out: OutEvent): OutEvent =>
    thread === undefined ? out : { ...out, session_thread_id: thread.id };
  return untagged(event, state, event.agentId === undefined || thread !== undefined).map((out) => ({
    ...out,
    event: tag(out.event),
  }));
}

function untagged(
  event: AgentEvent,
  state: EventMapState,
  shown: boolean,
): { event: OutEvent; remember?: Remember }[] {
  const agent = event.agentId ?? MAIN;
  const main = event.agentId === undefined;
  switch (event.type) {
    case "request_start":
      return [
        { event: { type: "span.model_request_start" }, remember: { map: "requestStarts", key: agent } },
      ];
    case "turn_end":
      return [
        {
          event: {
            type: "span.model_request_end",
            model_request_start_id: state.requestStarts.get(agent) ?? "",
            is_error: false,
            model_usage: {
              input_tokens: event.usage.input_tokens,
              output_tokens: event.usage.output_tokens,
              cache_read_input_tokens: event.usage.cache_read_input_tokens,
              cache_creation_input_tokens: event.usage.cache_creation_input_tokens,
            },
          },
        },
      ];
    case "assistant_message": {
      const text = messageText(event.message);
      return shown && text !== ""
        ? [{ event: { type: "agent.message", content: [{ type: "text", text }] } }]
        : [];
    }
    case "tool_start": {
      if (!shown || state.customTools.has(event.name)) return [];
      const mcp = state.mcpTools?.get(event.name);
      if (mcp !== undefined) {
        return [
          {
            event: {
              type: "agent.mcp_tool_use",
              name: mcp.tool,
              mcp_server_name: mcp.server,
              input: inputObject(event.input),
            },
            remember: { map: "toolUses", key: event.id },
          },
        ];
      }
      return [
        {
          event: { type: "agent.tool_use", name: event.name, input: inputObject(event.input) },
          remember: { map: "toolUses", key: event.id },
        },
      ];
    }
    case "tool_end": {
      const useId = state.toolUses.get(event.id);
      if (!shown || useId === undefined) return [];
      if (state.mcpTools?.has(event.name) === true) {
        return [
          {
            event: {
              type: "agent.mcp_tool_result",
              mcp_tool_use_id: useId,
              content: resultContent(event.result),
              is_error: event.result.isError,
            },
          },
        ];
      }
      return [
        {
          event: {
            type: "agent.tool_result",
            tool_use_id: useId,
            content: resultContent(event.result),
            is_error: event.result.isError,
          },
        },
      ];
    }
    case "error": {
      // The loop's only error: its model request failed. The request's span ends (as an error) with it.
      const startId = state.requestStarts.get(agent);
      state.requestStarts.delete(agent);
      const end: OutEvent[] = startId === undefined ? [] : [failedSpanEnd(startId)];
      const error = main ? [modelError(event.kind, event.message)] : [];
      return [...end, ...error].map((out) => ({ event: out }));
    }
    default:
      return [];
  }
}

/**
 * A `session.error` event (`unknown_error`) that ends the turn: `retry_status: exhausted` (the turn is dead,
 * the session goes back to idle with `retries_exhausted`, and the client may send a new prompt). Pure.
 */
export function sessionError(message: string): OutEvent {
  return {
    type: "session.error",
    error: { type: "unknown_error", message, retry_status: { type: "exhausted" } },
  };
}

/**
 * The `session.error` for a failed model request (the engine's `ModelError` kind): `model_rate_limited_error`,
 * `model_overloaded_error`, `model_request_failed_error` for any other failure of the request, `unknown_error`
 * for a kind the engine could not tell; each ends the turn (`retry_status: exhausted`, as
 * {@link sessionError}). Pure.
 */
export function modelError(kind: string, message: string): OutEvent {
  const type =
    kind === "rate_limit"
      ? "model_rate_limited_error"
      : kind === "overloaded"
        ? "model_overloaded_error"
        : kind === "unknown"
          ? "unknown_error"
          : "model_request_failed_error";
  return { type: "session.error", error: { type, message, retry_status: { type: "exhausted" } } };
}

/** A `session.error` for an MCP server that was refused or failed (`mcp_connection_failed_error`). Pure. */
export function mcpConnectionError(server: string, message: string): OutEvent {
  return {
    type: "session.error",
    error: {
      type: "mcp_connection_failed_error",
      mcp_server_name: server,
      message,
      retry_status: { type: "terminal" },
    },
  };
}

function inputObject(input: unknown): Record<string, unknown> {
  return typeof input === "object" && input !== null && !Array.isArray(input)
    ? { ...input }
    : { value: input };
}

/** The `span.model_request_end` that closes span `startId` as failed (no usage). Pure. */
export function failedSpanEnd(startId: string): OutEvent {
  return {
    type: "span.model_request_end",
    model_request_start_id: startId,
    is_error: true,
    model_usage: {
      input_tokens: 0,
      output_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    },
  };
}
