import { dirname, join } from "node:path";
import type { Engine } from "../engine/engine.js";
import { writeFileAtomic } from "../io/atomic-write.js";
import { errorCode, errorMessage } from "../io/fs.js";
import { isRecord } from "../is-record.js";

/** The outcome of updating the project's local settings: the file written, or why it was left as it was. */
export type LocalSettingsUpdate = { ok: true; file: string } | { ok: false; file: string; message: string };

/** The settings files a user may have a rule saved to: the project's local (uncommitted) one, the project's, the user's. */
export type SettingsScope = "local" | "project" | "user";

/** The file of a settings scope: `<project>/.claude/settings.local.json`, `<project>/.claude/settings.json`, `~/.claude/settings.json`. */
export async function settingsFileOf(engine: Engine, scope: SettingsScope): Promise<string> {
  if (scope === "user") return join(engine.home, ".claude", "settings.json");
  const { projectDir } = await engine.roots();
  return join(projectDir, ".claude", scope === "local" ? "settings.local.json" : "settings.json");
}

/**
 * Rewrites `<project>/.claude/settings.local.json` (the user's own, uncommitted settings) with `update` applied
 * to its object: created when missing, other keys kept, written atomically. Refuses (and writes nothing) when the
 * file is not a JSON object or cannot be read.
 */
export async function updateLocalSettings(
  engine: Engine,
  update: (settings: Record<string, unknown>) => Record<string, unknown>,
): Promise<LocalSettingsUpdate> {
  return updateSettingsFile(engine, "local", update);
}

/** {@link updateLocalSettings} for the settings file of any {@link SettingsScope}. */
export async function updateSettingsFile(
  engine: Engine,
  scope: SettingsScope,
  update: (settings: Record<string, unknown>) => Record<string, unknown>,
): Promise<LocalSettingsUpdate> {
  const file = await settingsFileOf(engine, scope);
  let current: Record<string, unknown> = {};
  try {
    const text = await engine.fs.readFile(file);
    const parsed: unknown = text.trim() === "" ? {} : JSON.parse(text.replace(/^\uFEFF/, ""));
    if (!isRecord(parsed)) throw new Error("it is not a JSON object");
    current = parsed;
  } catch (error) {
    if (errorCode(error) !== "ENOENT") {
      return { ok: false, file, message: `Could not update ${file}: ${errorMessage(error)}; left as it is.` };
    }
  }
  await engine.fs.mkdir(dirname(file));
  await writeFileAtomic(engine.fs, file, `${JSON.stringify(update(current), null, 2)}\n`);
  return { ok: true, file };
}

/** `settings` with `rule` added to `permissions.allow` (once; other keys and rules kept). Pure. */
export function withAllowRule(settings: Record<string, unknown>, rule: string): Record<string, unknown> {
  const permissions = isRecord(settings.permissions) ? settings.permissions : {};
  const allow = Array.isArray(permissions.allow) ? permissions.allow : [];
  return allow.includes(rule)
    ? settings
    : { ...settings, permissions: { ...permissions, allow: [...allow, rule] } };
}
