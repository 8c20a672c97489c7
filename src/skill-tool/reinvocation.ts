/** The agent id a {@link LoadedSkills} uses for the main agent's conversation. */
const MAIN_CONVERSATION = "";

/** What the model gets when a skill is invoked again with an expansion already in its conversation. */
export function alreadyLoadedText(name: string): string {
  return `Skill /${name} is already loaded above; instructions unchanged.`;
}

/** The line before the full expansion of a skill invoked again with new arguments or shell output. */
export function reinvocationNote(name: string): string {
  return `(Re-invocation of /${name} — the skill instructions were previously loaded; the arguments or dynamic output below are new.)`;
}

/**
 * The text to send for an inline invocation (SPEC §14.3), given the expansions of the same skill already in
 * the conversation: `text` itself the first time; {@link alreadyLoadedText} when `text` is byte-identical to
 * one of them; else {@link reinvocationNote}, a line break, then `text`. `name` is the name as called. Pure.
 */
export function invocationText(name: string, text: string, earlier: readonly string[]): string {
  if (earlier.length === 0) return text;
  if (earlier.includes(text)) return alreadyLoadedText(name);
  return `${reinvocationNote(name)}\n${text}`;
}

/** The skill expansions each conversation (the main agent's, each sub-agent's) already holds. */
export interface LoadedSkills {
  /**
   * The expansions of skill `skill` already sent in the conversation of `agentId` (undefined: main), oldest
   * first, as a copy that later `add` calls leave unchanged.
   */
  earlier(agentId: string | undefined, skill: string): readonly string[];
  /** Records that `text` (the full expansion) is now in that conversation. */
  add(agentId: string | undefined, skill: string, text: string): void;
  /** Forgets the main agent's conversation (after compaction nothing counts as already loaded). */
  resetMain(): void;
  /** Forgets the conversation of sub-agent `agentId` (a fork that compacted its own conversation). */
  resetAgent(agentId: string): void;
}

/**
 * An in-memory {@link LoadedSkills}, optionally seeded with the main conversation's expansions (a resumed
 * session: the invocations recorded since its last compaction). Keys are the skill's own name, so calling it
 * by its alias finds an expansion loaded by its name.
 */
export function createLoadedSkills(
  seed: readonly { name: string; text: string; agentId?: string }[] = [],
): LoadedSkills {
  const byConversation = new Map<string, Map<string, string[]>>();
  const add = (agentId: string | undefined, skill: string, text: string) => {
    const key = agentId ?? MAIN_CONVERSATION;
    let skills = byConversation.get(key);
    if (skills === undefined) {
      skills = new Map();
      byConversation.set(key, skills);
    }
    const texts = skills.get(skill);
    if (texts === undefined) skills.set(skill, [text]);
    else if (!texts.includes(text)) texts.push(text);
  };
  for (const invocation of seed) add(invocation.agentId, invocation.name, invocation.text);
  return {
    earlier: (agentId, skill) => [...(byConversation.get(agentId ?? MAIN_CONVERSATION)?.get(skill) ?? [])],
    add,
    resetMain: () => {
      byConversation.delete(MAIN_CONVERSATION);
    },
    resetAgent: (agentId) => {
      byConversation.delete(agentId);
    },
  };
}
