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
  /**
   * The full listing, already built by the caller, as its blocks: the session's first full listing as it was
   * sent, then a delta of what became visible since (or one listing block of its own); empty blocks are left out.
   */
  listing: readonly string[];
  /**
   * Text blocks kept as they were, after the listing and before the summary: what a fork was asked to do (its
   * first message's hook context, preloaded skills and task), which the summary must not replace. Default none.
   */
  kept?: readonly string[];
}

/**
 * The conversation after compaction (SPEC §8): ONE user message whose text blocks are, in order, the `listing`
 * blocks exactly as given, the `kept` blocks, the summary framed by {@link summaryBlockText} and the re-attached skills block of
 * `reattachInvokedSkills` (left out when the main agent invoked none). The listing comes first, as at the start
 * of a session: when its first block is the session's first listing, byte for byte, the request after
 * compaction opens with the same tools + system + listing as the session's first request, which the prompt
 * cache still holds (bench/cache-reuse.js). The caller then appends the next user prompt or continues the
 * turn, and records every listed name as sent. Pure.
 */
export function buildCompactedMessages(input: CompactedMessagesInput): ModelMessage[] {
  const blocks: ModelTextBlock[] = [...input.listing, ...(input.kept ?? [])]
    .filter((text) => text.trim() !== "")
    .map((text) => ({ type: "text", text }));
  blocks.push({ type: "text", text: summaryBlockText(input.summary) });
  const skills = reattachInvokedSkills(input.invocations);
  if (skills !== undefined) blocks.push({ type: "text", text: skills });
  return [{ role: "user", content: blocks }];
}
