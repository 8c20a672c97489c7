import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { isRecord } from "../is-record.js";
import { ModelError } from "./model-error.js";
import {
  type AssistantMessage,
  type ModelStreamEvent,
  type ModelUsage,
  STOP_REASONS,
  type StopReason,
} from "./model-types.js";

type BlockBuilder =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; json: string; preset: Record<string, unknown> };

function isStopReason(value: unknown): value is StopReason {
  return typeof value === "string" && (STOP_REASONS as readonly string[]).includes(value);
}

function parseToolInput(
  block: Extract<BlockBuilder, { type: "tool_use" }>,
): Record<string, unknown> | undefined {
  if (block.json.trim() === "") return block.preset;
  try {
    const value: unknown = JSON.parse(block.json);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Folds raw stream events into the final message, counting them in `progress`. Rejects with `stream_cut` when the events end before
 * `message_stop`, and with `protocol` for tool input that is not a JSON object (a tool call cut short by
 * `max_tokens` is dropped instead, since the stop reason already says the message is incomplete).
 */
export async function collectMessage(
  events: AsyncIterable<RawMessageStreamEvent>,
  signal: AbortSignal,
  emit: (event: ModelStreamEvent) => void,
  progress: { events: number } = { events: 0 },
): Promise<AssistantMessage> {
  const blocks = new Map<number, BlockBuilder>();
  let head: { id: string; model: string } | undefined;
  let stopReason: StopReason = "end_turn";
  const usage: ModelUsage = {
    input_tokens: 0,
    output_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
  };
  let stopped = false;
  for await (const event of events) {
    progress.events += 1;
    switch (event.type) {
      case "message_start": {
        head = { id: event.message.id, model: event.message.model };
        const u = event.message.usage;
        usage.input_tokens = u.input_tokens;
        usage.output_tokens = u.output_tokens;
        usage.cache_read_input_tokens = u.cache_read_input_tokens ?? 0;
        usage.cache_creation_input_tokens = u.cache_creation_input_tokens ?? 0;
        break;
      }
      case "content_block_start": {
        const b = event.content_block;
        if (b.type === "text") blocks.set(event.index, { type: "text", text: b.text });
        if (b.type === "tool_use") {
          const preset = isRecord(b.input) ? b.input : {};
          blocks.set(event.index, { type: "tool_use", id: b.id, name: b.name, json: "", preset });
          emit({ type: "tool_use_start", id: b.id, name: b.name });
        }
        break;
      }
      case "content_block_delta": {
        const block = blocks.get(event.index);
        if (event.delta.type === "text_delta" && block?.type === "text") {
          block.text += event.delta.text;
          emit({ type: "text_delta", text: event.delta.text });
        }
        if (event.delta.type === "input_json_delta" && block?.type === "tool_use") {
          block.json += event.delta.partial_json;
        }
        break;
      }
      case "message_delta": {
        if (isStopReason(event.delta.stop_reason)) stopReason = event.delta.stop_reason;
        usage.output_tokens = event.usage.output_tokens;
        if (event.usage.input_tokens != null) usage.input_tokens = event.usage.input_tokens;
        if (event.usage.cache_read_input_tokens != null) {
          usage.cache_read_input_tokens = event.usage.cache_read_input_tokens;
        }
        if (event.usage.cache_creation_input_tokens != null) {
          usage.cache_creation_input_tokens = event.usage.cache_creation_input_tokens;
        }
        break;
      }
      case "message_stop":
        stopped = true;
        break;
      default:
        break;
    }
  }
  if (signal.aborted) throw new ModelError("aborted", "The model request was aborted.");
  if (!stopped || head === undefined) {
    throw new ModelError(
      "stream_cut",
      `The model stream ended before message_stop (after ${progress.events} events); the response is incomplete.`,
    );
  }
  const content: AssistantMessage["content"] = [];
  for (const [, block] of [...blocks].sort(([a], [b]) => a - b)) {
    if (block.type === "text") {
      content.push({ type: "text", text: block.text });
      continue;
    }
    const input = parseToolInput(block);
    if (input !== undefined) content.push({ type: "tool_use", id: block.id, name: block.name, input });
    else if (stopReason !== "max_tokens") {
      throw new ModelError(
        "protocol",
        `The model sent tool call ${block.name} (${block.id}) with invalid JSON input.`,
      );
    }
  }
  return { id: head.id, role: "assistant", model: head.model, content, stop_reason: stopReason, usage };
}
