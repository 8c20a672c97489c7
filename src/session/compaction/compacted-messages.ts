import type { ModelMessage, ModelTextBlock } from "../../agent/model-types.js";
import type { InvokedSkill } from "../../skill-tool/invoked-skill.js";
import { reattachInvokedSkills } from "./reattach.js";

/** The words that introduce the summary in the compacted conversation. */
export const SUMMARY_FRAMING =
  "This conversation was compacted to free context. The earlier messages were replaced by the summary " +
  "below, written at that point; they are no longer available. Continue the work from where it stopped, " +
  "without asking the user to repeat what the summary covers.";

/** The first block of the compacted conversation: {@link SUMMARY_FRAMING}, then the summary in tags. */
export function summaryBlockText(summary: string): string {
  return `${SUMMARY_FRAMING}\n\n<summary>\n${summary.trim()}\n</summary>`;
}

/** Input of {@link buildCompactedMessages}. */
export interface CompactedMessagesInput {
  /** The model-written summary (see `summaryFromResponse`). */
  summary: string;
  /** Every skill invocation of the session, in order (sub-agents' ones are ignored). */
  invocations: readonly InvokedSkill[];
  /** The full listing block, already built by the caller; "" when there is nothing to list. */
  listingText: string;
}

/**
 * The conversation after compaction (SPEC §8): ONE user message whose text blocks are, in order, the summary
 * framed by {@link summaryBlockText}, the re-attached skills block of `reattachInvokedSkills` (left out when
 * the main agent invoked none) and `listingText` exactly as given (left out when empty). The caller then
 * appends the next user prompt or continues the turn, and records every listed name as sent. Pure.
 */
export function buildCompactedMessages(input: CompactedMessagesInput): ModelMessage[] {
  const blocks: ModelTextBlock[] = [{ type: "text", text: summaryBlockText(input.summary) }];
  const skills = reattachInvokedSkills(input.invocations);
  if (skills !== undefined) blocks.push({ type: "text", text: skills });
  if (input.listingText.trim() !== "") blocks.push({ type: "text", text: input.listingText });
  return [{ role: "user", content: blocks }];
}
