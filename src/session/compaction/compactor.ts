import type { ModelMessage, ModelUsage } from "../../agent/model-types.js";
import { MAIN_SCOPE } from "../../agent-types/skill-scope.js";
import type { RunHooks } from "../../hooks/runner.js";
import { contextWindowFor } from "../../models.js";
import type { AgentListings } from "../agent-listings.js";
import { MAIN_AGENT } from "../listing-state.js";
import type { SessionState } from "../session-state.js";
import type { SessionDeps } from "../session-types.js";
import type { TranscriptEntry } from "../transcript-store.js";
import { type CompactOutcome, compactConversation } from "./compact-conversation.js";
import { messagesTokens, nextRequestTokens, shouldAutoCompact } from "./tokens.js";

/** A session's compaction, by hand (`/compact`) or automatic (SPEC §8). */
export interface Compactor {
  /** Compacts the main conversation now; a failure keeps the old messages and says why. Never rejects. */
  compact(trigger: "manual" | "auto", signal: AbortSignal): Promise<CompactOutcome>;
  /**
   * Compacts when the next request would pass the auto-compaction share of `model`'s window (estimated from
   * `usage`, the last response's, plus what was added since: see `nextRequestTokens`), after a turn or between
   * two requests of one (big tool results compact before the request they would overflow); resolves to the
   * messages to go on from, else undefined. One failed attempt per user turn (a warning), not a summary
   * request after every round of tool results.
   * `pendingTokens`: the estimated size of a message about to be added (a new user prompt), checked with the
   * conversation before it (by its messages' estimate when no response measured it yet); nothing is done when
   * there is no conversation yet.
   */
  autoCompact(
    usage: ModelUsage | undefined,
    model: string,
    signal: AbortSignal,
    pendingTokens?: number,
  ): Promise<ModelMessage[] | undefined>;
}

/** What a compactor works on: the session's state and parts, and the model the main agent runs on. */
export interface CompactorDeps {
  deps: SessionDeps;
  state: SessionState;
  model: string;
  listings: AgentListings;
  runHooks: RunHooks;
  restore: () => Promise<void>;
  append: (entries: TranscriptEntry[]) => Promise<void>;
  record: (...messages: ModelMessage[]) => Promise<void>;
}

/** Binds compaction to a session: the summary replaces the conversation, and the transcript records it. */
export function createCompactor(parts: CompactorDeps): Compactor {
  const { state } = parts;
  const compact = async (trigger: "manual" | "auto", signal: AbortSignal) => {
    await parts.restore();
    // An expansion that expired is not brought back by compaction (its skill's next call sends it again).
    const reattachable = state.invocations.filter(
      (i) => i.agentId !== undefined || !state.skillContext.expired(i.name),
    );
    const outcome = await compactConversation({
      client: parts.deps.context.client,
      model: parts.model,
      messages: state.messages,
      invocations: reattachable,
      fullListing: async () => {
        state.listing.reset(MAIN_AGENT);
        state.listing.markSent(MAIN_AGENT, parts.deps.systemListingNames ?? []);
        return parts.listings.openingListing(MAIN_AGENT, parts.model, MAIN_SCOPE);
      },
      runHooks: parts.runHooks,
      trigger,
      signal,
    });
    if (!outcome.ok) return outcome;
    state.messages.splice(0, state.messages.length);
    // The re-attached skills are history, not loaded instructions: the next call sends the full text again.
    state.loaded.resetMain();
    // The usage seen so far measured the old conversation; the next auto-compaction waits for a new one.
    state.messagesUsage.splice(0, state.messagesUsage.length);
    await parts.append([
      { type: "compaction", summary: outcome.summary, at: new Date(parts.deps.context.now()).toISOString() },
    ]);
    await parts.record(...outcome.messages);
    state.skillContext.compacted(state.messages, reattachable);
    return outcome;
  };
  const autoCompact = async (
    usage: ModelUsage | undefined,
    model: string,
    signal: AbortSignal,
    pendingTokens = 0,
  ) => {
    const window = contextWindowFor(model);
    if (window === undefined || state.compactFailedThisTurn || state.messages.length === 0) return undefined;
    if (usage === undefined && pendingTokens === 0) return undefined;
    const conversation =
      usage === undefined ? messagesTokens(state.messages) : nextRequestTokens(usage, state.messages);
    const inputTokens = conversation + pendingTokens;
    if (!shouldAutoCompact({ inputTokens, contextWindow: window })) return undefined;
    const outcome = await compact("auto", signal);
    if (outcome.ok) return [...state.messages];
    state.compactFailedThisTurn = true;
    state.emit({ type: "warning", message: outcome.message });
    return undefined;
  };
  return { compact, autoCompact };
}
