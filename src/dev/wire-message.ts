import { randomBytes } from "node:crypto";
import type { ScriptResponse } from "./model-script.js";

/** Text is streamed in this many `text_delta` chunks (fewer for very short text)… */
export const TEXT_DELTA_PARTS = 3;
/** …each at most this many characters, so long text makes many deltas. Tool input JSON is split the same way. */
export const MAX_DELTA_CHARS = 64;
/** The token estimate used for usage and count_tokens: characters divided by this. */
export const CHARS_PER_TOKEN = 4;

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const ID_LENGTH = 22;

/** One server-sent event: its name and JSON data. */
export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

/** A content block of a wire message, as the Messages API sends it. */
export type WireBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

/** An assistant message in the Messages API's JSON shape. */
export interface WireMessage {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: WireBlock[];
  stop_reason: string;
  stop_sequence: null;
  usage: Record<string, number>;
}

/** A fresh API-style id: `prefix`, `01`, then 22 random base-62 characters. */
export function newId(prefix: string): string {
  const bytes = randomBytes(ID_LENGTH);
  return `${prefix}01${Array.from(bytes, (b) => ID_ALPHABET[b % ID_ALPHABET.length]).join("")}`;
}

/** The token estimate for `text`: characters / {@link CHARS_PER_TOKEN}, rounded up, at least 1. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / CHARS_PER_TOKEN));
}

/** Splits text into about {@link TEXT_DELTA_PARTS} chunks of at most {@link MAX_DELTA_CHARS} code points. */
export function splitChunks(text: string): string[] {
  const chars = Array.from(text);
  const size = Math.max(1, Math.min(MAX_DELTA_CHARS, Math.ceil(chars.length / TEXT_DELTA_PARTS)));
  const chunks: string[] = [];
  for (let i = 0; i < chars.length; i += size) chunks.push(chars.slice(i, i + size).join(""));
  return chunks;
}

/** The assistant message for a scripted response; ids are made for tool calls that have none. */
export function buildMessage(
  response: ScriptResponse,
  requestModel: string,
  inputTokens: number,
): WireMessage {
  const content = response.content.map(
    (b): WireBlock =>
      b.type === "text"
        ? { type: "text", text: b.text }
        : { type: "tool_use", id: b.id ?? newId("toolu_"), name: b.name, input: b.input },
  );
  const hasToolUse = content.some((b) => b.type === "tool_use");
  const outputText = content.map((b) => (b.type === "text" ? b.text : JSON.stringify(b.input))).join("");
  return {
    id: newId("msg_"),
    type: "message",
    role: "assistant",
    model: response.model ?? requestModel,
    content,
    stop_reason: response.stop_reason ?? (hasToolUse ? "tool_use" : "end_turn"),
    stop_sequence: null,
    usage: {
      input_tokens: response.usage?.input_tokens ?? inputTokens,
      output_tokens: response.usage?.output_tokens ?? estimateTokens(outputText),
      cache_creation_input_tokens: response.usage?.cache_creation_input_tokens ?? 0,
      cache_read_input_tokens: response.usage?.cache_read_input_tokens ?? 0,
    },
  };
}

/**
 * The SSE events the real API sends for a message, in order: `message_start`, `ping`, then per block
 * `content_block_start`, its deltas (`text_delta` / `input_json_delta`, the first JSON delta empty as the API
 * sends it) and `content_block_stop`, then `message_delta` and `message_stop`.
 */
export function messageEvents(message: WireMessage): SseEvent[] {
  const start = { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } };
  const events: SseEvent[] = [
    { event: "message_start", data: { type: "message_start", message: start } },
    { event: "ping", data: { type: "ping" } },
  ];
  message.content.forEach((block, index) => {
    const head = block.type === "text" ? { type: "text", text: "" } : { ...block, input: {} };
    events.push({
      event: "content_block_start",
      data: { type: "content_block_start", index, content_block: head },
    });
    const deltas =
      block.type === "text"
        ? splitChunks(block.text).map((text) => ({ type: "text_delta", text }))
        : ["", ...splitChunks(JSON.stringify(block.input))].map((partial_json) => ({
            type: "input_json_delta",
            partial_json,
          }));
    for (const delta of deltas) {
      events.push({ event: "content_block_delta", data: { type: "content_block_delta", index, delta } });
    }
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
  });
  events.push({
    event: "message_delta",
    data: {
      type: "message_delta",
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: message.usage.output_tokens },
    },
  });
  events.push({ event: "message_stop", data: { type: "message_stop" } });
  return events;
}

const ERROR_TYPE_BY_STATUS: Readonly<Record<number, string>> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

/** The Anthropic error type for an HTTP status (`api_error` for other 5xx, `invalid_request_error` for 4xx). */
export function errorTypeForStatus(status: number): string {
  return ERROR_TYPE_BY_STATUS[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
}

/** The wire text of one SSE event: `event:` and `data:` lines and a blank line. */
export function sseText(e: SseEvent): string {
  return `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}
