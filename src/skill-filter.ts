import type { Settings } from "./config/settings-schema.js";
import type { Skill } from "./skill/skill.js";

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

/** Why a skill is disabled: a settings file's `skills.disabled` entry, or a session switch. */
export type DisabledBy =
  | { kind: "session"; pattern: string }
  | { kind: "setting"; path: string; pattern: string }
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
  /** `skills.disabled` entries with their file, lowest-precedence file first. */
  settingDisabled: { path: string; pattern: string }[];
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
  return {
    ...(offInSession.length === 0 ? {} : { offInSession }),
    flagDisabled: keep(switches.disabled),
    settingDisabled: layers.flatMap((layer) =>
      keep(layer.settings.skills?.disabled).map((pattern) => ({ path: layer.path, pattern })),
    ),
    ...(only === undefined ? {} : { only }),
  };
}

/** Why the skill called `name` is disabled, or undefined when it is enabled. Pure. */
export function whyDisabled(name: string, filter: SkillFilter): DisabledBy | undefined {
  const off = filter.offInSession?.find((p) => matchesSkillPattern(p, name));
  if (off !== undefined) return { kind: "session", pattern: off };
  const flag = filter.flagDisabled.find((p) => matchesSkillPattern(p, name));
  if (flag !== undefined) return { kind: "flag", flag: "--no-skills", pattern: flag };
  const setting = filter.settingDisabled.find((s) => matchesSkillPattern(s.pattern, name));
  if (setting !== undefined) return { kind: "setting", path: setting.path, pattern: setting.pattern };
  if (filter.only !== undefined && !filter.only.some((p) => matchesSkillPattern(p, name))) {
    return { kind: "flag", flag: "--skills", only: filter.only };
  }
  return undefined;
}

/** Splits skills (order kept) into the enabled ones and the disabled ones with the reason. Pure. */
export function partitionSkills(
  skills: readonly Skill[],
  filter: SkillFilter,
): { enabled: Skill[]; disabled: DisabledSkill[] } {
  const enabled: Skill[] = [];
  const disabled: DisabledSkill[] = [];
  for (const skill of skills) {
    const by = whyDisabled(skill.name, filter);
    if (by === undefined) enabled.push(skill);
    else disabled.push({ skill, by });
  }
  return { enabled, disabled };
}

/** Where a disabling came from, in words: `skills.disabled "x" in {file}`, `--no-skills "x"`, `--skills a,b`. Pure. */
export function disabledSource(by: DisabledBy): string {
  if (by.kind === "session") return `/skills off "${by.pattern}"`;
  if (by.kind === "setting") return `skills.disabled "${by.pattern}" in ${by.path}`;
  if (by.flag === "--no-skills") return `--no-skills "${by.pattern}"`;
  return `--skills ${by.only.join(",")} (the skill is not among them)`;
}

/** What the model or the user is told when naming a disabled skill. Pure. */
export function disabledSkillText(name: string, by: DisabledBy): string {
  return `Skill "${name}" is disabled in this session (by ${disabledSource(by)}), so it cannot be invoked.`;
}
