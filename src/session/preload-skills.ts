import type { SkillView } from "../discovery/skill-view.js";
import { expandSkill } from "../inline/expand-skill.js";
import { skillExpansionText } from "../inline/render.js";
import type { ShellOps } from "../io/shell.js";
import { inlineShellCheck, type PermissionPolicy } from "../permissions/policy.js";
import { disabledSkillText } from "../skill-filter.js";
import { findSkill } from "../skill-tool/validate.js";

/** What preloading needs from the session. */
export interface PreloadDeps {
  skills: SkillView;
  sessionId: string;
  projectDir: string;
  shell: ShellOps;
  /** The policy inline shell is checked against (the skill's `allowed-tools` granted); nobody is asked. */
  policy: PermissionPolicy;
  signal: AbortSignal;
}

/**
 * Expands the skills a custom agent preloads (Claude Code's agent `skills:` field: the full content goes into
 * the sub-agent's context at start, not only its listing entry), in the order named, each exactly as an
 * invocation with no arguments would give it (`Base directory for this skill: …` then the expanded body,
 * inline shell checked like the Bash tool with the skill's `allowed-tools` granted). A name that is unknown,
 * disabled or fails to expand is a warning instead. Never rejects.
 */
export async function preloadSkills(
  names: readonly string[],
  deps: PreloadDeps,
): Promise<{ texts: string[]; warnings: string[] }> {
  const texts: string[] = [];
  const warnings: string[] = [];
  for (const name of names) {
    const skill = findSkill(deps.skills.visible(), name);
    if (skill === undefined) {
      const off = deps.skills.disabled(name);
      warnings.push(
        off === undefined
          ? `agent preloads skill "${name}", which does not exist; skipped`
          : `agent preloads a disabled skill: ${disabledSkillText(off.skill.name, off.by)}`,
      );
      continue;
    }
    if (skill.literalBody === true) {
      try {
        texts.push(await skill.loadBody(deps.signal, ""));
      } catch (error) {
        warnings.push(
          `agent preloads skill "${name}": ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      continue;
    }
    const expanded = await expandSkill(skill, {
      args: "",
      sessionId: deps.sessionId,
      projectDir: deps.projectDir,
      shellOps: deps.shell,
      signal: deps.signal,
      checkCommand: inlineShellCheck(deps.policy, deps.policy.rules, skill.allowedTools),
    });
    if (!expanded.ok) {
      warnings.push(`agent preloads skill "${name}": ${expanded.message}`);
      continue;
    }
    texts.push(skillExpansionText(skill.kind, skill.baseDir, expanded.text));
  }
  return { texts, warnings };
}
