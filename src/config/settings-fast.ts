import { isSkillOverrideState } from "../skill/skill-override.js";
import type {
  PermissionSettings,
  SandboxSettings,
  Settings,
  SkillContextSettings,
  SkillSettings,
} from "./settings-schema.js";

// A hand-written check of a settings file, so that a valid file (the usual case) is read without building the zod
// schema. It accepts only what `settingsSchema()` accepts and gives the value zod gives (known keys first, in the
// schema's order, then the other keys in file order); anything it is unsure of goes to zod, which also words the
// warnings. test/config/settings-fast.test.ts compares the two on generated files.

type Plain = Record<string, unknown>;

function isPlain(value: unknown): value is Plain {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A copy of a plain object whose values all pass `ok`, or `undefined`. `__proto__` keys go to zod. */
function recordOf<T>(value: unknown, ok: (v: unknown) => v is T): Record<string, T> | undefined {
  if (!isPlain(value)) return undefined;
  const out: Record<string, T> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === "__proto__" || !ok(v)) return undefined;
    out[key] = v;
  }
  return out;
}

const isString = (v: unknown): v is string => typeof v === "string";
const isBoolean = (v: unknown): v is boolean => typeof v === "boolean";
const isUnknown = (_v: unknown): _v is unknown => true;

function stringsOf(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: string[] = [];
  for (const v of value) {
    if (typeof v !== "string") return undefined;
    out.push(v);
  }
  return out;
}

/**
 * Copies `keys` of `from` into `into` when each passes its reader (a reader returns `undefined` to decline),
 * known keys first in `keys` order, then every other key. False when a reader declines or a key is `__proto__`.
 */
function copyLoose(
  from: Plain,
  into: Plain,
  readers: Readonly<Record<string, (v: unknown) => unknown>>,
): boolean {
  for (const [key, read] of Object.entries(readers)) {
    if (!Object.hasOwn(from, key)) continue;
    const value = read(from[key]);
    if (value === undefined) return false;
    into[key] = value;
  }
  for (const [key, value] of Object.entries(from)) {
    if (key === "__proto__") return false;
    if (!Object.hasOwn(readers, key)) into[key] = value;
  }
  return true;
}

const safeInt = (min: number) => (v: unknown) =>
  typeof v === "number" && Number.isSafeInteger(v) && v >= min ? v : undefined;

const booleanOf = (v: unknown) => (typeof v === "boolean" ? v : undefined);

function readPermissions(value: unknown): PermissionSettings | undefined {
  if (!isPlain(value)) return undefined;
  const out: PermissionSettings = {};
  const ok = copyLoose(value, out, {
    allow: stringsOf,
    deny: stringsOf,
    ask: stringsOf,
    defaultMode: (v) => (typeof v === "string" ? v : undefined),
    additionalDirectories: stringsOf,
  });
  return ok ? out : undefined;
}

function readSkills(value: unknown): SkillSettings | undefined {
  if (!isPlain(value)) return undefined;
  const out: SkillSettings = {};
  return copyLoose(value, out, { disabled: stringsOf, categories: booleanOf }) ? out : undefined;
}

function readSkillContext(value: unknown): SkillContextSettings | undefined {
  if (!isPlain(value)) return undefined;
  const out: SkillContextSettings = {};
  return copyLoose(value, out, { expireAfterUserTurns: safeInt(0), maxTokens: safeInt(1) }) ? out : undefined;
}

function looseOf(readers: Readonly<Record<string, (v: unknown) => unknown>>) {
  return (value: unknown): Plain | undefined => {
    if (!isPlain(value)) return undefined;
    const out: Plain = {};
    return copyLoose(value, out, readers) ? out : undefined;
  };
}

const readSandboxNetwork = looseOf({
  allowedDomains: stringsOf,
  deniedDomains: stringsOf,
  allowUnixSockets: stringsOf,
  allowAllUnixSockets: booleanOf,
  allowLocalBinding: booleanOf,
});
const readSandboxFilesystem = looseOf({
  allowWrite: stringsOf,
  denyWrite: stringsOf,
  denyRead: stringsOf,
  allowRead: stringsOf,
});

function readSandbox(value: unknown): SandboxSettings | undefined {
  if (!isPlain(value)) return undefined;
  const out: SandboxSettings = {};
  const ok = copyLoose(value, out, {
    enabled: booleanOf,
    failIfUnavailable: booleanOf,
    autoAllowBashIfSandboxed: booleanOf,
    allowUnsandboxedCommands: booleanOf,
    excludedCommands: stringsOf,
    network: readSandboxNetwork,
    filesystem: readSandboxFilesystem,
    enableWeakerNestedSandbox: booleanOf,
  });
  return ok ? out : undefined;
}

/** Settings keys in `settingsSchema()`'s order, each with its reader. */
const SETTINGS_READERS: Readonly<Record<string, (v: unknown) => unknown>> = {
  permissions: readPermissions,
  hooks: (v) => recordOf(v, isUnknown),
  env: (v) => recordOf(v, isString),
  enabledPlugins: (v) => recordOf(v, isBoolean),
  skillListingBudget: safeInt(0),
  skillListingBudgetFraction: (v) =>
    typeof v === "number" && Number.isFinite(v) && v > 0 && v <= 1 ? v : undefined,
  skillListingMaxDescChars: safeInt(1),
  model: (v) => (typeof v === "string" ? v : undefined),
  skillModelSwitch: (v) => (typeof v === "boolean" ? v : undefined),
  skillContext: readSkillContext,
  enableProjectHooks: (v) => (typeof v === "boolean" ? v : undefined),
  enableProjectPermissions: (v) => (typeof v === "boolean" ? v : undefined),
  enabledMcpjsonServers: stringsOf,
  disabledMcpjsonServers: stringsOf,
  enableAllProjectMcpServers: (v) => (typeof v === "boolean" ? v : undefined),
  skills: readSkills,
  skillOverrides: (v) => recordOf(v, isSkillOverrideState),
  sandbox: readSandbox,
};

/**
 * A parsed settings file read without zod: what `settingsSchema().parse(json)` returns when every known key has
 * a valid value, or `undefined` when this fast path declines (anything invalid or unusual: zod decides). Pure.
 */
export function readSettingsFast(json: unknown): Settings | undefined {
  if (!isPlain(json)) return undefined;
  const out: Settings = {};
  return copyLoose(json, out, SETTINGS_READERS) ? out : undefined;
}
