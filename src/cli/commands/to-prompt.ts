import { resolve } from "node:path";
import type { FsOps } from "../../io/fs.js";
import { findSkillFiles } from "../../lint/collect.js";
import { availableSkillsXml, type PromptSkill } from "../../listing/available-skills.js";
import { checkSpecRead } from "../../skill/spec-profile.js";
import { readSpecFile } from "../../skill/spec-read.js";
import type { CliIo } from "../io.js";
import { usageLines } from "../usage.js";

/**
 * `skillwright to-prompt <dirs...>`: prints the `<available_skills>` block for the skills at the dirs (a skill
 * dir, or a dir holding skills; `SKILL.md`, else `skill.md`), in the order given, as `skills-ref to-prompt` does:
 * the frontmatter's `name` and `description` as written (trimmed, XML-escaped, line breaks kept), never the
 * dir name in their place. A skill the reference tool refuses to read (see `checkSpecRead`: no frontmatter, a
 * BOM, YAML it refuses, a missing name or description) is left out and named on stderr, as is a dir with no
 * skill; the block holds the rest. Exit 1 when anything was left out.
 */
export async function toPromptCommand(fs: FsOps, io: CliIo, dirs: readonly string[]): Promise<number> {
  if (dirs.length === 0) {
    io.stderr(usageLines("to-prompt"));
    return 2;
  }
  const skills: PromptSkill[] = [];
  const problems: string[] = [];
  for (const dir of dirs) {
    const files = await findSkillFiles(fs, resolve(io.cwd, dir));
    if (files.length === 0) problems.push(`${dir}: no SKILL.md here or below`);
    for (const file of files) {
      const read = await readSpecFile(fs, file);
      const refused = "severity" in read ? [read] : checkSpecRead(read.data, file, read.parse);
      const name = "severity" in read ? undefined : read.data.name;
      const description = "severity" in read ? undefined : read.data.description;
      if (refused.length > 0 || typeof name !== "string" || typeof description !== "string") {
        const why = refused.map((d) => `${d.code}: ${d.message}`).join("; ");
        problems.push(`left out ${file}: ${why}`);
        continue;
      }
      skills.push({ name: name.trim(), description: description.trim(), location: file });
    }
  }
  if (problems.length > 0) io.stderr(`${problems.join("\n")}\n`);
  io.stdout(`${availableSkillsXml(skills)}\n`);
  return problems.length > 0 ? 1 : 0;
}
