/** A reference's text: given at once, or loaded when the model asks for it (a database query, a fetch). */
export type ReferenceContent = string | (() => Promise<string>);

/** One reference of a skill, as an application declares it (SPEC §16): read with the `load_reference` tool. */
export interface SkillReference {
  /** What the model passes as `name` to `load_reference`; unique within the skill. */
  name: string;
  /** One line saying what it holds, shown in the skill's Skill tool result. */
  description: string;
  content: ReferenceContent;
}

/** A reference as listed to the model: its name and what it holds, never where it is stored. */
export interface ReferenceInfo {
  name: string;
  description: string;
}

/**
 * The references of one skill, read on demand: `list` says which there are, `read` returns one's text
 * (undefined when the skill has no reference of that name). Either may reject (a loader failing, a file gone).
 */
export interface SkillReferences {
  list(signal?: AbortSignal): Promise<ReferenceInfo[]>;
  read(name: string, signal?: AbortSignal): Promise<string | undefined>;
}
