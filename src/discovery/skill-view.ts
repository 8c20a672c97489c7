import type { ModelMessage } from "../agent/model-types.js";
import type { Skill } from "../skill/skill.js";
import type { DisabledSkill } from "../skill-filter.js";

/** The skills of a session as they stand now: discovered, activated by touched paths, found nested. */
export interface SkillView {
  /** Skills that may be listed and invoked now (un-activated conditional skills left out), listing order. */
  visible(): Skill[];
  /**
   * The activated conditional skills, in the order they were activated: those one touch activated come with the
   * skills that touch found nested first (in their discovery order), then the others in listing order, as
   * Claude Code announces them (issue #44).
   */
  activationOrder(): readonly string[];
  /** The disabled skill called `name` (name or alias) and why, or undefined (enabled or unknown). */
  disabled(name: string): DisabledSkill | undefined;
  /** True when a skill called `name` was found but skipped by an error at discovery (SPEC §4). */
  skipped(name: string): boolean;
  /** Plugin skill names, for the Skill tool's bare-name hint. */
  pluginSkillNames(): string[];
  /**
   * Records paths a tool touched (or a prompt mentioned): activates matching conditional skills and discovers
   * nested skill dirs. Returns announcement blocks for skills found nested (SPEC §9) and their names (already
   * announced, so the listing delta must not repeat them); activated conditional skills reach the model through
   * the listing delta.
   */
  touch(absolutePaths: readonly string[]): Promise<{ announcements: string[]; announced: string[] }>;
  /**
   * Restores a resumed session from its stored conversation: loads again the nested skills dirs it announced,
   * then activates the conditional skills it listed, announcing nothing. Returns every name the conversation
   * already listed (for the listing state to mark sent). Never rejects for bad content.
   */
  restore(messages: readonly ModelMessage[]): Promise<string[]>;
  /**
   * Takes a new discovery (after `engine.reload()`): its skills (and disabled and skipped skills) replace the
   * discovered ones, nested finds stay unless the current filter now disables them,
   * activated conditional skills stay active. New names reach the model as a listing delta (SPEC §3).
   */
  rediscovered(
    skills: readonly Skill[],
    disabled?: readonly DisabledSkill[],
    skipped?: readonly string[],
  ): void;
}
