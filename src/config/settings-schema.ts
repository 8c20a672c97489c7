import * as z from "zod";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { lazy } from "../lazy.js";
import { SKILL_OVERRIDE_STATES } from "../skill/skill-override.js";

// The zod schema of a settings file, loaded only for a file `readSettingsFast` declines (config/settings.ts).
// The types below are inferred from it; importing them (`import type`) loads no zod.

/** The `permissions` block's schema, built on first use. */
export const permissionSettingsSchema = lazy(() =>
  z.looseObject({
    allow: z.array(z.string()).optional(),
    deny: z.array(z.string()).optional(),
    ask: z.array(z.string()).optional(),
    defaultMode: z.string().optional(),
    additionalDirectories: z.array(z.string()).optional(),
  }),
);

/** The `skills` block's schema, built on first use. */
export const skillSettingsSchema = lazy(() =>
  z.looseObject({
    /** Skill names or globs (`*`, `?`): `plugin:*`, `mcp__srv__*`. A matching skill is neither listed nor invocable. */
    disabled: z.array(z.string()).optional(),
    /** Skill folders in category folders (`.claude/skills/<category>/<name>/SKILL.md`); default false. */
    categories: z.boolean().optional(),
  }),
);

/** The `skillContext` block's schema (when inline skill expansions expire), built on first use. */
export const skillContextSettingsSchema = lazy(() =>
  z.looseObject({
    /** After this many further user turns an inline expansion is sent as a one-line stub. */
    expireAfterUserTurns: z.number().int().nonnegative().optional(),
    /** The estimated tokens live expansions may hold together; the least recently invoked expire first. */
    maxTokens: z.number().int().positive().optional(),
  }),
);

/** The `sandbox` block's network rules (Claude Code's keys), built on first use. */
export const sandboxNetworkSchema = lazy(() =>
  z.looseObject({
    /** Hosts sandboxed commands may reach (`*.example.com`, an optional `:port`). Loosens. */
    allowedDomains: z.array(z.string()).optional(),
    /** Hosts they may not reach, over any allowed one. Tightens. */
    deniedDomains: z.array(z.string()).optional(),
    /** Unix socket paths they may connect to (macOS only in the runtime). Loosens. */
    allowUnixSockets: z.array(z.string()).optional(),
    /** Every Unix socket (the runtime's seccomp filter off). Loosens. */
    allowAllUnixSockets: z.boolean().optional(),
    /** Whether they may listen on local ports. Loosens. */
    allowLocalBinding: z.boolean().optional(),
  }),
);

/** The `sandbox` block's file rules (Claude Code's keys), built on first use. */
export const sandboxFilesystemSchema = lazy(() =>
  z.looseObject({
    /** Paths writable beyond the project and `--add-dir`s. Loosens. */
    allowWrite: z.array(z.string()).optional(),
    /** Paths not writable even inside those. Tightens. */
    denyWrite: z.array(z.string()).optional(),
    /** Paths not readable. Tightens. */
    denyRead: z.array(z.string()).optional(),
    /** Paths readable again inside a `denyRead` one. Loosens. */
    allowRead: z.array(z.string()).optional(),
  }),
);

/** The `sandbox` block (Claude Code's keys: docs/behaviour.md, "The CLI's sandbox"), built on first use. */
export const sandboxSettingsSchema = lazy(() =>
  z.looseObject({
    /** Runs Bash, inline shell and command hooks under the OS sandbox (default false). */
    enabled: z.boolean().optional(),
    /** Claude Code's: fail rather than run unsandboxed when the sandbox cannot start. Ours always refuses. */
    failIfUnavailable: z.boolean().optional(),
    /** Bash commands that run sandboxed need no permission (default true). */
    autoAllowBashIfSandboxed: z.boolean().optional(),
    /** Claude Code's escape hatch (`dangerouslyDisableSandbox`); never offered here. */
    allowUnsandboxedCommands: z.boolean().optional(),
    /** Commands (`git`, `docker *`) that run outside the sandbox, through the usual permissions. */
    excludedCommands: z.array(z.string()).optional(),
    network: sandboxNetworkSchema().optional(),
    filesystem: sandboxFilesystemSchema().optional(),
    /** The runtime's weaker mode for unprivileged containers. Loosens. */
    enableWeakerNestedSandbox: z.boolean().optional(),
  }),
);

/**
 * The zod schema of one settings file, built on first use: `readSettingsFast` reads valid files without it; it
 * decides (and words the warnings) for the rest.
 */
