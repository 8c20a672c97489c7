import type { ModelContentBlock, ModelMessage, ModelUsage } from "../../agent/model-types.js";
import { assertNever } from "../../diagnostics.js";

/** Characters per token in the rough estimate used to size context (no tokenizer is shipped). */
export const ESTIMATE_CHARS_PER_TOKEN = 4;
/** Tokens counted for one image block (about what the API charges for a ~1,100 px square image). */
export const IMAGE_TOKEN_ESTIMATE = 1_600;
/** Share of the context window at which the conversation is compacted automatically (SPEC §8). */
export const AUTO_COMPACT_THRESHOLD = 0.8;

/**
 * Estimated tokens of `text`: its length in UTF-16 code units divided by {@link ESTIMATE_CHARS_PER_TOKEN},
 * rounded up (so any non-empty text counts at least 1). Pure.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / ESTIMATE_CHARS_PER_TOKEN);
}

function blockTokens(block: ModelContentBlock): number {
  switch (block.type) {
    case "text":
      return estimateTokens(block.text);
    case "image":
      return IMAGE_TOKEN_ESTIMATE;
    case "tool_use":
      return estimateTokens(block.name) + estimateTokens(JSON.stringify(block.input));
    case "tool_result":
      if (typeof block.content === "string") return estimateTokens(block.content);
      return block.content.reduce(
        (sum, part) =>
          sum + (part.type === "tool_reference" ? estimateTokens(part.tool_name) : blockTokens(part)),
        0,
      );
    default:
      return assertNever(block);
  }
}

/**
 * Estimated tokens of a message list: the sum of {@link estimateTokens} over every text, tool name, tool input
 * (as JSON) and tool result text, plus {@link IMAGE_TOKEN_ESTIMATE} per image. Roles and block framing are
 * not counted. Pure.
 */
export function messagesTokens(messages: readonly ModelMessage[]): number {
  let total = 0;
  for (const message of messages) {
    if (typeof message.content === "string") total += estimateTokens(message.content);
    else for (const block of message.content) total += blockTokens(block);
  }
  return total;
}

/**
 * The size of the prompt a response was computed from: `input_tokens` plus the cached parts, which the API
 * reports separately (with prompt caching `input_tokens` alone is only the uncached tail). Pure.
 */
export function promptTokens(usage: ModelUsage): number {
  return usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
}

/**
 * The estimated size of the next request's prompt: the last prompt (`usage`, see {@link promptTokens}), plus
 * the answer to it (`output_tokens`), plus {@link messagesTokens} of what `messages` holds after the last
 * assistant message (the tool results of a round, which can be far bigger than everything before). Pure.
 */
export function nextRequestTokens(usage: ModelUsage, messages: readonly ModelMessage[]): number {
  const lastAnswer = messages.findLastIndex((m) => m.role === "assistant");
  return promptTokens(usage) + usage.output_tokens + messagesTokens(messages.slice(lastAnswer + 1));
}

/** Input of {@link shouldAutoCompact}. */
export interface AutoCompactInput {
  /** Tokens of the last prompt sent (see {@link promptTokens}) or an estimate ({@link messagesTokens}). */
  inputTokens: number;
  /** The model's context window in tokens; undefined or not positive when unknown. */
  contextWindow: number | undefined;
  /** Share of the window that triggers compaction, in (0, 1]; default {@link AUTO_COMPACT_THRESHOLD}. */
  threshold?: number;
}

/**
 * True when the conversation fills at least `threshold` of the context window and should be compacted
 * before the next request. False when the window is unknown. Throws a RangeError for a threshold outside
 * (0, 1] (a programmer error). Pure.
 */
export function shouldAutoCompact(input: AutoCompactInput): boolean {
  const threshold = input.threshold ?? AUTO_COMPACT_THRESHOLD;
  if (!(threshold > 0 && threshold <= 1)) {
    throw new RangeError(`Auto-compact threshold must be in (0, 1], got ${threshold}`);
  }
  const window = input.contextWindow;
  if (window === undefined || !Number.isFinite(window) || window <= 0) return false;
  return input.inputTokens >= window * threshold;
}
