import type { ModelMessage } from "../agent/model-types.js";
import type { SkillView } from "../discovery/skill-view.js";
import type { HookRegistry } from "../hooks/registry.js";
import { registerSkillHooks } from "../hooks/skill-hooks.js";
import type { InvokedSkill } from "../skill-tool/invoked-skill.js";
import { findSkill } from "../skill-tool/validate.js";

/** What a resumed session is restored from: its stored conversation and invoked-skill log. */
export interface ResumeState {
  history: readonly ModelMessage[];
  invocations: readonly InvokedSkill[];
  skills: SkillView;
  hooks: HookRegistry;
  /** Keys of the `once` hooks the transcript records as fired. */
  firedOnce: readonly string[];
}

/**
 * Restores a resumed session (SPEC §8–§10: a resume continues the same session): the skills its conversation
 * was told about stay listed and invocable (`SkillView.restore`), and the hooks of every skill invoked before
 * are registered again, as the invocation did (`registerSkillHooks`), with their `once` hooks that had fired
 * still fired. Returns the names already listed (to mark sent) and warnings for hooks that no longer parse.
 * Never rejects for bad content.
 */
export async function restoreResumed(state: ResumeState): Promise<{ listed: string[]; warnings: string[] }> {
  const listed = await state.skills.restore(state.history);
  const warnings: string[] = [];
  const visible = state.skills.visible();
  for (const name of new Set(state.invocations.map((i) => i.name))) {
    const skill = findSkill(visible, name);
    if (skill !== undefined) warnings.push(...registerSkillHooks(state.hooks, skill).warnings);
  }
  state.hooks.restoreFired(state.firedOnce);
  return { listed, warnings };
}
