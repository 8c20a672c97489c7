import type { ModelClient } from "../../agent/model-client.js";
import type { ModelMessage } from "../../agent/model-types.js";
import type { RunHooks } from "../../hooks/runner.js";
import type { InvokedSkill } from "../../skill-tool/invoked-skill.js";
import { buildCompactedMessages } from "./compacted-messages.js";
import { SUMMARY_MAX_OUTPUT_TOKENS, summaryFromResponse, summaryRequest } from "./summary-request.js";

export interface CompactInput {
  client: ModelClient;
  model: string;
  messages: readonly ModelMessage[];
  invocations: readonly InvokedSkill[];
  /**
   * Builds the full listing as its blocks (see `CompactedMessagesInput.listing`; the caller resets the agent's
   * sent names first).
   */
  fullListing: () => Promise<string[]>;
  /** Blocks kept as they were after the listing (a fork's task; see `CompactedMessagesInput.kept`). */
  kept?: readonly string[];
  runHooks: RunHooks;
  trigger: "manual" | "auto";
  signal: AbortSignal;
  /** Set when a sub-agent compacts its conversation: its summary request carries its agent id (SPEC §7). */
  agentId?: string;
}

export type CompactOutcome =
  | { ok: true; summary: string; messages: ModelMessage[] }
  | { ok: false; message: string };

/**
 * Compaction (SPEC §8): PreCompact hooks, a separate model request for the summary, PostCompact hooks (with
 * `compact_summary`), then one user message with the full listing, the summary and the invoked skills
 * re-attached within their caps. A failed summary keeps
 * the old messages (`ok: false`). Never rejects.
 */
export async function compactConversation(input: CompactInput): Promise<CompactOutcome> {
  if (input.messages.length === 0) return { ok: false, message: "Nothing to compact yet." };
  const hooks = await input.runHooks("PreCompact", { trigger: input.trigger }, input.signal);
  if (hooks.blocked !== undefined)
    return { ok: false, message: `PreCompact hook blocked compaction: ${hooks.blocked.reason}` };
  const request = summaryRequest(input.messages);
  let summary: string;
  try {
    const answer = await input.client.stream(
      {
        model: input.model,
        system: request.system,
        messages: request.messages,
        tools: [],
        maxTokens: SUMMARY_MAX_OUTPUT_TOKENS,
      },
      { signal: input.signal, ...(input.agentId === undefined ? {} : { agentId: input.agentId }) },
    );
    const outcome = summaryFromResponse(answer);
    if (!outcome.ok) return { ok: false, message: outcome.message };
    summary = outcome.summary;
  } catch (error) {
    return {
      ok: false,
      message: `Compaction failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  await input.runHooks("PostCompact", { trigger: input.trigger, compact_summary: summary }, input.signal);
  const listing = await input.fullListing();
  return {
    ok: true,
    summary,
    messages: buildCompactedMessages({
      summary,
      invocations: input.invocations,
      listing,
      ...(input.kept === undefined ? {} : { kept: input.kept }),
    }),
  };
}
