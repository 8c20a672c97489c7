import type { Middleware } from "@anthropic-ai/sdk";
import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  RawMessageStreamEvent,
  TextBlockParam,
  Tool,
} from "@anthropic-ai/sdk/resources/messages";
import { type ModelEffort, resolveModel } from "./models.js";

/** The header that tells the API (and the scripted test server) which sub-agent sent a request (SPEC §7). */
export const AGENT_ID_HEADER = "x-skillwright-agent-id";

/** How many times the SDK retries a failed request (429, 5xx, 529, connection errors) by default. */
export const DEFAULT_MAX_RETRIES = 2;

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
export interface ModelToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: string | Array<ModelTextBlock | ModelImageBlock>;
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

/** Calls the model. One implementation wraps `@anthropic-ai/sdk`; tests point it at the scripted server. */
export interface ModelClient {
  /**
   * Streams one response and resolves with the complete message. Rejects with {@link ModelError} (never
   * with a half message): on an HTTP error after the SDK's retries, an abort, a stream that ends before
   * `message_stop`, or an `error` event inside the stream.
   */
  stream(request: ModelRequest, options: ModelStreamOptions): Promise<AssistantMessage>;
}

/** Every way a model call can fail; `ModelError.kind` is one of these. */
export const MODEL_ERROR_KINDS = [
  "auth",
  "rate_limit",
  "overloaded",
  "server",
  "bad_request",
  "prompt_too_long",
  "connection",
  "timeout",
  "aborted",
  "stream_cut",
  "protocol",
  "unknown",
] as const;
export type ModelErrorKind = (typeof MODEL_ERROR_KINDS)[number];

/** The one error class for every failed model call. `status` is the HTTP status when there was one. */
export class ModelError extends Error {
  override readonly name = "ModelError";
  readonly kind: ModelErrorKind;
  readonly status: number | undefined;
  readonly requestId: string | undefined;

  constructor(
    kind: ModelErrorKind,
    message: string,
    extra: { status?: number; requestId?: string; cause?: unknown } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.kind = kind;
    this.status = extra.status;
    this.requestId = extra.requestId;
  }

  /** True for failures worth trying again later (rate limits, overload, server and transport errors). */
  get retryable(): boolean {
    return ["rate_limit", "overloaded", "server", "connection", "timeout", "stream_cut"].includes(this.kind);
  }
}

/** Options of {@link createModelClient}; all optional, none read from the environment. */
export interface ModelClientOptions {
  /** Sent as the API key. The factory never reads `process.env`: the CLI passes `ANTHROPIC_API_KEY`. */
  apiKey?: string;
  /** A bearer token instead of an API key. */
  authToken?: string;
  /** Defaults to `https://api.anthropic.com` (not to `ANTHROPIC_BASE_URL`: the caller passes that). */
  baseURL?: string;
  /** Retries for 408/409/429/5xx/529 and connection errors, honouring `retry-after`. Default 2. */
  maxRetries?: number;
  /** Per-attempt timeout in ms (SDK default: 10 minutes). */
  timeoutMs?: number;
  defaultHeaders?: Record<string, string>;
}

const EPHEMERAL = { type: "ephemeral" } as const;

function withBreakpoint(block: ModelContentBlock): ContentBlockParam {
  return { ...block, cache_control: EPHEMERAL };
}

/**
 * The Messages API body for a request (pure; the inputs are not mutated). Resolves the model alias, sends
 * `effort` as `output_config.effort`, and puts prompt-cache breakpoints on the system prompt, the last tool
 * and the last content block of the newest message. Empty `system`/`tools` are left out.
 */
export function buildRequestBody(request: ModelRequest): MessageCreateParamsStreaming {
  const messages: MessageParam[] = request.messages.map((message, index): MessageParam => {
    if (index !== request.messages.length - 1) return { role: message.role, content: message.content };
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
    ...(index === all.length - 1 ? { cache_control: EPHEMERAL } : {}),
  }));
  return {
    model: resolveModel(request.model),
    max_tokens: request.maxTokens,
    messages,
    stream: true,
    ...(request.system === ""
      ? {}
      : { system: [{ type: "text", text: request.system, cache_control: EPHEMERAL }] }),
    ...(tools.length === 0 ? {} : { tools }),
    ...(request.effort === undefined ? {} : { output_config: { effort: request.effort } }),
  };
}

type BlockBuilder =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; json: string; preset: Record<string, unknown> };

