import { join } from "node:path";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { errorCode, errorMessage, type FsOps } from "../io/fs.js";
import type { PermissionRules } from "../permissions/decision.js";
import { parseRule } from "../permissions/rules.js";
import { readSettingsFast } from "./settings-fast.js";
import type { Settings } from "./settings-schema.js";

/** Where the settings files are: the home dir, the project dir, and the selected named environment's dir. */
export interface SettingsPlaces {
  home: string;
  projectDir: string;
  /** A named environment's dir (`~/.skillwright/environments/{name}`): its `settings.json` is a user file. */
  environmentDir?: string;
}

/**
 * The settings files, lowest precedence first (later files override scalars; arrays are concatenated):
 * `~/.claude/settings.json`, `~/.skillwright/settings.json`, the selected environment's `settings.json`, then
 * in the project `.claude/settings.json`, `.claude/settings.local.json`, `.skillwright/settings.json`,
 * `.skillwright/settings.local.json`. Pure.
 */
export function settingsFiles(options: SettingsPlaces): string[] {
  const { home, projectDir } = options;
  return [
    join(home, ".claude", "settings.json"),
    join(home, ".skillwright", "settings.json"),
    ...(options.environmentDir === undefined ? [] : [join(options.environmentDir, "settings.json")]),
    join(projectDir, ".claude", "settings.json"),
    join(projectDir, ".claude", "settings.local.json"),
    join(projectDir, ".skillwright", "settings.json"),
    join(projectDir, ".skillwright", "settings.local.json"),
  ];
}

/**
 * The settings files the user wrote for this machine (never committed to a repository): the two user files, the
 * selected environment's file and the project's two `settings.local.json`. Approvals (MCP servers) count only
 * from these. Pure.
 */
export function userAndLocalSettingsFiles(options: SettingsPlaces): string[] {
  const { environmentDir, ...rest } = options;
  const [claudeUser, ownUser, , claudeLocal, , ownLocal] = settingsFiles(rest);
  const environment = environmentDir === undefined ? [] : [join(environmentDir, "settings.json")];
  return [claudeUser, ownUser, ...environment, claudeLocal, ownLocal].filter(
    (f): f is string => f !== undefined,
  );
}

type Json = unknown;

function isPlainObject(value: Json): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `settings` without the permission rules that do not parse, each with a `settings-invalid` warning. */
function dropBadRules(settings: Settings, path: string, diagnostics: Diagnostic[]): Settings {
  const permissions = settings.permissions;
  if (permissions === undefined) return settings;
  for (const list of ["allow", "deny", "ask"] as const) {
    const rules = permissions[list];
    if (rules === undefined) continue;
    permissions[list] = rules.filter((raw) => {
      const parsed = parseRule(raw);
      if (!parsed.ok) {
        diagnostics.push(
          diagnostic("warning", "settings-invalid", `permissions.${list}: ${parsed.message}; ignored`, path),
        );
      }
      return parsed.ok;
    });
  }
  return settings;
}

/**
 * Validates one parsed settings file: `readSettingsFast` first; only a file it declines loads zod
 * (`repairSettings`, which drops the values that do not fit the schema, each with a `settings-invalid` warning
 * naming the key). Permission rules that do not parse are dropped too; the rest is kept. A file that is not a
 * JSON object yields `undefined` and an error.
 */
export async function parseSettings(
  json: Json,
  path: string,
): Promise<{ settings?: Settings; diagnostics: Diagnostic[] }> {
  if (!isPlainObject(json)) {
    const error = diagnostic(
      "error",
      "settings-invalid",
      "Settings file is not a JSON object; ignored",
      path,
    );
    return { diagnostics: [error] };
  }
  const working = structuredClone(json);
  const fast = readSettingsFast(working);
  const diagnostics: Diagnostic[] = [];
  if (fast !== undefined) return { settings: dropBadRules(fast, path, diagnostics), diagnostics };
  const { repairSettings } = await import("./settings-schema.js");
  const repaired = repairSettings(working, path);
  diagnostics.push(...repaired.diagnostics);
  if (repaired.settings === undefined) return { diagnostics };
  return { settings: dropBadRules(repaired.settings, path, diagnostics), diagnostics };
}

