import type { Diagnostic } from "../diagnostics.js";
import type { FsOps } from "../io/fs.js";
import type { Skill } from "../skill/skill.js";
import { createMemorySource, type MemorySource } from "../sources/memory-source.js";

/**
 * A skill defined in code. `files` are its references; they are also written under the skill's private dir the
 * first time it is used (scripts a skill runs need a disk). A skill without files writes nothing.
 */
export interface BundledSkillDefinition {
  name: string;
  description: string;
  /** The instructions (the body of a SKILL.md). */
  body: string;
  /** Other frontmatter fields, as they would be written in SKILL.md (`allowed-tools`, `context`, …). */
  frontmatter?: Record<string, unknown>;
  /** Reference files by relative path, e.g. `{ "reference/api.md": "…" }`. */
  files?: Record<string, string>;
}

/** The skills registered from code (`engine.registerBundledSkill`): a memory source whose skills are bundled. */
export interface BundledRegistry {
  /** Adds a skill; returns diagnostics (an invalid name or an escaping file path refuses the skill). */
  register(definition: BundledSkillDefinition): Diagnostic[];
  /** The registered skills, in registration order. */
  skills(): Skill[];
  /** The memory source behind it, composed by the engine at the bundled rank. */
  readonly source: MemorySource;
}

/**
 * Skills registered in code (SPEC §2 "bundled"), held in a memory source. Files are extracted lazily, once,
 * into `{extractRoot}/{name}/`, which is then the skill's base directory; a skill with no files has none.
 */
export function createBundledRegistry(options: { fs: FsOps; extractRoot: string }): BundledRegistry {
  const source = createMemorySource(
    { id: "bundled" },
    { source: "bundled", extract: { fs: options.fs, root: options.extractRoot } },
  );
  return {
    register: (definition) => source.add(definition),
    skills: () => source.skills(),
    source,
  };
}
