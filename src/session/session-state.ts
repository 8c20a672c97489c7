import type { AgentEvent } from "../agent/events.js";
import type { ModelMessage, ModelUsage } from "../agent/model-types.js";
import type { ListingFocus } from "../listing/focus.js";
import type { InvokedSkill } from "../skill-tool/invoked-skill.js";
import { createLoadedSkills, type LoadedSkills } from "../skill-tool/reinvocation.js";
import { createListingState, type ListingState, MAIN_AGENT } from "./listing-state.js";
import type { SessionDeps } from "./session-types.js";
import { createSkillContext, type SkillContext } from "./skill-context/skill-context.js";

/**
 * Everything a session changes while it runs, in one place: the conversation, the invocation log, what each
 * agent was listed, and the per-turn flags. The session's parts read and write it; nothing else holds state.
 */
export interface SessionState {
  /** The main agent's conversation (a resumed session starts from its history). */
  readonly messages: ModelMessage[];
  /** Every skill invocation of the session (compaction re-attaches them). */
  readonly invocations: InvokedSkill[];
  /** The expansions each conversation holds now (re-invocations, SPEC §14.3). */
  readonly loaded: LoadedSkills;
  /** Which inline expansions of the main agent are live, and which its requests send as a stub. */
  readonly skillContext: SkillContext;
  /** The names each agent was listed. */
  readonly listing: ListingState;
  /** Announcements of nested skills found since the last user message or request. */
  readonly pendingAnnouncements: string[];
  /** The main agent's response usages since the last compaction (auto-compaction reads the last). */
  readonly messagesUsage: ModelUsage[];
  /** Where the current `send`'s events go (a no-op between turns). */
  emit: (event: AgentEvent) => void;
  /** True once SessionStart hooks ran. */
  started: boolean;
  /** An auto-compaction failed in this user turn: no second try before the next one. */
  compactFailedThisTurn: boolean;
  /** The resumed conversation's restoration, started by the first turn or compaction. */
  restored: Promise<void> | undefined;
  /**
   * The main agent's first full listing (the names it listed or left out, the chars it counts against the
   * budget) and how it was packed. Kept after compaction too: forks open with it as long as it names only
   * visible skills, so their opening stays byte-identical all session.
   */
  mainFullListing: { text: string; names: string[]; chars: number; pack: string } | undefined;
  /** The session's first prompt (as the model gets it), set by the first user turn. */
  firstPrompt: string | undefined;
  /**
   * What the listing favours besides usage (issue #25 item 4), decided at the session's first listing that cuts, from
   * `firstPrompt` and kept all session, so every later listing (deltas, forks, after compaction) packs alike.
   */
  listingFocus: ListingFocus | undefined;
}

/** A new session's state: the resumed conversation's messages, invocations and loaded skills when there is one. */
export function createSessionState(deps: SessionDeps): SessionState {
  const listing = createListingState();
  // Catalog in the system prompt: those skills are sent; the listing deltas bring only what appears later.
  listing.markSent(MAIN_AGENT, deps.systemListingNames ?? []);
  const loaded = createLoadedSkills(deps.resumed?.loaded ?? []);
  return {
    messages: [...(deps.resumed?.history ?? [])],
    invocations: [...(deps.resumed?.invocations ?? [])],
    loaded,
    skillContext: createSkillContext({
      options: deps.skillContext ?? {},
      onExpired: (name) => loaded.forget(undefined, name),
    }),
    listing,
    pendingAnnouncements: [],
    messagesUsage: [],
    emit: () => {},
    started: false,
    compactFailedThisTurn: false,
    restored: undefined,
    mainFullListing: undefined,
    firstPrompt: undefined,
    listingFocus: undefined,
  };
}
