import type { Settings } from "./settings-schema.js";

/** The settings keys (honoured in user and local settings only) that approve what a project's committed settings grant. */
export type ProjectApprovalKey = "enableProjectHooks" | "enableProjectPermissions";

/**
 * The trusted settings file that sets `key` to true, or `undefined` when none does: among the `trusted` files
 * (user settings, the environment's, the project's uncommitted `settings.local.json`), the last one that sets
 * the key decides (`false` takes an earlier approval back). A committed file cannot approve itself. Layers are
 * lowest precedence first. Pure.
 */
export function approvingFile(
  layers: ReadonlyArray<{ path: string; settings: Settings }>,
  trusted: readonly string[],
  key: ProjectApprovalKey,
): string | undefined {
  let approvedBy: string | undefined;
  for (const { path, settings } of layers) {
    if (!trusted.includes(path)) continue;
    const value = settings[key];
    if (value === true) approvedBy = path;
    else if (value === false) approvedBy = undefined;
  }
  return approvedBy;
}
