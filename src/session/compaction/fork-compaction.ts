import type { AgentEvent } from "../../agent/events.js";
import type { ModelMessage, ModelUsage } from "../../agent/model-types.js";
import type { SkillScope } from "../../agent-types/skill-scope.js";
import type { ForkConversation } from "../../fork/fork.js";
import type { RunHooks } from "../../hooks/runner.js";
import { contextWindowFor } from "../../models.js";
import type { InvokedSkill } from "../../skill-tool/invoked-skill.js";
import { compactConversation } from "./compact-conversation.js";
import { nextRequestTokens, shouldAutoCompact } from "./tokens.js";

/** What a session gives its forks so they can compact their own conversations (SPEC §7, §8). */
export interface ForkCompactionDeps {
  /** Every skill invocation of the session so far; a fork re-attaches its own (those with its agent id). */
  invocations: () => readonly InvokedSkill[];
  /**
   * The full listing for `agentId` on `model` again, as the blocks that open a conversation: what was sent to
   * that agent is forgotten first, so later deltas follow from this listing.
   */
  fullListing: (agentId: string, model: string, scope: SkillScope) => Promise<string[]>;
  /**
   * Called once `agentId`'s conversation was compacted: the skill expansions it held are history now, so a
   * skill it invokes again is sent in full (SPEC §14.3), as for the main agent.
   */
  compacted: (agentId: string) => void;
  runHooks: RunHooks;
  emit: (event: AgentEvent) => void;
}

/** The compact step of a fork's agent loop (see `AgentRunOptions.compact`). */
export type ForkCompactStep = (
  usage: ModelUsage,
  model: string,
  signal: AbortSignal,
) => Promise<ModelMessage[] | undefined>;

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
 * Builds each fork's compact step (SPEC §8, as for the main agent): when the next request, estimated from the
 * last response's usage plus the tool results since (`nextRequestTokens`), would pass the auto-compaction
 * share of the model's window, the fork's conversation is summarized with the same summary request (with the
 * fork's agent id) and replaced by one message: the fork's full listing, its task (`kept`), the summary and
 * the skills the fork invoked, re-attached. The loop then goes on from it, so a long fork finishes instead of
 * failing on a request past the window. A failed summary leaves the conversation as it was, with one warning;
 * that fork does not try again. The step resolves to the messages to go on from, else undefined.
 */
export function createForkCompaction(deps: ForkCompactionDeps): (fork: ForkConversation) => ForkCompactStep {
  return (fork) => {
    let failed = false;
    return async (usage, model, signal) => {
      if (failed) return undefined;
      const messages = fork.messages();
      const inputTokens = nextRequestTokens(usage, messages);
      if (!shouldAutoCompact({ inputTokens, contextWindow: contextWindowFor(model) })) return undefined;
      const outcome = await compactConversation({
        client: fork.client,
        model,
        messages,
        invocations: forkInvocations(deps.invocations(), fork.agentId),
        fullListing: () => deps.fullListing(fork.agentId, model, fork.scope),
        kept: fork.kept,
        runHooks: deps.runHooks,
        trigger: "auto",
        signal,
        agentId: fork.agentId,
      });
      if (!outcome.ok) {
        failed = true;
        deps.emit({ type: "warning", agentId: fork.agentId, message: outcome.message });
        return undefined;
      }
      deps.compacted(fork.agentId);
      await fork.replace(outcome.messages);
      return outcome.messages;
    };
  };
}
