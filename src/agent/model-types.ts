import type { ModelEffort } from "../models.js";

/** The header that tells the API (and the scripted test server) which sub-agent sent a request (SPEC §7). */
export const AGENT_ID_HEADER = "x-skillwright-agent-id";

/** Why the model stopped, as the Messages API reports it. */
export const STOP_REASONS = [
  "end_turn",
  "max_tokens",
  "stop_sequence",
  "tool_use",
  "pause_turn",
  "refusal",
  "model_context_window_exceeded",
] as const;
export type StopReason = (typeof STOP_REASONS)[number];

/** A text block (requests and responses). */
export interface ModelTextBlock {
  type: "text";
  text: string;
}

/** A tool call made by the model; `input` is the parsed JSON object. */
export interface ModelToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** An inline image (e.g. in a tool result). */
export interface ModelImageBlock {
  type: "image";
  source: {
    type: "base64";
    media_type: "image/jpeg" | "image/png" | "image/gif" | "image/webp";
    data: string;
  };
}

/** The answer to a tool call, sent in the next user message; `is_error` marks a failure. */
/** A reference to a deferred tool inside a tool result: it reveals that tool's definition to the model. */
export interface ModelToolReferenceBlock {
  type: "tool_reference";
  tool_name: string;
}

export interface ModelToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: string | Array<ModelTextBlock | ModelImageBlock | ModelToolReferenceBlock>;
  is_error?: boolean;
}

/** A content block of a request message, in the Messages API's own shape (so transcripts replay as is). */
export type ModelContentBlock = ModelTextBlock | ModelToolUseBlock | ModelToolResultBlock | ModelImageBlock;

/** One message of the conversation sent to the model. */
export interface ModelMessage {
  role: "user" | "assistant";
  content: string | ModelContentBlock[];
}

/** A tool as offered to the model. `input_schema` is a JSON schema; its `type` is always sent as `object`. */
export interface ModelToolSpec {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  /** Sent only to models that support deferred tools (`supportsDeferredTools`); others get the full definition. */
  defer_loading?: boolean;
}

/** One model call. `model` may be an alias (`sonnet`); `inherit` must be resolved by the caller. */
export interface ModelRequest {
  model: string;
  system: string;
  messages: readonly ModelMessage[];
  tools: readonly ModelToolSpec[];
  maxTokens: number;
  effort?: ModelEffort;
}

/** Token counts of one response; cache counts are 0 when the API reports none. */
export interface ModelUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

/** The finished assistant message: only text and tool_use blocks, in stream order. */
export interface AssistantMessage {
  id: string;
  role: "assistant";
  model: string;
  content: Array<ModelTextBlock | ModelToolUseBlock>;
  stop_reason: StopReason;
  usage: ModelUsage;
}

/** Progress while a response streams. `retry` is sent before each SDK retry (`attempt` counts from 1). */
export type ModelStreamEvent =
  | { type: "text_delta"; text: string }
  | { type: "tool_use_start"; id: string; name: string }
  | { type: "retry"; attempt: number };

/** Per-call options: the abort signal (required), the sub-agent id and a progress callback. */
export interface ModelStreamOptions {
  signal: AbortSignal;
  /** Set for sub-agents only: sent as {@link AGENT_ID_HEADER}. */
  agentId?: string;
  onEvent?: (event: ModelStreamEvent) => void;
}
