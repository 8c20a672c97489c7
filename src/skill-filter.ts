import type { Settings } from "./config/settings-schema.js";
import type { Skill } from "./skill/skill.js";
import type { SkillNeed } from "./skill/skill-needs.js";
import type { SkillOverride, SkillOverrideState } from "./skill/skill-override.js";

/**
 * Per-session switches: the CLI's `--skills a,b` (`only`: every other skill is disabled) and `--no-skills a,b`
 * (`disabled`), or the same engine option for a host. Entries are names or globs (`*`, `?`).
 */
export interface SkillSwitches {
  only?: readonly string[];
  disabled?: readonly string[];
  /** Patterns switched off in the running session (interactive `/skills off`). */
  offInSession?: readonly string[];
}

/** Why a skill is disabled: a settings file's `skills.disabled` entry or `skillOverrides` `off`, or a switch. */
export type DisabledBy =
  | { kind: "session"; pattern: string }
  | { kind: "setting"; path: string; pattern: string }
  | { kind: "override"; path: string; key: string }
  | { kind: "unmet"; need: SkillNeed; why: string }
  | { kind: "flag"; flag: "--no-skills"; pattern: string }
  | { kind: "flag"; flag: "--skills"; only: string[] };

/** A skill found but switched off, and why. */
export interface DisabledSkill {
  skill: Skill;
  by: DisabledBy;
}

/** The rules that switch skills off, in the order they are checked (session flags first, then settings files). */
export interface SkillFilter {
  /** `--no-skills` patterns. */
  flagDisabled: string[];
  /**
   * `skills.disabled` entries with their file, lowest-precedence file first; `layer` is the file's index among
   * the settings files (absent: 0).
   */
  settingDisabled: { path: string; pattern: string; layer?: number }[];
  /** `skillOverrides` entries with their file and its index (`layer`), lowest-precedence file first. */
  overrides?: { path: string; key: string; state: SkillOverrideState; layer: number }[];
  /** `--skills` patterns; undefined: no restriction. */
  only?: string[];
  /** `/skills off` patterns of the running session. */
  offInSession?: string[];
}

/** A filter that disables nothing. */
export const NO_SKILL_FILTER: SkillFilter = { flagDisabled: [], settingDisabled: [] };

/** `/name` and ` name ` → `name`. */
function clean(pattern: string): string {
  const trimmed = pattern.trim();
  return trimmed.startsWith("/") ? trimmed.slice(1) : trimmed;
}

/**
 * True when `name` matches `pattern`: the whole name, case-sensitive; `*` stands for any run of characters
 * (`:` and `_` included, so `plugin:*` and `mcp__srv__*` work), `?` for one. Pure.
 */
