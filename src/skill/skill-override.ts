/**
 * The states a settings file's `skillOverrides` gives a skill (Claude Code's): `on` (as the skill says),
 * `name-only` (listed by its name without its description), `user-invocable-only` (a typed `/name` works; the
 * model is not told of it and cannot call it), `off` (neither listed nor invocable).
 */
export const SKILL_OVERRIDE_STATES = ["on", "name-only", "user-invocable-only", "off"] as const;
/** One of {@link SKILL_OVERRIDE_STATES}. */
export type SkillOverrideState = (typeof SKILL_OVERRIDE_STATES)[number];

/** True when `value` is one of {@link SKILL_OVERRIDE_STATES}. Pure. */
export function isSkillOverrideState(value: unknown): value is SkillOverrideState {
  return typeof value === "string" && (SKILL_OVERRIDE_STATES as readonly string[]).includes(value);
}

/**
 * An override that changes what the model sees of an enabled skill, and where it was written: the settings
 * file and the `skillOverrides` key (a name, or a glob such as `plugin:*`) that matched it.
 */
export interface SkillOverride {
  state: "name-only" | "user-invocable-only";
  path: string;
  key: string;
}
