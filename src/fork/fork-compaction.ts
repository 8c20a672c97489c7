import type { AgentEvent } from "../agent/events.js";
import type { ModelClient } from "../agent/model-client.js";
import type { ModelMessage, ModelUsage } from "../agent/model-types.js";
import { contextWindowFor } from "../agent/models.js";
import type { RunHooks } from "../hooks/runner.js";
import { compactConversation } from "../session/compaction/compact-conversation.js";
import { nextRequestTokens, shouldAutoCompact } from "../session/compaction/tokens.js";
import type { InvokedSkill } from "../skill-tool/invoked-skill.js";

/** What a session gives its forks so they can compact their own conversations (SPEC §7, §8). */
export interface ForkCompactionSource {
  /** Every skill invocation of the session so far; a fork re-attaches its own (those with its agent id). */
  invocations: () => readonly InvokedSkill[];
  /**
   * The full listing for `agentId` on `model` again, as the blocks that open a conversation: what was sent to
   * that agent is forgotten first, so later deltas follow from this listing.
   */
  fullListing: (agentId: string, model: string) => Promise<string[]>;
  /**
   * Called once `agentId`'s conversation was compacted: the skill expansions it held are history now, so a
   * skill it invokes again is sent in full (SPEC §14.3), as for the main agent.
   */
  compacted: (agentId: string) => void;
}

/** One fork's compaction: its conversation, what it keeps, and where its messages go. */
export interface ForkCompactionInput {
  source: ForkCompactionSource;
  client: ModelClient;
  runHooks: RunHooks;
  agentId: string;
  /** The fork's first message's blocks other than the listing (hook context, preloaded skills, the task). */
  kept: readonly string[];
  /** The fork's conversation as it is now (its tool results included). */
  messages: () => readonly ModelMessage[];
  /** Replaces the fork's conversation with the compacted one and records it in the fork's transcript. */
  replace: (messages: ModelMessage[]) => Promise<void>;
  emit: (event: AgentEvent) => void;
}

/**
 * The fork's invocations (agent id `agentId`) as `compactConversation` re-attaches them: without the agent
 * id, as the re-attachment takes only the conversation's own ones. Pure.
 */
export function forkInvocations(invocations: readonly InvokedSkill[], agentId: string): InvokedSkill[] {
  return invocations
    .filter((invocation) => invocation.agentId === agentId)
    .map(({ agentId: _agent, ...invocation }) => invocation);
}

/**
 * The `compact` step of a fork's agent loop (SPEC §8, as for the main agent): when the next request, estimated
 * from the last response's usage plus the tool results since (`nextRequestTokens`), would pass the
 * auto-compaction share of the model's window, the fork's conversation is summarized with the same summary
 * request and replaced by one message: the fork's full listing, its task (`kept`), the summary and the skills
 * the fork invoked, re-attached. The loop then goes on from it, so a long fork finishes instead of failing on
 * a request past the window. A failed summary leaves the conversation as it was, with one warning; the fork
 * does not try again. Resolves to the messages to go on from, else undefined; never rejects for a model error.
 */
export function createForkCompaction(
  input: ForkCompactionInput,
): (usage: ModelUsage, model: string, signal: AbortSignal) => Promise<ModelMessage[] | undefined> {
  let failed = false;
  return async (usage, model, signal) => {
    if (failed) return undefined;
    const messages = input.messages();
    const inputTokens = nextRequestTokens(usage, messages);
    if (!shouldAutoCompact({ inputTokens, contextWindow: contextWindowFor(model) })) return undefined;
    const outcome = await compactConversation({
      client: input.client,
      model,
      messages,
      invocations: forkInvocations(input.source.invocations(), input.agentId),
      fullListing: () => input.source.fullListing(input.agentId, model),
      kept: input.kept,
      runHooks: input.runHooks,
      trigger: "auto",
      signal,
      agentId: input.agentId,
    });
    if (!outcome.ok) {
      failed = true;
      input.emit({ type: "warning", agentId: input.agentId, message: outcome.message });
      return undefined;
    }
    input.source.compacted(input.agentId);
    await input.replace(outcome.messages);
    return outcome.messages;
  };
}