export const settingsSchema = lazy(() =>
  z.looseObject({
    permissions: permissionSettingsSchema().optional(),
    hooks: z.record(z.string(), z.unknown()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    enabledPlugins: z.record(z.string(), z.boolean()).optional(),
    skillListingBudget: z.number().int().nonnegative().optional(),
    /** The share of the context window the skill listing may take (SPEC §3; default 0.01). */
    skillListingBudgetFraction: z.number().positive().max(1).optional(),
    /** The per-description cap of the skill listing in chars (SPEC §3; default 1,536). */
    skillListingMaxDescChars: z.number().int().min(1).optional(),
    model: z.string().optional(),
    /** A model-invoked inline skill's `model:` switches the turn's model too (default false: the note only; SPEC §5). */
    skillModelSwitch: z.boolean().optional(),
    /** When inline skill expansions leave the requests (issue 31; a skill's `ttl-turns` wins). */
    skillContext: skillContextSettingsSchema().optional(),
    // Lets the project's committed settings run hooks; honoured only from user and local settings (hooks/settings-hooks.ts).
    enableProjectHooks: z.boolean().optional(),
    // Lets the project's committed settings grant (allow rules, additionalDirectories); same rule (config/project-permissions.ts).
    enableProjectPermissions: z.boolean().optional(),
    // MCP trust (Claude Code's keys): honoured only from user and local settings, see `mcp/approval.ts`.
    enabledMcpjsonServers: z.array(z.string()).optional(),
    disabledMcpjsonServers: z.array(z.string()).optional(),
    enableAllProjectMcpServers: z.boolean().optional(),
    skills: skillSettingsSchema().optional(),
    /** Claude Code's per-skill states by name or glob (`plugin:skill`, `plugin:*`): `on`, `name-only`, `user-invocable-only`, `off`. */
    skillOverrides: z.record(z.string(), z.enum(SKILL_OVERRIDE_STATES)).optional(),
    sandbox: sandboxSettingsSchema().optional(),
  }),
);

/** The `permissions` block: rule lists plus any other keys, kept. */
export type PermissionSettings = z.infer<ReturnType<typeof permissionSettingsSchema>>;
/** The `skills` block: `{ disabled?: [...], categories?: boolean }` plus any other keys, kept. */
export type SkillSettings = z.infer<ReturnType<typeof skillSettingsSchema>>;
/** The `skillContext` block: `{ expireAfterUserTurns?, maxTokens? }` plus any other keys, kept. */
export type SkillContextSettings = z.infer<ReturnType<typeof skillContextSettingsSchema>>;
/** The `sandbox` block as written in one settings file (or merged): every key optional, unknown keys kept. */
export type SandboxSettings = z.infer<ReturnType<typeof sandboxSettingsSchema>>;
/** One settings file, or the merge of all of them. Unknown keys are kept; `hooks` is validated later (§10). */
export type Settings = z.infer<ReturnType<typeof settingsSchema>>;

/** Invalid values are removed and the file parsed again at most this many times before it is given up. */
export const MAX_SETTINGS_REPAIR_PASSES = 5;

type Json = unknown;

function isPlainObject(value: Json): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Removes the value at each path (array elements are spliced out, highest index first). */
function removePaths(root: Record<string, Json>, paths: readonly (readonly PropertyKey[])[]): void {
  const arrayRemovals = new Map<Json[], Set<number>>();
  for (const path of paths) {
    let parent: Json = root;
    for (const key of path.slice(0, -1)) {
      if (Array.isArray(parent) && typeof key === "number") parent = parent[key];
      else if (isPlainObject(parent) && typeof key === "string") parent = parent[key];
      else parent = undefined;
    }
    const last = path[path.length - 1];
    if (Array.isArray(parent) && typeof last === "number") {
      const set = arrayRemovals.get(parent) ?? new Set<number>();
      set.add(last);
      arrayRemovals.set(parent, set);
    } else if (isPlainObject(parent) && typeof last === "string") {
      delete parent[last];
    }
  }
  for (const [array, indexes] of arrayRemovals) {
    for (const index of [...indexes].sort((a, b) => b - a)) array.splice(index, 1);
  }
}

function describePath(path: readonly PropertyKey[]): string {
  return path
    .map((k) => (typeof k === "number" ? `[${k}]` : `.${String(k)}`))
    .join("")
    .replace(/^\./, "");
}

/**
 * Validates a settings object `readSettingsFast` declined: values that do not fit the schema are removed (from
 * `working`, which is modified), each with a `settings-invalid` warning naming the key, and the object parsed
 * again, at most {@link MAX_SETTINGS_REPAIR_PASSES} times; then it is given up with an error. Pure but for
 * `working`.
 */
export function repairSettings(
  working: Record<string, Json>,
  path: string,
): { settings?: Settings; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  for (let pass = 0; pass < MAX_SETTINGS_REPAIR_PASSES; pass++) {
    const result = settingsSchema().safeParse(working);
    if (result.success) return { settings: result.data, diagnostics };
    const paths = result.error.issues.map((issue) => issue.path);
    if (paths.some((p) => p.length === 0)) break;
    for (const issue of result.error.issues) {
      diagnostics.push(
        diagnostic(
          "warning",
          "settings-invalid",
          `${describePath(issue.path)}: ${issue.message}; ignored`,
          path,
        ),
      );
    }
    removePaths(working, paths);
  }
  diagnostics.push(
    diagnostic("error", "settings-invalid", "Settings file could not be validated; ignored", path),
  );
  return { diagnostics };
}
