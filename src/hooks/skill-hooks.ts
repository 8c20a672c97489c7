import type { Diagnostic } from "../diagnostics.js";
import type { Skill } from "../skill/skill.js";
import { HOOK_EVENTS } from "./hook-events.js";
import type { HookRegistry } from "./registry.js";
import { type HooksConfig, parseHooksConfig } from "./schema.js";

/** What registering a skill's hooks found: warnings for parts that do not parse, command hooks left out. */
export interface SkillHooksRegistered {
  /** `{code}: {message}` for each part that does not parse. */
  warnings: string[];
  /** How many command hooks were left out (`commands: false`). */
  commandsLeftOut: number;
}

/**
 * Registers a skill's `hooks:` (SPEC §10) as the source `skill:{name}`, with `CLAUDE_SKILL_DIR` (and, for a
 * plugin skill, `CLAUDE_PLUGIN_ROOT`) set: what invoking the skill does, and what resuming a session that
 * invoked it does again. Registering again replaces the skill's hooks in place. With `commands: false` (a
 * session without a shell) its command hooks are left out and counted; hooks of the other types still register.
 * A skill without hooks registers nothing.
 */
export function registerSkillHooks(
  registry: HookRegistry,
  skill: Skill,
  options: { commands?: boolean } = {},
): SkillHooksRegistered {
  if (skill.hooks === undefined) return { warnings: [], commandsLeftOut: 0 };
  const parsed = parseHooksConfig(skill.hooks, skill.filePath || skill.name);
  const kept =
    options.commands === false ? withoutCommandHooks(parsed.config) : { config: parsed.config, left: 0 };
  registry.register(
    {
      kind: "skill",
      name: skill.name,
      skillDir: skill.baseDir,
      ...(skill.plugin === undefined ? {} : { pluginRoot: skill.plugin.root }),
    },
    kept.config,
  );
  return { warnings: parsed.diagnostics.map((d) => `${d.code}: ${d.message}`), commandsLeftOut: kept.left };
}

/** The config without its command hooks (groups and events left empty dropped), and how many were left out. */
function withoutCommandHooks(config: HooksConfig): { config: HooksConfig; left: number } {
  const out: HooksConfig = {};
  let left = 0;
  for (const event of HOOK_EVENTS) {
    const groups = (config[event] ?? []).flatMap((group) => {
      const hooks = group.hooks.filter((hook) => hook.type !== "command");
      left += group.hooks.length - hooks.length;
      return hooks.length === 0 ? [] : [{ ...group, hooks }];
    });
    if (groups.length > 0) out[event] = groups;
  }
  return { config: out, left };
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
