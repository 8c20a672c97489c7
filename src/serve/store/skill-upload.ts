/** One file of a skill, its path relative to the skill's root dir (`SKILL.md`, `references/a.md`). */
export interface SkillFile {
  path: string;
  content: Uint8Array;
}

/** A checked upload, ready to become a skill version: the parsed head of its SKILL.md and its files. */
export interface SkillUpload {
  /** The kebab-case slug: the frontmatter `name`, else the enclosing dir. */
  name: string;
  description: string;
  /** The normalised frontmatter (SkillMeta as JSON). */
  head: Record<string, unknown>;
  files: SkillFile[];
}
