import type { AssistantMessage, ModelContentBlock, ModelMessage } from "../../agent/model-types.js";
import { assertNever } from "../../diagnostics.js";
import { REATTACH_INTRO } from "./reattach.js";

/** Most chars of one tool call's input (as JSON) shown to the summarizer; the middle of longer input is cut. */
export const SUMMARY_TOOL_INPUT_CHARS = 2_000;
/** Most chars of one tool result shown to the summarizer; the middle of longer output is cut. */
export const SUMMARY_TOOL_RESULT_CHARS = 6_000;
/** A sensible `maxTokens` for the summary request. */
export const SUMMARY_MAX_OUTPUT_TOKENS = 8_192;

/** System prompt of the summary request. */
export const SUMMARY_SYSTEM_PROMPT =
  "You summarize conversations between a user and an AI agent that works with tools and skills. Your summary " +
  "replaces the conversation in the agent's context, so the agent must be able to continue the work from it " +
  "alone. You have no tools: answer with the summary text only.";

/** The instruction that ends the summary request (the last block of its last user message). */
export const SUMMARY_INSTRUCTION = [
  "Stop here: do not continue the task and do not call tools. Write a summary of the whole conversation above " +
    "instead. After compaction the agent sees only your summary, the skills it invoked (re-attached " +
    "separately) and the skill listing, so keep everything needed to carry on without asking the user again.",
  "",
  "Use these sections:",
  "1. User goals: every request and instruction of the user, with constraints and preferences; quote the " +
    "user where the exact wording matters.",
  "2. Decisions: what was decided and why, including approaches that were tried and rejected.",
  "3. Files and commands: each file read, created or changed and what changed in it; important names, " +
    "snippets and commands.",
  "4. Errors: errors met, how they were fixed, and anything the user said about them.",
  "5. Open tasks: what remains to do, what was in progress when the conversation stopped, and the next step.",
  "",
  "Write in your own words and be concise; prefer concrete names, paths and values to general statements. " +
    "If an earlier summary appears above, fold what still matters from it into yours.",
].join("\n");

/** Stands in for the re-attached skills block of an earlier compaction (it is rebuilt after this one). */
export const ELIDED_REATTACHED_SKILLS =
  "[Skills invoked earlier were re-attached here; they are re-attached again after this compaction.]";
/** Stands in for a full skill listing (it is sent again after compaction). */
export const ELIDED_LISTING = "[Skill listing omitted here; it is sent again after compaction.]";
/** Stands in for a message that had no text (so roles still alternate). */
export const EMPTY_MESSAGE = "[No text in this message.]";

const REATTACHED_PREFIX = `<system-reminder>\n${REATTACH_INTRO}`;
/** The full listing's opening (SPEC §3). Deltas start differently and are kept: they are short. */
const LISTING_PREFIX = "<system-reminder>\nThe following skills are available for use with the Skill tool:";

/** A request that asks the model for a summary: no tools, one system prompt, valid alternating messages. */
export interface SummaryRequest {
  system: string;
  messages: ModelMessage[];
}

/** `text` with its middle replaced by a note when longer than `max` chars. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.ceil(max / 2);
  const tail = Math.floor(max / 2);
  return `${text.slice(0, head)}\n[… ${text.length - head - tail} chars left out …]\n${text.slice(-tail)}`;
}

function renderText(text: string): string {
  if (text.startsWith(REATTACHED_PREFIX)) return ELIDED_REATTACHED_SKILLS;
  if (text.startsWith(LISTING_PREFIX)) return ELIDED_LISTING;
  return text;
}

function renderBlock(block: ModelContentBlock, toolNames: Map<string, string>): string {
  switch (block.type) {
    case "text":
      return renderText(block.text);
    case "image":
      return "[image]";
    case "tool_use":
      toolNames.set(block.id, block.name);
      return `[Tool call ${block.name} (${block.id}) with input: ${clip(JSON.stringify(block.input), SUMMARY_TOOL_INPUT_CHARS)}]`;
    case "tool_result": {
      const output =
        typeof block.content === "string"
          ? block.content
          : block.content.map((part) => (part.type === "text" ? part.text : "[image]")).join("\n");
      const name = toolNames.get(block.tool_use_id) ?? "tool";
      const status = block.is_error === true ? " (error)" : "";
      return `[Result of ${name} (${block.tool_use_id})${status}]\n${clip(output, SUMMARY_TOOL_RESULT_CHARS)}`;
    }
    default:
      return assertNever(block);
  }
}

/**
 * The request that asks a model to summarize `messages` for compaction (SPEC §8). Each message keeps its
 * role; tool calls and results become readable text blocks (tool input cut to
 * {@link SUMMARY_TOOL_INPUT_CHARS}, results to {@link SUMMARY_TOOL_RESULT_CHARS}), images become `[image]`,
 * a previous compaction's re-attached skills and full listings are replaced by short placeholders, and
 * blank text blocks are dropped. Consecutive messages of one role are merged, a leading assistant message
 * gets a user message before it, and {@link SUMMARY_INSTRUCTION} ends the last user message, so the result is
 * valid for the Messages API without tools: it starts and ends with a user message and roles alternate. Pure.
 */
export function summaryRequest(messages: readonly ModelMessage[]): SummaryRequest {
  const toolNames = new Map<string, string>();
  const out: Array<{ role: ModelMessage["role"]; texts: string[] }> = [];
  for (const message of messages) {
    const blocks: ModelContentBlock[] =
      typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    const texts = blocks.map((b) => renderBlock(b, toolNames)).filter((t) => t.trim() !== "");
    const last = out.at(-1);
    if (last?.role === message.role) last.texts.push(...texts);
    else out.push({ role: message.role, texts });
  }
  if (out[0]?.role === "assistant") out.unshift({ role: "user", texts: [] });
  const last = out.at(-1);
  if (last?.role === "user") last.texts.push(SUMMARY_INSTRUCTION);
  else out.push({ role: "user", texts: [SUMMARY_INSTRUCTION] });
  return {
    system: SUMMARY_SYSTEM_PROMPT,
    messages: out.map(({ role, texts }) => ({
      role,
      content: (texts.length === 0 ? [EMPTY_MESSAGE] : texts).map((text) => ({ type: "text", text })),
    })),
  };
}

/** What a summary response gave: the summary, or why it cannot be used. */
export type SummaryOutcome =
  | { ok: true; summary: string; truncated: boolean }
  | { ok: false; reason: "empty" | "refusal"; message: string };

/**
 * Reads the summary out of the model's answer to {@link summaryRequest}: its text blocks joined and
 * trimmed. Empty text or a refusal is not a summary (compaction should then keep the old messages);
 * a summary cut by `max_tokens` is used but flagged `truncated`. Pure.
 */
export function summaryFromResponse(
  message: Pick<AssistantMessage, "content" | "stop_reason">,
): SummaryOutcome {
  if (message.stop_reason === "refusal") {
    return { ok: false, reason: "refusal", message: "The model refused to summarize the conversation." };
  }
  const summary = message.content
    .flatMap((b) => (b.type === "text" ? [b.text] : []))
    .join("\n")
    .trim();
  if (summary === "") {
    return { ok: false, reason: "empty", message: "The model returned an empty summary." };
  }
  return { ok: true, summary, truncated: message.stop_reason === "max_tokens" };
}
