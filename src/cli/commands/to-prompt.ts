import { resolve } from "node:path";
import type { FsOps } from "../../io/fs.js";
import { collectSkill, findSkillFiles } from "../../lint/collect.js";
import { availableSkillsXml, type PromptSkill } from "../../listing/available-skills.js";
import type { CliIo } from "../io.js";

/**
 * `skillwright to-prompt <dirs...>`: prints the `<available_skills>` block for the skills at the dirs (a skill
 * dir, or a dir holding skills), in the order given, as `skills-ref to-prompt` does. The name is the frontmatter
 * `name:` when set, else the dir name. Exit 1, with nothing printed, when a dir holds no loadable skill.
 */
export async function toPromptCommand(fs: FsOps, io: CliIo, dirs: readonly string[]): Promise<number> {
  if (dirs.length === 0) {
    io.stderr("usage: skillwright to-prompt <skill-dir...>\n");
    return 2;
  }
  const skills: PromptSkill[] = [];
  const problems: string[] = [];
  for (const dir of dirs) {
    const files = await findSkillFiles(fs, resolve(io.cwd, dir));
    if (files.length === 0) problems.push(`${dir}: no SKILL.md here or below`);
    for (const file of files) {
      const { skill, diagnostics } = await collectSkill(fs, file);
      if (skill === undefined) {
        problems.push(`${file}: ${diagnostics.map((d) => `${d.code}: ${d.message}`).join("; ")}`);
        continue;
      }
      skills.push({ name: skill.alias ?? skill.name, description: skill.description, location: file });
    }
  }
  if (problems.length > 0) {
    io.stderr(`${problems.join("\n")}\n`);
    return 1;
  }
  io.stdout(`${availableSkillsXml(skills)}\n`);
  return 0;
}
