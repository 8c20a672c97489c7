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
 * invocations only ever re-send it (see {@link invocationText}).
 */
export interface LoadedSkills {
  /** The first expansion of skill `skill` sent in the conversation of `agentId` (undefined: main), if any. */
  first(agentId: string | undefined, skill: string): string | undefined;
  /** Records that `text` (the full expansion) was asked for in that conversation; only the first one counts. */
  add(agentId: string | undefined, skill: string, text: string): void;
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
  const byConversation = new Map<string, Map<string, string>>();
  const add = (agentId: string | undefined, skill: string, text: string) => {
    const key = agentId ?? MAIN_CONVERSATION;
    let skills = byConversation.get(key);
    if (skills === undefined) {
      skills = new Map();
      byConversation.set(key, skills);
    }
    if (!skills.has(skill)) skills.set(skill, text);
  };
  for (const invocation of seed) add(invocation.agentId, invocation.name, invocation.text);
  return {
    first: (agentId, skill) => byConversation.get(agentId ?? MAIN_CONVERSATION)?.get(skill),
    add,
    resetMain: () => {
      byConversation.delete(MAIN_CONVERSATION);
    },
    resetAgent: (agentId) => {
      byConversation.delete(agentId);
    },
  };
}
