import type { Skill } from "../skill/skill.js";
import { matchesSkillPattern } from "../skill-filter.js";
import type { AgentType } from "./agent-types.js";

/**
 * Which skills one agent may see and call: its agent type's name (`main` for the main agent) and, from its
 * type's file, the skill name globs it allows (`allowed-skills`; absent: all) and denies (`disallowed-skills`).
 * A skill's own `available-to` names the agent types that may see it. The listing, `SkillSearch` and the Skill
 * tool all read it; a typed `/name` (a person's choice) does not.
 */
export interface SkillScope {
  readonly agent: string;
  readonly allowed?: readonly string[];
  readonly disallowed?: readonly string[];
}

/** The name `available-to` uses for the main agent. */
export const MAIN_AGENT_TYPE = "main";

/** The main agent's scope: every skill but those whose `available-to` leaves `main` out. */
export const MAIN_SCOPE: SkillScope = { agent: MAIN_AGENT_TYPE };

/** The scope of an agent of type `agent`. Pure. */
export function scopeOfAgent(
  agent: Pick<AgentType, "name" | "allowedSkills" | "disallowedSkills">,
): SkillScope {
  return {
    agent: agent.name,
    ...(agent.allowedSkills === undefined ? {} : { allowed: agent.allowedSkills }),
    ...(agent.disallowedSkills === undefined ? {} : { disallowed: agent.disallowedSkills }),
  };
}

/**
 * True when an agent of `scope` may see and call `skill`: its `available-to` (when set) names the agent type, no
 * `disallowed-skills` glob matches its name or alias, and an `allowed-skills` list (when set) has one that does.
 * Deny beats allow. Pure.
 */
export function inScope(skill: Pick<Skill, "name" | "alias" | "availableTo">, scope: SkillScope): boolean {
  if (skill.availableTo !== undefined && !skill.availableTo.includes(scope.agent)) return false;
  const names = skill.alias === undefined ? [skill.name] : [skill.name, skill.alias];
  const matches = (patterns: readonly string[]) =>
    patterns.some((p) => names.some((n) => matchesSkillPattern(p, n)));
  if (scope.disallowed !== undefined && matches(scope.disallowed)) return false;
  return scope.allowed === undefined || matches(scope.allowed);
}

/** The skills of `skills` an agent of `scope` may see, order kept. Pure. */
export function skillsInScope<S extends Pick<Skill, "name" | "alias" | "availableTo">>(
  skills: readonly S[],
  scope: SkillScope,
): S[] {
  return skills.filter((s) => inScope(s, scope));
}

/** The Skill tool's answer when an agent calls a skill outside its scope. Pure. */
export function notAvailableText(name: string, scope: SkillScope): string {
  return `Skill "${name}" is not available to agent ${scope.agent}`;
}
