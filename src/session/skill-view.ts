import type { Skill } from "../skill/skill.js";

/** The skills of a session as they stand now: discovered, activated by touched paths, found nested. */
export interface SkillView {
  /** Skills that may be listed and invoked now (un-activated conditional skills left out), listing order. */
  visible(): Skill[];
  /** Plugin skill names, for the Skill tool's bare-name hint. */
  pluginSkillNames(): string[];
  /**
   * Records paths a tool touched (or a prompt mentioned): activates matching conditional skills and discovers
   * nested skill dirs. Returns announcement blocks for skills found nested (SPEC §9) and their names (already
   * announced, so the listing delta must not repeat them); activated conditional skills reach the model through
   * the listing delta.
   */
  touch(absolutePaths: readonly string[]): Promise<{ announcements: string[]; announced: string[] }>;
}
