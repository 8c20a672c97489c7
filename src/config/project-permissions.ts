import type { PermissionRules } from "../permissions/decision.js";
import { approvingFile } from "./project-approval.js";
import type { Settings } from "./settings-schema.js";

/** The settings key (user or local settings only) that lets a project's committed settings grant permissions. */
export const PROJECT_PERMISSIONS_KEY = "enableProjectPermissions";

/** What one committed settings file would grant, held back until approved. */
export interface PendingGrants {
  file: string;
  allow: string[];
  additionalDirectories: string[];
}

/** What a file's held-back grants are, for the user: `Bash, additionalDirectories ~`. Pure. */
export function grantsText(pending: PendingGrants): string {
  return [...pending.allow, ...pending.additionalDirectories.map((d) => `additionalDirectories ${d}`)].join(
    ", ",
  );
}

/** The permission rules that apply, and the grants that wait for approval. */
export interface SettingsPermissions {
  rules: PermissionRules;
  /** `permissions.additionalDirectories` of the files whose grants apply, as written (not yet resolved). */
  additionalDirectories: string[];
  /** Committed files with `allow` rules or `additionalDirectories` that do not apply until approved. */
  pending: PendingGrants[];
  /** The trusted file that set `enableProjectPermissions: true`, if any. */
  approvedBy: string | undefined;
}

/**
 * The permission rules of the settings layers. `deny` and `ask` rules apply from every file: they only take away.
 * What grants (`allow` rules, `additionalDirectories`) applies from the `trusted` files (the user's own) always,
 * and from a project's committed settings (`.claude/settings.json`, `.skillwright/settings.json`, which come with
 * a cloned repository) only once a trusted file sets `enableProjectPermissions: true`; until then those grants are
 * `pending`. Lists keep the layers' order (lowest precedence first), as `mergeSettings` concatenates them. Pure.
 */
export function approvedPermissions(
  layers: ReadonlyArray<{ path: string; settings: Settings }>,
  trusted: readonly string[],
): SettingsPermissions {
  const approvedBy = approvingFile(layers, trusted, PROJECT_PERMISSIONS_KEY);
  const rules = { allow: [] as string[], deny: [] as string[], ask: [] as string[] };
  const additionalDirectories: string[] = [];
  const pending: PendingGrants[] = [];
  for (const { path, settings } of layers) {
    const p = settings.permissions;
    if (p === undefined) continue;
    rules.deny.push(...(p.deny ?? []));
    rules.ask.push(...(p.ask ?? []));
    const allow = p.allow ?? [];
    const dirs = p.additionalDirectories ?? [];
    if (trusted.includes(path) || approvedBy !== undefined) {
      rules.allow.push(...allow);
      additionalDirectories.push(...dirs);
    } else if (allow.length > 0 || dirs.length > 0) {
      pending.push({ file: path, allow, additionalDirectories: dirs });
    }
  }
  return { rules, additionalDirectories, pending, approvedBy };
}