const UNSAFE_KEYS = new Set(["__proto__"]);

/**
 * Merges settings objects, later ones winning: plain objects merge key by key, arrays are concatenated with
 * duplicates (by JSON value) left out, anything else is replaced. Inputs are not modified. Pure.
 */
export function mergeSettings(layers: readonly Settings[]): Settings {
  if (layers.length === 0) return {};
  const merge = (a: Json, b: Json): Json => {
    if (Array.isArray(a) && Array.isArray(b)) {
      const seen = new Set<string>();
      return [...a, ...b].filter((item) => {
        const key = JSON.stringify(item);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    }
    if (isPlainObject(a) && isPlainObject(b)) {
      const out: Record<string, Json> = { ...a };
      for (const [key, value] of Object.entries(b)) {
        if (UNSAFE_KEYS.has(key)) continue;
        out[key] = key in out ? merge(out[key], value) : value;
      }
      return out;
    }
    return b;
  };
  let merged: Json = {};
  for (const layer of layers) merged = merge(merged, layer);
  // Merging valid layers gives valid settings, which the zod-free reader accepts; it keeps the type honest
  // without a cast.
  return readSettingsFast(merged) ?? {};
}

/**
 * The merged result of all settings files. `files` lists the ones that were read and used, in order; `layers`
 * holds each of those files' own (validated) settings, so a setting can be traced to the file that set it.
 */
export interface LoadedSettings {
  settings: Settings;
  diagnostics: Diagnostic[];
  files: string[];
  layers: { path: string; settings: Settings }[];
}

/**
 * Reads every settings file of `settingsFiles` that exists (missing ones are skipped quietly), validates each
 * with `parseSettings` and merges them with `mergeSettings`. Never throws: invalid JSON is a
 * `settings-invalid` error and the file is ignored; an unreadable file is a `file-unreadable` warning. An empty
 * file counts as `{}`.
 */
export async function loadSettings(options: SettingsPlaces & { fs: FsOps }): Promise<LoadedSettings> {
  const paths = settingsFiles(options);
  const read = await Promise.all(
    paths.map(async (path): Promise<{ path: string; text?: string; diagnostic?: Diagnostic }> => {
      try {
        return { path, text: await options.fs.readFile(path) };
      } catch (error) {
        const code = errorCode(error);
        if (code === "ENOENT" || code === "ENOTDIR") return { path };
        return { path, diagnostic: diagnostic("warning", "file-unreadable", errorMessage(error), path) };
      }
    }),
  );
  const diagnostics: Diagnostic[] = [];
  const layers: { path: string; settings: Settings }[] = [];
  for (const { path, text, diagnostic: problem } of read) {
    if (problem !== undefined) diagnostics.push(problem);
    if (text === undefined) continue;
    let json: Json;
    try {
      json = text.trim() === "" ? {} : JSON.parse(text.replace(/^\uFEFF/, ""));
    } catch (error) {
      diagnostics.push(diagnostic("error", "settings-invalid", `Invalid JSON: ${errorMessage(error)}`, path));
      continue;
    }
    const parsed = await parseSettings(json, path);
    diagnostics.push(...parsed.diagnostics);
    if (parsed.settings !== undefined) {
      layers.push({ path, settings: parsed.settings });
    }
  }
  return {
    settings: mergeSettings(layers.map((l) => l.settings)),
    diagnostics,
    files: layers.map((l) => l.path),
    layers,
  };
}

/** The permission rules of merged settings (missing lists are empty). Pure. */
export function permissionRules(settings: Settings): PermissionRules {
  const p = settings.permissions;
  return { allow: p?.allow ?? [], deny: p?.deny ?? [], ask: p?.ask ?? [] };
}
