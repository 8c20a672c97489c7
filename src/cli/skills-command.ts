import { inScope, MAIN_SCOPE } from "../agent-types/skill-scope.js";
import type { Discovery } from "../catalog/catalog.js";
import { displayName } from "../skill/skill.js";
import { disabledSource, type SkillSwitches } from "../skill-filter.js";

/** What a typed `/skills …` line asks for: the list, a switch, or the usage line for anything else. */
export type SkillsCommand =
  | { kind: "list" }
  | { kind: "off" | "on"; pattern: string }
  | { kind: "usage"; text: string };

/** The interactive command that lists and switches skills for the session. */
export const SKILLS_COMMAND = "/skills";

const USAGE = "Usage: /skills (list them), /skills off NAME|GLOB, /skills on NAME|GLOB";

/** Reads a typed line; undefined when it is not `/skills …`. Pure. */
export function parseSkillsCommand(line: string): SkillsCommand | undefined {
  const words = line.trim().split(/\s+/);
  if (words[0] !== SKILLS_COMMAND) return undefined;
  const [, verb, pattern, ...rest] = words;
  if (verb === undefined) return { kind: "list" };
  if ((verb === "off" || verb === "on") && pattern !== undefined && rest.length === 0)
    return { kind: verb, pattern };
  return { kind: "usage", text: USAGE };
}

/**
 * The session's skills, one line each in listing order: enabled ones first (`[source]`, who may see a skill the
 * main agent may not, and a `skillOverrides` state other than `on` with its file), then the switched-off ones with what switched them off. Pure.
 */
export function skillsReport(discovery: Discovery): string {
  const lines = discovery.skills.map((skill) => {
    const seen = inScope(skill, MAIN_SCOPE) ? "" : ` (only for: ${(skill.availableTo ?? []).join(", ")})`;
    const override =
      skill.override === undefined
        ? ""
        : `  ${skill.override.state} by skillOverrides "${skill.override.key}" in ${skill.override.path}`;
    return `  on   ${displayName(skill)}  [${skill.source}]${seen}${override}`;
  });
  for (const { skill, by } of discovery.disabled ?? []) {
    lines.push(`  off  ${displayName(skill)}  [${skill.source}]  by ${disabledSource(by)}`);
  }
  return lines.length === 0 ? "No skills.\n" : `${lines.join("\n")}\n`;
}

/**
 * The switches after `/skills off|on pattern`: `off` adds the pattern to the session's own list; `on` takes the
 * same pattern off that list, and off `--no-skills` too. Pure.
 */
export function switchedSkills(
  switches: SkillSwitches,
  command: { kind: "off" | "on"; pattern: string },
): SkillSwitches {
  const offInSession = (switches.offInSession ?? []).filter((p) => p !== command.pattern);
  if (command.kind === "off") return { ...switches, offInSession: [...offInSession, command.pattern] };
  return {
    ...switches,
    offInSession,
    ...(switches.disabled === undefined
      ? {}
      : { disabled: switches.disabled.filter((p) => p !== command.pattern) }),
  };
}

/**
 * What to print after a switch: the skills it turned off, or back on; and for `on`, what stays off and why (a
 * settings file's `skills.disabled` is changed in that file, not here). Pure.
 */
export function switchReport(
  command: { kind: "off" | "on"; pattern: string },
  before: Discovery,
  after: Discovery,
): string {
  const names = (d: Discovery) => new Set(d.skills.map((s) => s.name));
  const was = names(before);
  const now = names(after);
  if (command.kind === "off") {
    const off = [...was].filter((n) => !now.has(n));
    return off.length === 0
      ? `No enabled skill matches "${command.pattern}".\n`
      : `Off for this session: ${off.join(", ")}.\n`;
  }
  const back = [...now].filter((n) => !was.has(n));
  const still = (after.disabled ?? []).filter(({ skill }) => skill.name === command.pattern);
  const stays = still.map(({ skill, by }) => `${skill.name} stays off (by ${disabledSource(by)}).`);
  const head =
    back.length === 0
      ? `Nothing switched back on for "${command.pattern}".`
      : `On again: ${back.join(", ")}.`;
  return `${[head, ...stays].join(" ")}\n`;
}
