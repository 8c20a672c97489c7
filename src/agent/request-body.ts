import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
} from "@anthropic-ai/sdk/resources/messages";
import { requestEffort, resolveModel, supportsDeferredTools } from "../models.js";
import type { ModelContentBlock, ModelMessage, ModelRequest } from "./model-types.js";

const EPHEMERAL = { type: "ephemeral" } as const;

function withBreakpoint(block: ModelContentBlock): ContentBlockParam {
  return { ...block, cache_control: EPHEMERAL };
}

/**
 * The block of the first message that gets a breakpoint of its own: the one before its last, when it has more
 * than one. A conversation opens with context blocks (the skill listing, hook context) and then the task or
 * prompt; every fork started with the same listing shares that opening, so a breakpoint after it lets the next
 * fork read tools + system + listing from the cache instead of tools + system only. Pure.
 */
export function openingBreakpoint(messages: ModelRequest["messages"]): number | undefined {
  const first = messages[0];
  if (first === undefined || typeof first.content === "string" || first.content.length < 2) return undefined;
  return first.content.length - 2;
}

/**
 * A message without `tool_reference` blocks in its tool results, for a model that takes no deferred tools (its
 * tools are sent whole, so there is nothing to reveal). The same message comes back when it holds none. Pure.
 */
function withoutToolReferences(message: ModelMessage): ModelMessage {
  if (typeof message.content === "string") return message;
  if (
    !message.content.some(
      (b) =>
        b.type === "tool_result" &&
        typeof b.content !== "string" &&
        b.content.some((c) => c.type === "tool_reference"),
    )
  )
    return message;
  return {
    role: message.role,
    content: message.content.map((b) =>
      b.type === "tool_result" && typeof b.content !== "string"
        ? { ...b, content: b.content.filter((c) => c.type !== "tool_reference") }
        : b,
    ),
  };
}

/**
 * The Messages API body for a request (pure; the inputs are not mutated). Resolves the model alias, sends
 * `output_config.effort` as `requestEffort` says (the request's effort, else `medium`, on models that support
 * effort; nothing on others), and puts prompt-cache breakpoints (at most 4, the API's limit) on the system
 * prompt, the last tool, the end of the first message's opening context ({@link openingBreakpoint}) and the last
 * content block of the newest message. Empty `system`/`tools` are left out.
 */
export function buildRequestBody(request: ModelRequest): MessageCreateParamsStreaming {
  const deferred = supportsDeferredTools(request.model);
  const sent = deferred ? request.messages : request.messages.map(withoutToolReferences);
  const opening = openingBreakpoint(sent);
  const messages: MessageParam[] = sent.map((message, index): MessageParam => {
    if (index === 0 && opening !== undefined && typeof message.content !== "string") {
      const last = index === sent.length - 1;
      const blocks: ContentBlockParam[] = message.content.map((b, i, all) =>
        i === opening || (last && i === all.length - 1) ? withBreakpoint(b) : b,
      );
      return { role: message.role, content: blocks };
    }
    if (index !== sent.length - 1) return { role: message.role, content: message.content };
    if (typeof message.content === "string") {
      if (message.content === "") return { role: message.role, content: message.content };
      const block: TextBlockParam = { type: "text", text: message.content, cache_control: EPHEMERAL };
      return { role: message.role, content: [block] };
    }
    const blocks: ContentBlockParam[] = message.content.map((b, i, all) =>
      i === all.length - 1 ? withBreakpoint(b) : b,
    );
    return { role: message.role, content: blocks };
  });
  const tools: Tool[] = request.tools.map((tool, index, all) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { ...tool.input_schema, type: "object" },
    ...(deferred && tool.defer_loading === true ? { defer_loading: true } : {}),
    ...(index === all.length - 1 ? { cache_control: EPHEMERAL } : {}),
  }));
  const effort = requestEffort(request.model, request.effort);
  return {
    model: resolveModel(request.model),
    max_tokens: request.maxTokens,
    messages,
    stream: true,
    ...(request.system === ""
      ? {}
      : { system: [{ type: "text", text: request.system, cache_control: EPHEMERAL }] }),
    ...(tools.length === 0 ? {} : { tools }),
    ...(effort === undefined ? {} : { output_config: { effort } }),
  };
}
