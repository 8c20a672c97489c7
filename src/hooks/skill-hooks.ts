import type { Diagnostic } from "../diagnostics.js";
import type { Skill } from "../skill/skill.js";
import type { HookRegistry } from "./registry.js";
import { parseHooksConfig } from "./schema.js";

/**
 * Registers a skill's `hooks:` (SPEC §10) as the source `skill:{name}`, with `CLAUDE_SKILL_DIR` (and, for a
 * plugin skill, `CLAUDE_PLUGIN_ROOT`) set: what invoking the skill does, and what resuming a session that
 * invoked it does again. Registering again replaces the skill's hooks in place. Returns a warning text
 * (`{code}: {message}`) for each part that does not parse; a skill without hooks registers nothing.
 */
export function registerSkillHooks(registry: HookRegistry, skill: Skill): string[] {
  if (skill.hooks === undefined) return [];
  const parsed = parseHooksConfig(skill.hooks, skill.filePath || skill.name);
  registry.register(
    {
      kind: "skill",
      name: skill.name,
      skillDir: skill.baseDir,
      ...(skill.plugin === undefined ? {} : { pluginRoot: skill.plugin.root }),
    },
    parsed.config,
  );
  return parsed.diagnostics.map((d) => `${d.code}: ${d.message}`);
}

/**
 * What a skill's `hooks:` would report when invoked, found at load time for `validate`, `doctor` and `lint`:
 * `hooks-invalid` for a malformed entry, `hook-unsupported` for an event we do not fire or a hook type we do
 * not run. Empty for a skill without hooks. Pure.
 */
export function skillHookDiagnostics(skill: Pick<Skill, "hooks" | "filePath" | "name">): Diagnostic[] {
  if (skill.hooks === undefined) return [];
  return parseHooksConfig(skill.hooks, skill.filePath || skill.name).diagnostics;
}
