/** The agent id a {@link LoadedSkills} uses for the main agent's conversation. */
const MAIN_CONVERSATION = "";

/** What the model gets when a skill is invoked again with an expansion already in its conversation. */
export function alreadyLoadedText(name: string): string {
  return `Skill /${name} is already loaded above; instructions unchanged.`;
}

/** The text block sent before the re-sent body of a skill invoked again with new arguments or shell output. */
export function reinvocationNote(name: string): string {
  return `(Re-invocation of /${name} — the skill instructions were previously loaded; the arguments or dynamic output below are new.)`;
}

/**
 * What an inline invocation sends: `text`, one text block, preceded by `note`, a text block of its own, when
 * there is one.
 */
export interface InvocationTexts {
  note?: string;
  text: string;
}

/**
 * What to send for an inline invocation (SPEC §14.3), given the first expansion of the same skill already in
 * the conversation (`first`, undefined: none): `text` itself the first time; {@link alreadyLoadedText} when
 * `text` is byte-identical to `first`; else {@link reinvocationNote} as its own block, then `first` unchanged
 * (Claude Code re-sends the body of the first invocation, its arguments and shell output included). `name` is
 * the name as called. Pure.
 */
export function invocationText(name: string, text: string, first: string | undefined): InvocationTexts {
  if (first === undefined) return { text };
  if (first === text) return { text: alreadyLoadedText(name) };
  return { note: reinvocationNote(name), text: first };
}

/**
 * The first expansion of each skill each conversation (the main agent's, each sub-agent's) holds: later
 * invocations of the same skill only ever re-send it (see {@link invocationText}). A skill that changed since
 * (an edited file, a new version: another skill object, `loadedFrom`) starts again: its next expansion is a
 * first one.
 */
export interface LoadedSkills {
  /**
   * The first expansion of skill `skill` sent in the conversation of `agentId` (undefined: main) from the skill
   * as it is now (`loadedFrom`, the skill object), if any.
   */
  first(agentId: string | undefined, skill: string, loadedFrom: object): string | undefined;
  /**
   * Records that `text` (the full expansion of the skill object `loadedFrom`) was asked for in that
   * conversation; only the first one of that skill object counts.
   */
  add(agentId: string | undefined, skill: string, text: string, loadedFrom: object): void;
  /**
   * Forgets skill `skill` in the conversation of `agentId` (undefined: main): its expansion left what the model
   * is sent (it expired), so its next invocation is a first one again.
   */
  forget(agentId: string | undefined, skill: string): void;
  /** True when skill `skill` was loaded in the conversation of `agentId` (undefined: main), in any version. */
  has(agentId: string | undefined, skill: string): boolean;
  /** Forgets the main agent's conversation (after compaction nothing counts as already loaded). */
  resetMain(): void;
  /** Forgets the conversation of sub-agent `agentId` (a fork that compacted its own conversation). */
  resetAgent(agentId: string): void;
}

/**
 * An in-memory {@link LoadedSkills}, optionally seeded with the main conversation's expansions, oldest first (a
 * resumed session: the invocations recorded since its last compaction). Keys are the skill's own name, so calling it
 * by its alias finds an expansion loaded by its name.
 */
export function createLoadedSkills(
  seed: readonly { name: string; text: string; agentId?: string }[] = [],
): LoadedSkills {
  // Per conversation, per skill name: the first expansion and the skill object it came from (undefined for a
  // resumed session's seed, which counts as the skill as it is now).
  type First = { text: string; from: object | undefined };
  const byConversation = new Map<string, Map<string, First>>();
  const conversation = (agentId: string | undefined): Map<string, First> => {
    const key = agentId ?? MAIN_CONVERSATION;
    let skills = byConversation.get(key);
    if (skills === undefined) {
      skills = new Map();
      byConversation.set(key, skills);
    }
    return skills;
  };
  const current = (agentId: string | undefined, skill: string, loadedFrom: object) => {
    const entry = byConversation.get(agentId ?? MAIN_CONVERSATION)?.get(skill);
    return entry !== undefined && (entry.from === undefined || entry.from === loadedFrom) ? entry : undefined;
  };
  for (const { agentId, name, text } of seed) {
    const skills = conversation(agentId);
    if (!skills.has(name)) skills.set(name, { text, from: undefined });
  }
  return {
    first: (agentId, skill, loadedFrom) => current(agentId, skill, loadedFrom)?.text,
    has: (agentId, skill) => byConversation.get(agentId ?? MAIN_CONVERSATION)?.has(skill) === true,
    add(agentId, skill, text, loadedFrom) {
      const entry = current(agentId, skill, loadedFrom);
      // A resumed session's expansion belongs to the skill as first invoked after the resume.
      if (entry !== undefined) entry.from ??= loadedFrom;
      else conversation(agentId).set(skill, { text, from: loadedFrom });
    },
    forget(agentId, skill) {
      byConversation.get(agentId ?? MAIN_CONVERSATION)?.delete(skill);
    },
    resetMain: () => {
      byConversation.delete(MAIN_CONVERSATION);
    },
    resetAgent: (agentId) => {
      byConversation.delete(agentId);
    },
  };
}
