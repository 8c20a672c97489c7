import type { Container, Message, RawMessageStreamEvent, Usage } from "@anthropic-ai/sdk/resources/messages";
import type { ModelUsage, StopReason } from "../../agent/model-types.js";
import type { LoopEvent } from "./message-loop.js";
import type { ResponseBlock } from "./result-blocks.js";

/** The response's usage in the API's shape: the inner calls' sums, the fields serve has no figure for null. */
export function responseUsage(usage: ModelUsage): Usage {
  return {
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens,
    cache_creation_input_tokens: usage.cache_creation_input_tokens,
    cache_read_input_tokens: usage.cache_read_input_tokens,
    cache_creation: null,
    inference_geo: null,
    output_tokens_details: null,
    server_tool_use: null,
    service_tier: null,
    speed: null,
  };
}

/** What a response says besides its blocks. */
export interface MessageHead {
  id: string;
  model: string;
  container: Container | null;
}

/** The whole response of a non-streaming request. Pure. */
export function messageOf(
  head: MessageHead,
  content: readonly ResponseBlock[],
  stopReason: StopReason,
  usage: ModelUsage,
): Message {
  return {
    id: head.id,
    type: "message",
    role: "assistant",
    model: head.model,
    content: [...content],
    stop_reason: stopReason,
    stop_sequence: null,
    stop_details: null,
    container: head.container,
    diagnostics: null,
    usage: responseUsage(usage),
  };
}

/** The stream's first event: the message with no blocks yet and no usage. Pure. */
export function messageStartEvent(head: MessageHead): RawMessageStreamEvent {
  const zero = {
    input_tokens: 0,
    output_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  return { type: "message_start", message: messageOf(head, [], "end_turn", zero) };
}

/**
 * The events of the `index`th block as the API streams it: a text block starts empty and its text comes as one
 * `text_delta`; a `server_tool_use` starts with empty input and its input comes as one `input_json_delta`; a
 * result block starts whole. Each ends with `content_block_stop`. Pure.
 */
export function blockEvents(index: number, block: ResponseBlock): RawMessageStreamEvent[] {
  const stop: RawMessageStreamEvent = { type: "content_block_stop", index };
  switch (block.type) {
    case "text":
      return [
        { type: "content_block_start", index, content_block: { ...block, text: "" } },
        { type: "content_block_delta", index, delta: { type: "text_delta", text: block.text } },
        stop,
      ];
    case "server_tool_use":
      return [
        { type: "content_block_start", index, content_block: { ...block, input: {} } },
        {
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
        },
        stop,
      ];
    default:
      return [{ type: "content_block_start", index, content_block: block }, stop];
  }
}

/**
 * The stream events of one {@link LoopEvent}, the `index`th block being the one it concerns: a text block's
 * start (empty) and its deltas as the model sends them, its stop; a server block whole ({@link blockEvents}).
 * Pure.
 */
export function loopEventEvents(index: number, event: LoopEvent): RawMessageStreamEvent[] {
  switch (event.kind) {
    case "text_start":
      return [
        { type: "content_block_start", index, content_block: { type: "text", text: "", citations: null } },
      ];
    case "text_delta":
      return [{ type: "content_block_delta", index, delta: { type: "text_delta", text: event.text } }];
    case "block_stop":
      return [{ type: "content_block_stop", index }];
    case "block":
      return blockEvents(index, event.block);
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

/** Whether `event` ends the block it concerns (the next event is about the next block). Pure. */
export function endsBlock(event: LoopEvent): boolean {
  return event.kind === "block_stop" || event.kind === "block";
}

/** The stream's last events: why it stopped, the container, the usage summed; then `message_stop`. Pure. */
export function messageEndEvents(
  container: Container | null,
  stopReason: StopReason,
  usage: ModelUsage,
): RawMessageStreamEvent[] {
  return [
    {
      type: "message_delta",
      delta: { container, stop_reason: stopReason, stop_sequence: null, stop_details: null },
      usage: {
        input_tokens: usage.input_tokens,
        output_tokens: usage.output_tokens,
        cache_creation_input_tokens: usage.cache_creation_input_tokens,
        cache_read_input_tokens: usage.cache_read_input_tokens,
        output_tokens_details: null,
        server_tool_use: null,
      },
    },
    { type: "message_stop" },
  ];
}
