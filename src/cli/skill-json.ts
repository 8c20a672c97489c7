import type { Skill } from "../skill/skill.js";

/** Short markers for a skill's behaviour, as shown by `list` and `doctor`. Pure. */
export function skillFlags(skill: Skill): string[] {
  const flags: string[] = [];
  if (skill.kind === "command") flags.push("command");
  if (skill.context === "fork") flags.push(`fork${skill.agent === undefined ? "" : `:${skill.agent}`}`);
  if (skill.paths !== undefined) flags.push("conditional");
  if (skill.disableModelInvocation) flags.push("user-only");
  if (!skill.userInvocable) flags.push("model-only");
  if (skill.hooks !== undefined) flags.push("hooks");
  if (skill.allowedTools.length > 0) flags.push("allowed-tools");
  if (skill.model !== undefined) flags.push(`model:${skill.model}`);
  if (skill.effort !== undefined) flags.push(`effort:${skill.effort}`);
  if (skill.override !== undefined) flags.push(skill.override.state);
  return flags;
}

/** The JSON shape of a skill for `--json` output (stable keys; no functions). */
export function skillToJson(skill: Skill): Record<string, unknown> {
  const { loadBody: _loadBody, ...data } = skill;
  return { ...data, path: skill.filePath, flags: skillFlags(skill) };
}
