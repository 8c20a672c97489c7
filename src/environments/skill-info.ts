import type { Skill } from "../skill/skill.js";

/** What `engine.listSkills()` and `engine.getSkill(id)` return for a skill (SPEC §17). */
export interface SkillInfo {
  /** What the Skill tool takes: the dir name (`ns:sub`, `plugin:name`, `mcp__server__name`). */
  id: string;
  /** For display: the frontmatter title or alias, else the id. */
  name: string;
  description: string;
  /** The skill file (`SKILL.md` or an environment's `skill.md`); "" for skills not read from a file. */
  path: string;
  source: Skill["source"];
}

/** The {@link SkillInfo} of a discovered skill. Pure. */
export function skillInfoOf(skill: Skill): SkillInfo {
  return {
    id: skill.name,
    name: skill.title ?? skill.alias ?? skill.name,
    description: skill.description,
    path: skill.filePath,
    source: skill.source,
  };
}

/**
 * One line per skill the model may invoke (`disable-model-invocation` skills are left out), for a tool
 * description: `- {id}: {description}`, or `- {id} ({name}): {description}` when the display name differs, so
 * the id the Skill tool takes is always first. Lines joined with newlines; "" for none. Pure.
 */
export function skillsInfoForToolDescription(skills: readonly Skill[]): string {
  return skills
    .filter((skill) => !skill.disableModelInvocation)
    .map((skill) => {
      const info = skillInfoOf(skill);
      return `- ${info.name === info.id ? info.id : `${info.id} (${info.name})`}: ${info.description}`;
    })
    .join("\n");
}