function isStopReason(value: unknown): value is StopReason {
  return typeof value === "string" && (STOP_REASONS as readonly string[]).includes(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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

type Sdk = typeof import("@anthropic-ai/sdk");

/** Where requests go when no `baseURL` is given. */
export const DEFAULT_BASE_URL = "https://api.anthropic.com";

const KIND_BY_ERROR_TYPE: Readonly<Record<string, ModelErrorKind>> = {
  authentication_error: "auth",
  permission_error: "auth",
  billing_error: "auth",
  rate_limit_error: "rate_limit",
  overloaded_error: "overloaded",
  api_error: "server",
  timeout_error: "timeout",
  invalid_request_error: "bad_request",
  not_found_error: "bad_request",
  request_too_large: "bad_request",
};

const LABELS: Readonly<Record<ModelErrorKind, string>> = {
  auth: "Model API authentication failed",
  rate_limit: "Model API rate limit reached",
  overloaded: "Model API overloaded",
  server: "Model API server error",
  bad_request: "Model API rejected the request",
  prompt_too_long: "The prompt is too long for the model's context window",
  connection: "Could not reach the model API",
  timeout: "The model request timed out",
  aborted: "The model request was aborted",
  stream_cut: "The model stream was cut off before the message was complete",
  protocol: "The model API sent a malformed response",
  unknown: "The model request failed",
};

/** How deep `rootCause` follows `cause` chains. */
const MAX_CAUSE_DEPTH = 8;

const PROMPT_TOO_LONG = /prompt is too long|context window|too many tokens/i;

function kindForStatus(status: number | undefined): ModelErrorKind {
  if (status === undefined) return "unknown";
  if (status === 401 || status === 402 || status === 403) return "auth";
  if (status === 408) return "timeout";
  if (status === 429) return "rate_limit";
  if (status === 529) return "overloaded";
  if (status >= 500) return "server";
  if (status >= 400) return "bad_request";
  return "unknown";
}

/** The message of the innermost `cause` (e.g. `connect ECONNREFUSED …` under `fetch failed`). */
function rootCause(error: unknown): string {
  let current = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH; depth += 1) {
    if (!(current instanceof Error) || current.cause === undefined) break;
    current = current.cause;
  }
  return current instanceof Error ? current.message : String(current);
}

/**
 * Maps anything a model call threw to a {@link ModelError} with a message a user can act on: the HTTP status,
 * the API's own message and how many attempts were made. `streaming` says whether the response had started.
 */
export function toModelError(
  error: unknown,
  sdk: Pick<Sdk, "APIError" | "APIUserAbortError" | "APIConnectionError" | "APIConnectionTimeoutError">,
  context: { signal: AbortSignal; attempts: number; streaming: boolean; baseURL: string; events?: number },
): ModelError {
  if (error instanceof ModelError) return error;
  if (context.signal.aborted || error instanceof sdk.APIUserAbortError) {
    return new ModelError("aborted", `${LABELS.aborted}.`, { cause: error });
  }
  const tries = context.attempts > 1 ? ` (gave up after ${context.attempts} attempts)` : "";
  if (error instanceof sdk.APIConnectionTimeoutError) {
    return new ModelError("timeout", `${LABELS.timeout} (${context.baseURL})${tries}.`, { cause: error });
  }
  if (error instanceof sdk.APIConnectionError) {
    const cause = rootCause(error);
    return new ModelError("connection", `${LABELS.connection} at ${context.baseURL}: ${cause}${tries}.`, {
      cause: error,
    });
  }
  if (error instanceof sdk.APIError) {
    const detail = error.apiMessage ?? error.message;
    let kind =
      (error.type === null ? undefined : KIND_BY_ERROR_TYPE[error.type]) ?? kindForStatus(error.status);
    if (kind === "bad_request" && PROMPT_TOO_LONG.test(detail)) kind = "prompt_too_long";
    const where = error.status === undefined ? " during streaming" : ` (HTTP ${error.status})`;
    return new ModelError(kind, `${LABELS[kind]}${where}: ${detail}${tries}`, {
      ...(error.status === undefined ? {} : { status: error.status }),
      ...(error.requestID == null ? {} : { requestId: error.requestID }),
      cause: error,
    });
  }
  if (context.streaming) {
    const after = context.events === undefined ? "" : ` (connection lost after ${context.events} events)`;
    return new ModelError("stream_cut", `${LABELS.stream_cut}${after}: ${rootCause(error)}`, {
      cause: error,
    });
  }
  return new ModelError("unknown", `${LABELS.unknown}: ${rootCause(error)}`, { cause: error });
}

/**
 * A {@link ModelClient} over the real `@anthropic-ai/sdk`, loaded on the first call (so start-up stays fast)
 * and reused afterwards. Retries are the SDK's own (`maxRetries`, honouring `retry-after`); each one is
 * reported as a `retry` event. The `x-skillwright-agent-id` header is sent only when `agentId` is given.
 * Never reads `process.env`: without `apiKey` or `authToken`, `stream` rejects with an `auth` error.
 */
export function createModelClient(options: ModelClientOptions = {}): ModelClient {
  const baseURL = options.baseURL ?? DEFAULT_BASE_URL;
  let loaded: Promise<{ sdk: Sdk; client: InstanceType<Sdk["Anthropic"]> }> | undefined;
  const load = () => {
    loaded ??= import("@anthropic-ai/sdk").then((sdk) => ({
      sdk,
      client: new sdk.Anthropic({
        apiKey: options.apiKey ?? null,
        authToken: options.apiKey === undefined ? (options.authToken ?? null) : null,
        baseURL,
        maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
        ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
        ...(options.defaultHeaders === undefined ? {} : { defaultHeaders: options.defaultHeaders }),
      }),
    }));
    return loaded;
  };

  return {
    async stream(request, { signal, agentId, onEvent }) {
      if (options.apiKey === undefined && options.authToken === undefined) {
        throw new ModelError("auth", "No model credentials: set ANTHROPIC_API_KEY (or pass apiKey).");
      }
      const { sdk, client } = await load();
      let attempts = 0;
      let streaming = false;
      const progress = { events: 0 };
      let callbackError: unknown;
      const emit = (event: ModelStreamEvent): void => {
        try {
          onEvent?.(event);
        } catch (error) {
          callbackError = error;
          throw error;
        }
      };
      const countAttempts: Middleware = async (req, next) => {
        attempts += 1;
        if (attempts > 1) emit({ type: "retry", attempt: attempts - 1 });
        return next(req);
      };
      try {
        const events = await client.messages.create(buildRequestBody(request), {
          signal,
          middleware: [countAttempts],
          ...(agentId === undefined ? {} : { headers: { [AGENT_ID_HEADER]: agentId } }),
        });
        streaming = true;
        return await collectMessage(events, signal, emit, progress);
      } catch (error) {
        if (callbackError !== undefined && error === callbackError) throw error;
        throw toModelError(error, sdk, { signal, attempts, streaming, baseURL, events: progress.events });
      }
    },
  };
}
