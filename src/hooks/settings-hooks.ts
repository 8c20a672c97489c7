import { approvingFile } from "../config/project-approval.js";
import { mergeSettings } from "../config/settings.js";
import type { Settings } from "../config/settings-schema.js";

/** The settings key (user or local settings only) that lets a project's committed settings files run hooks. */
export const PROJECT_HOOKS_KEY = "enableProjectHooks";

/** The settings hooks that may run, and the files whose hooks wait for approval. */
export interface SettingsHooks {
  /** The settings-shaped hooks object of every approved file, merged in precedence order. */
  hooks: Settings["hooks"];
  /** Files (a project's committed settings) whose hooks are not registered until approved. */
  pending: string[];
  /** The trusted file that set `enableProjectHooks: true`, if any (the last one wins). */
  approvedBy: string | undefined;
}

/**
 * Which settings hooks may run. Hooks from `trusted` files (user settings and the project's uncommitted
 * `settings.local.json`) always may: the user wrote them. A project's committed settings (`.claude/settings.json`,
 * `.skillwright/settings.json`) come with a cloned repository, so their hooks run only once a trusted file sets
 * `enableProjectHooks: true`; until then they are `pending`. Layers are lowest precedence first. Pure.
 */
export function approvedSettingsHooks(
  layers: ReadonlyArray<{ path: string; settings: Settings }>,
  trusted: readonly string[],
): SettingsHooks {
  const approvedBy = approvingFile(layers, trusted, PROJECT_HOOKS_KEY);
  const approved: Settings[] = [];
  const pending: string[] = [];
  for (const { path, settings } of layers) {
    if (settings.hooks === undefined) continue;
    if (trusted.includes(path) || approvedBy !== undefined) approved.push({ hooks: settings.hooks });
    else pending.push(path);
  }
  return { hooks: mergeSettings(approved).hooks, pending, approvedBy };
}
