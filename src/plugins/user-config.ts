import { join } from "node:path";
import { errorCode, type FsOps } from "../io/fs.js";
import { isRecord } from "../is-record.js";

/** One setting a plugin's `userConfig` declares (Claude Code's fields; `type` is kept as text). */
export interface UserConfigOption {
  key: string;
  title?: string;
  description?: string;
  type?: string;
  sensitive: boolean;
  required: boolean;
  default?: string;
}

/** A plugin's configured values: the non-sensitive and the sensitive ones, by key. */
export interface UserConfigValues {
  values: Record<string, string>;
  secrets: Record<string, string>;
}

/** `${user_config.KEY}` (braced form), the key in group 1. */
export const USER_CONFIG_PLACEHOLDER = /\$\{user_config\.([A-Za-z0-9_-]+)\}/g;

/** `{home}/.skillwright/plugins/config.json`: plugins' non-sensitive settings, by plugin then key. Pure. */
export function pluginConfigFile(home: string): string {
  return join(home, ".skillwright", "plugins", "config.json");
}

/** `{home}/.skillwright/plugins/secrets.json` (mode 0600): plugins' sensitive settings. Pure. */
export function pluginSecretsFile(home: string): string {
  return join(home, ".skillwright", "plugins", "secrets.json");
}

const asText = (value: unknown): string | undefined =>
  typeof value === "string"
    ? value
    : typeof value === "number" || typeof value === "boolean"
      ? String(value)
      : undefined;

/** The options a manifest's `userConfig` object declares, in file order; anything else is none. Pure. */
export function userConfigOptions(raw: unknown): UserConfigOption[] {
  if (!isRecord(raw)) return [];
  return Object.entries(raw).flatMap(([key, spec]) => {
    if (!isRecord(spec) || key === "__proto__") return [];
    const fallback = asText(spec.default);
    return [
      {
        key,
        ...(typeof spec.title === "string" ? { title: spec.title } : {}),
        ...(typeof spec.description === "string" ? { description: spec.description } : {}),
        ...(typeof spec.type === "string" ? { type: spec.type } : {}),
        sensitive: spec.sensitive === true,
        required: spec.required === true,
        ...(fallback === undefined ? {} : { default: fallback }),
      },
    ];
  });
}

/** A settings file's object (plugin → key → value); missing or unreadable text is empty. */
export async function readConfigFile(
  fs: FsOps,
  file: string,
): Promise<Record<string, Record<string, string>>> {
  let text: string;
  try {
    text = await fs.readFile(file);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return {};
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {};
  }
  if (!isRecord(json)) return {};
  const out: Record<string, Record<string, string>> = {};
  for (const [plugin, values] of Object.entries(json)) {
    if (!isRecord(values) || plugin === "__proto__") continue;
    out[plugin] = Object.fromEntries(
      Object.entries(values).flatMap(([k, v]) =>
        typeof v === "string" && k !== "__proto__" ? [[k, v]] : [],
      ),
    );
  }
  return out;
}

/** The plugin's configured values from both files (a file that cannot be read gives none). */
export async function readUserConfigValues(
  fs: FsOps,
  home: string,
  plugin: string,
): Promise<UserConfigValues> {
  const [values, secrets] = await Promise.all([
    readConfigFile(fs, pluginConfigFile(home)).catch(() => ({})),
    readConfigFile(fs, pluginSecretsFile(home)).catch(() => ({})),
  ]);
  return {
    values: (values as Record<string, Record<string, string>>)[plugin] ?? {},
    secrets: (secrets as Record<string, Record<string, string>>)[plugin] ?? {},
  };
}

/**
 * Each option's value for substitution: the configured value (sensitive ones from the secrets file only), else
 * its default. Pure.
 */
export function effectiveUserConfig(
  options: readonly UserConfigOption[],
  configured: UserConfigValues,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const option of options) {
    const value = option.sensitive ? configured.secrets[option.key] : configured.values[option.key];
    const chosen = value ?? option.default;
    if (chosen !== undefined) out[option.key] = chosen;
  }
  return out;
}

/** The keys `text` references as `${user_config.KEY}`. Pure. */
export function referencedKeys(text: string): string[] {
  return [
    ...new Set(
      [...text.matchAll(USER_CONFIG_PLACEHOLDER)].flatMap((m) => (m[1] === undefined ? [] : [m[1]])),
    ),
  ];
}

/** Options with no value that are required or referenced by the plugin's hooks or MCP configs. Pure. */
export function missingUserConfig(
  options: readonly UserConfigOption[],
  effective: Readonly<Record<string, string>>,
  referenced: readonly string[],
): UserConfigOption[] {
  return options.filter((o) => effective[o.key] === undefined && (o.required || referenced.includes(o.key)));
}

/** The command that sets a plugin's missing settings, for messages. Pure. */
export function configureHint(plugin: string, keys: readonly string[]): string {
  return `skillwright plugin configure ${plugin} ${keys.map((k) => `${k}=<value>`).join(" ")}`;
}