export function matchesSkillPattern(pattern: string, name: string): boolean {
  const p = clean(pattern);
  if (!p.includes("*") && !p.includes("?")) return p === name;
  const source = p
    .split("")
    .map((c) => (c === "*" ? ".*" : c === "?" ? "." : c.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${source}$`, "s").test(name);
}

/**
 * The filter of a session from the settings files' own `skills.disabled` lists (each traced to its file) and
 * the session switches. Empty entries are ignored. Pure.
 */
export function skillFilterFrom(
  layers: readonly { path: string; settings: Settings }[],
  switches: SkillSwitches = {},
): SkillFilter {
  const keep = (list: readonly string[] | undefined) => (list ?? []).map(clean).filter((p) => p !== "");
  const only = switches.only === undefined ? undefined : keep(switches.only);
  const offInSession = keep(switches.offInSession);
  const overrides = layers.flatMap((layer, at) =>
    Object.entries(layer.settings.skillOverrides ?? {}).flatMap(([key, state]) =>
      clean(key) === "" ? [] : [{ path: layer.path, key: clean(key), state, layer: at }],
    ),
  );
  return {
    ...(offInSession.length === 0 ? {} : { offInSession }),
    flagDisabled: keep(switches.disabled),
    settingDisabled: layers.flatMap((layer, at) =>
      keep(layer.settings.skills?.disabled).map((pattern) => ({ path: layer.path, pattern, layer: at })),
    ),
    ...(overrides.length === 0 ? {} : { overrides }),
    ...(only === undefined ? {} : { only }),
  };
}

/**
 * The `skillOverrides` entry that decides `name`: the highest-precedence file's, and in one file a key equal to
 * the name before a glob that matches it. Undefined when no entry matches. Pure.
 */
function overrideEntry(
  name: string,
  filter: SkillFilter,
): { path: string; key: string; state: SkillOverrideState; layer: number } | undefined {
  let best: { path: string; key: string; state: SkillOverrideState; layer: number } | undefined;
  for (const entry of filter.overrides ?? []) {
    if (!matchesSkillPattern(entry.key, name)) continue;
    const exact = entry.key === name;
    if (best === undefined || entry.layer > best.layer || (entry.layer === best.layer && exact)) best = entry;
  }
  return best;
}

/**
 * What a settings file's `skillOverrides` makes of an enabled skill called `name`: `name-only` or
 * `user-invocable-only` with the file and key, or undefined (`on`, no entry, or the skill is off). Pure.
 */
export function overrideOf(name: string, filter: SkillFilter): SkillOverride | undefined {
  const entry = overrideEntry(name, filter);
  if (entry === undefined || (entry.state !== "name-only" && entry.state !== "user-invocable-only")) {
    return undefined;
  }
  return { state: entry.state, path: entry.path, key: entry.key };
}

/**
 * The settings files' word on `name`: the highest-precedence file that speaks of it decides, `skillOverrides`
 * before `skills.disabled` in one file (so an `on` there, or in a later file, switches back on what an earlier
 * `skills.disabled` switched off). Pure.
 */
function settingsDisabled(name: string, filter: SkillFilter): DisabledBy | undefined {
  const override = overrideEntry(name, filter);
  let setting: { path: string; pattern: string; layer?: number } | undefined;
  for (const s of filter.settingDisabled) {
    if (
      matchesSkillPattern(s.pattern, name) &&
      (setting === undefined || (s.layer ?? 0) > (setting.layer ?? 0))
    ) {
      setting = s;
    }
  }
  if (override !== undefined && override.layer >= (setting?.layer ?? 0)) {
    return override.state === "off"
      ? { kind: "override", path: override.path, key: override.key }
      : undefined;
  }
  return setting === undefined
    ? undefined
    : { kind: "setting", path: setting.path, pattern: setting.pattern };
}

/** Why the skill called `name` is disabled, or undefined when it is enabled. Pure. */
export function whyDisabled(name: string, filter: SkillFilter): DisabledBy | undefined {
  const off = filter.offInSession?.find((p) => matchesSkillPattern(p, name));
  if (off !== undefined) return { kind: "session", pattern: off };
  const flag = filter.flagDisabled.find((p) => matchesSkillPattern(p, name));
  if (flag !== undefined) return { kind: "flag", flag: "--no-skills", pattern: flag };
  const setting = settingsDisabled(name, filter);
  if (setting !== undefined) return setting;
  if (filter.only !== undefined && !filter.only.some((p) => matchesSkillPattern(p, name))) {
    return { kind: "flag", flag: "--skills", only: filter.only };
  }
  return undefined;
}

/**
 * One skill through the filter: switched off (with the reason), or enabled, carrying its `skillOverrides` state
 * when that is `name-only` or `user-invocable-only` (which also sets `disableModelInvocation`: the model is not
 * told of it and cannot call it). An enabled skill without an override is returned as it is. Pure.
 */
export function filterSkill(
  skill: Skill,
  filter: SkillFilter,
): { skill: Skill } | { disabled: DisabledSkill } {
  const by = whyDisabled(skill.name, filter);
  if (by !== undefined) return { disabled: { skill, by } };
  if (filter.overrides === undefined) return { skill };
  const override = overrideOf(skill.name, filter);
  if (override === undefined) return { skill };
  const userOnly = override.state === "user-invocable-only";
  return { skill: { ...skill, override, disableModelInvocation: skill.disableModelInvocation || userOnly } };
}

/** Splits skills (order kept) into the enabled ones (with their overrides) and the disabled ones with the reason. Pure. */
export function partitionSkills(
  skills: readonly Skill[],
  filter: SkillFilter,
): { enabled: Skill[]; disabled: DisabledSkill[] } {
  const enabled: Skill[] = [];
  const disabled: DisabledSkill[] = [];
  for (const skill of skills) {
    const result = filterSkill(skill, filter);
    if ("disabled" in result) disabled.push(result.disabled);
    else enabled.push(result.skill);
  }
  return { enabled, disabled };
}

/** Where a disabling came from, in words: `skills.disabled "x" in {file}`, `--no-skills "x"`, `--skills a,b`. Pure. */
export function disabledSource(by: DisabledBy): string {
  if (by.kind === "session") return `/skills off "${by.pattern}"`;
  if (by.kind === "setting") return `skills.disabled "${by.pattern}" in ${by.path}`;
  if (by.kind === "override") return `skillOverrides "${by.key}": "off" in ${by.path}`;
  if (by.kind === "unmet") return `its need: ${by.why}`;
  if (by.flag === "--no-skills") return `--no-skills "${by.pattern}"`;
  return `--skills ${by.only.join(",")} (the skill is not among them)`;
}

/** What the model or the user is told when naming a disabled skill. Pure. */
export function disabledSkillText(name: string, by: DisabledBy): string {
  if (by.kind === "unmet") return `Skill "${name}" is not available: ${by.why}.`;
  return `Skill "${name}" is disabled in this session (by ${disabledSource(by)}), so it cannot be invoked.`;
}
