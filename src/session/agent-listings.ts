import { MAIN_SCOPE, type SkillScope, skillsInScope } from "../agent-types/skill-scope.js";
import { type ListingPack, listingLimits } from "../listing/budget.js";
import { inActivationOrder } from "../listing/deltas.js";
import { visibilityCounts } from "../listing/visibility.js";
import { contextWindowFor } from "../models.js";
import { listingFocus } from "./listing-focus.js";
import { MAIN_AGENT } from "./listing-state.js";
import type { SessionState } from "./session-state.js";
import type { SessionDeps } from "./session-types.js";

/** The listing blocks each agent of a session gets. */
export interface AgentListings {
  /**
   * The next listing block for `agent` on `model`, of the skills its `scope` lets it see (default the main
   * agent's): the full listing first, then deltas ("" when none).
   */
  listingFor(agent: string, model: string, scope?: SkillScope): Promise<string>;
  /**
   * The opening listing blocks of an agent that has been sent none (a fork, or the main agent after
   * compaction): the main agent's first full listing as it was sent, then one delta block with what became
   * visible since (an activated conditional skill). Each so opens with the same bytes, which a prompt cache
   * serves; an agent packed otherwise (a model with another budget) gets a listing of its own.
   */
  openingListing(agentId: string, model: string, scope: SkillScope): Promise<string[]>;
}

/** The listings of a session's agents, over its state (sent names, the main agent's first full listing). */
export function createAgentListings(deps: SessionDeps, state: SessionState): AgentListings {
  const { context } = deps;
  const pack = (model: string): ListingPack => ({
    ...listingLimits({
      env: context.env,
      settings: deps.listingSettings,
      contextWindowTokens: contextWindowFor(model),
    }),
    searchable: context.skillSearch !== undefined,
  });
  const listingFor = async (agent: string, model: string, scope: SkillScope = MAIN_SCOPE) => {
    await deps.settled?.();
    const full = state.listing.sent(agent).size === 0;
    const inScope = skillsInScope(context.skills.visible(), scope);
    // A delta announces skills activated together in their activation order; a full listing keeps listing order.
    const skills = full ? inScope : inActivationOrder(inScope, context.skills.activationOrder());
    // Decided once, at the first listing that cuts, over the main agent's skills from the first prompt: the
    // same all session.
    const focus = () =>
      (state.listingFocus ??= listingFocus(
        scope === MAIN_SCOPE ? inScope : skillsInScope(context.skills.visible(), MAIN_SCOPE),
        state.firstPrompt ?? "",
      ));
    const sent = await state.listing.next(
      agent,
      skills,
      { ...pack(model), focus },
      () => deps.usage.load(),
      context.now(),
    );
    if (sent.text !== "") {
      const counts = visibilityCounts(sent.entries);
      state.emit({
        type: "listing_sent",
        ...(agent === MAIN_AGENT ? {} : { agentId: agent }),
        full: counts.full,
        cut: counts.cut,
        nameOnly: counts["name-only"],
        omitted: sent.omitted.length,
      });
    }
    if (agent === MAIN_AGENT && full && sent.text !== "" && state.mainFullListing === undefined) {
      const names = [...sent.entries.map((e) => e.name), ...sent.omitted];
      state.mainFullListing = {
        text: sent.text,
        names,
        chars: sent.chars,
        pack: JSON.stringify(pack(model)),
      };
    }
    return sent.text;
  };
  const openingListing = async (agentId: string, model: string, scope: SkillScope): Promise<string[]> => {
    const base = state.mainFullListing;
    // The main agent's first listing is reused when this agent may see every skill it named: what this
    // agent's scope adds comes as a delta; a scope that hides one of them gets a listing of its own.
    const visible = new Set(skillsInScope(context.skills.visible(), scope).map((s) => s.name));
    if (
      base === undefined ||
      base.pack !== JSON.stringify(pack(model)) ||
      base.names.some((n) => !visible.has(n))
    ) {
      const own = await listingFor(agentId, model, scope);
      return own === "" ? [] : [own];
    }
    state.listing.markSent(agentId, base.names, base.chars);
    const delta = await listingFor(agentId, model, scope);
    return delta === "" ? [base.text] : [base.text, delta];
  };
  return { listingFor, openingListing };
}
