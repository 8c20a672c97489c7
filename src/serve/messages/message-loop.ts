import type { ModelClient } from "../../agent/model-client.js";
import type {
  ModelMessage,
  ModelToolResultBlock,
  ModelToolSpec,
  ModelUsage,
  StopReason,
} from "../../agent/model-types.js";
import { BASH_TOOL, EDITOR_TOOL } from "./code-execution-tools.js";
import { type ResponseBlock, upstreamResult } from "./result-blocks.js";
import { runToolCall, type ToolCallContext } from "./run-tool-call.js";

/**
 * The most upstream model calls one request makes. Past it the response stops with `pause_turn`, as the API's
 * does when its server tool loop runs long: the client sends the conversation back to go on.
 */
export const MAX_MODEL_CALLS = 20;

/** What one request's loop runs with. */
export interface MessageLoopInput {
  client: ModelClient;
  model: string;
  system: string;
  maxTokens: number;
  messages: readonly ModelMessage[];
  /** The code execution tools offered upstream (none: one plain call). */
  tools: readonly ModelToolSpec[];
  /** Where the tools' calls run (absent without code execution). */
  toolsContext: Omit<ToolCallContext, "signal"> | undefined;
  signal: AbortSignal;
  /** Hears the response as it is made, in order (a stream sends it on): see {@link LoopEvent}. */
  onEvent?: (event: LoopEvent) => void | Promise<void>;
  /** Called before each upstream call after the first: renews the container's hold while the loop runs. */
  keepAlive?: () => Promise<void>;
}

/**
 * The response as it is made: the model's text live (`text_start`, each `text_delta` as the upstream model
 * sends it, `block_stop` when that text block ends), and each server block whole once it is known (`block`:
 * a `server_tool_use`, then its result once the call ran). Text comes before the server blocks of the same
 * upstream reply, in the response's `content` too.
 */
export type LoopEvent =
  | { kind: "text_start" }
  | { kind: "text_delta"; text: string }
  | { kind: "block_stop" }
  | { kind: "block"; block: ResponseBlock };

/** What the loop ends with: the response's blocks, why it stopped, the upstream model and the summed usage. */
export interface MessageLoopResult {
  content: ResponseBlock[];
  stopReason: StopReason;
  model: string;
  usage: ModelUsage;
}

/** `a` + `b`, count by count. Pure. */
export function addUsage(a: ModelUsage, b: ModelUsage): ModelUsage {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    cache_read_input_tokens: a.cache_read_input_tokens + b.cache_read_input_tokens,
    cache_creation_input_tokens: a.cache_creation_input_tokens + b.cache_creation_input_tokens,
  };
}

const NO_USAGE: ModelUsage = {
  input_tokens: 0,
  output_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
};

/**
 * Runs one Messages request with code execution: calls the upstream model (which is offered client tools, never
 * the server tool), runs each of its tool calls in the container, sends the results back, and goes on until the
 * model stops for any reason but `tool_use` (its `end_turn`, `max_tokens`, `pause_turn`, … is the response's)
 * or {@link MAX_MODEL_CALLS} calls were made (`pause_turn`). Each call of a tool becomes a `server_tool_use`
 * block (same id, name and input) followed by its result block. Rejects with the model client's `ModelError`.
 */
export async function runMessageLoop(input: MessageLoopInput): Promise<MessageLoopResult> {
  const messages: ModelMessage[] = [...input.messages];
  const content: ResponseBlock[] = [];
  let usage = NO_USAGE;
  let model = input.model;
  const tell = async (event: LoopEvent) => input.onEvent?.(event);
  for (let call = 0; call < MAX_MODEL_CALLS; call++) {
    if (call > 0) await input.keepAlive?.();
    // The upstream text goes on as it streams; the client's callback is synchronous, so the writes are chained.
    let told: Promise<void> = Promise.resolve();
    let open = false;
    const later = (event: LoopEvent) => {
      told = told.then(() => tell(event));
    };
    const reply = await input.client.stream(
      {
        model: input.model,
        system: input.system,
        messages,
        tools: input.tools,
        maxTokens: input.maxTokens,
      },
      {
        signal: input.signal,
        onEvent: (event) => {
          if (event.type === "text_delta" && event.text !== "") {
            if (!open) later({ kind: "text_start" });
            open = true;
            later({ kind: "text_delta", text: event.text });
          } else if (event.type === "tool_use_start" && open) {
            open = false;
            later({ kind: "block_stop" });
          }
        },
      },
    );
    if (open) later({ kind: "block_stop" });
    await told;
    usage = addUsage(usage, reply.usage);
    model = reply.model;
    for (const block of reply.content) {
      if (block.type === "text" && block.text !== "")
        content.push({ type: "text", text: block.text, citations: null });
    }
    const emit = async (block: ResponseBlock) => {
      content.push(block);
      await tell({ kind: "block", block });
    };
    const results: ModelToolResultBlock[] = [];
    for (const block of reply.content) {
      if (block.type === "text") continue;
      const name = block.name === BASH_TOOL || block.name === EDITOR_TOOL ? block.name : undefined;
      const context = input.toolsContext;
      if (name === undefined || context === undefined) {
        // Not a call of the tools offered (the API refuses those upstream): the model is told, the client sees none.
        const why = `no tool is named ${JSON.stringify(block.name)}; the tools are ${BASH_TOOL} and ${EDITOR_TOOL}`;
        results.push({ type: "tool_result", tool_use_id: block.id, content: why, is_error: true });
        continue;
      }
      await emit({
        type: "server_tool_use",
        id: block.id,
        name,
        input: block.input,
        caller: { type: "direct" },
      });
      const result = await runToolCall(block, { ...context, signal: input.signal });
      await emit(result);
      const { text, isError } = upstreamResult(result.content);
      results.push({ type: "tool_result", tool_use_id: block.id, content: text, is_error: isError });
    }
    if (reply.stop_reason !== "tool_use" || results.length === 0) {
      return { content, stopReason: reply.stop_reason, model, usage };
    }
    messages.push({ role: "assistant", content: reply.content }, { role: "user", content: results });
  }
  return { content, stopReason: "pause_turn", model, usage };
}
