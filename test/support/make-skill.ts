import type { Skill } from "../../src/skill/skill.js";

/**
 * A skill for tests: `name` plus any fields to override; everything else has the defaults discovery gives a
 * plain user skill with a description. `loadBody` resolves to `body` (default "").
 */
export function makeSkill(fields: Partial<Skill> & { name: string; body?: string }): Skill {
  const { body = "", ...rest } = fields;
  const root = `/home/user/.claude/skills`;
  return {
    description: `Does ${fields.name}`,
    descriptionFromBody: false,
    argumentNames: [],
    allowedTools: [],
    disallowedTools: [],
    context: "inline",
    userInvocable: true,
    disableModelInvocation: false,
    shell: "bash",
    extra: {},
    source: "user",
    kind: "skill",
    filePath: `${root}/${fields.name}/SKILL.md`,
    baseDir: `${root}/${fields.name}`,
    root,
    loadBody: async () => body,
    ...rest,
  };
}
