import { dirname, join } from "node:path";
import type { InstallerDeps } from "../install/installer-deps.js";
import { writeFileAtomic } from "../io/atomic-write.js";
import { errorMessage, pathKind } from "../io/fs.js";
import { writePrivateFile } from "../io/private-file.js";
import { isRecord } from "../is-record.js";
import { pluginInstallRoot } from "../plugins/find-plugins.js";
import {
  configureHint,
  pluginConfigFile,
  pluginSecretsFile,
  readConfigFile,
  type UserConfigOption,
  userConfigOptions,
} from "../plugins/user-config.js";
import type { TerminalAsk } from "./terminal-ask.js";

function optionPrompt(option: UserConfigOption): string {
  const about = option.description ?? option.title ?? "";
  return `${option.key}${about === "" ? "" : ` (${about})`}${option.sensitive ? " [sensitive, not shown]" : ""}: `;
}

/** An installed plugin's `userConfig` options, or why there are none to set. */
async function installedOptions(
  deps: InstallerDeps,
  name: string,
): Promise<{ options: UserConfigOption[] } | { error: string }> {
  const dir = join(pluginInstallRoot(deps.home), name);
  if ((await pathKind(deps.fs, dir)) !== "dir") {
    return { error: `no installed plugin named ${name} (${pluginInstallRoot(deps.home)})` };
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(await deps.fs.readFile(join(dir, ".claude-plugin", "plugin.json")));
  } catch {
    manifest = {};
  }
  return { options: userConfigOptions(isRecord(manifest) ? manifest.userConfig : undefined) };
}

async function readBoth(deps: InstallerDeps) {
  const [values, secrets] = await Promise.all([
    readConfigFile(deps.fs, pluginConfigFile(deps.home)),
    readConfigFile(deps.fs, pluginSecretsFile(deps.home)),
  ]);
  return { values, secrets };
}

/**
 * Saves settings of one plugin: sensitive ones into the secrets file (mode 0600, written so it is never wider),
 * the others into the config file; a key moves out of the file it no longer belongs in. Prints each key set,
 * never a value. Returns the exit code.
 */
async function saveSettings(
  deps: InstallerDeps,
  name: string,
  options: readonly UserConfigOption[],
  updates: ReadonlyMap<string, string>,
): Promise<number> {
  if (updates.size === 0) return 0;
  const { values, secrets } = await readBoth(deps);
  const nextValues = { ...values, [name]: { ...(values[name] ?? {}) } };
  const nextSecrets = { ...secrets, [name]: { ...(secrets[name] ?? {}) } };
  for (const [key, value] of updates) {
    const sensitive = options.find((o) => o.key === key)?.sensitive === true;
    const into = sensitive ? nextSecrets[name] : nextValues[name];
    const other = sensitive ? nextValues[name] : nextSecrets[name];
    if (into !== undefined) into[key] = value;
    if (other !== undefined) delete other[key];
  }
  try {
    const configFile = pluginConfigFile(deps.home);
    await deps.fs.mkdir(dirname(configFile));
    await writeFileAtomic(deps.fs, configFile, `${JSON.stringify(nextValues, null, 2)}\n`);
    await writePrivateFile(pluginSecretsFile(deps.home), `${JSON.stringify(nextSecrets, null, 2)}\n`);
  } catch (error) {
    deps.err(`cannot save the settings: ${errorMessage(error)}`);
    return 1;
  }
  for (const key of updates.keys()) {
    const sensitive = options.find((o) => o.key === key)?.sensitive === true;
    deps.out(
      `set ${name} ${key}${sensitive ? ` (sensitive: in ${pluginSecretsFile(deps.home)}, readable by you only)` : ""}`,
    );
  }
  return 0;
}

/**
 * `skillwright plugin configure <name> [key=value...]`: sets an installed plugin's `userConfig` values. Sensitive
 * ones go to `~/.skillwright/plugins/secrets.json` (mode 0600, only the user can read it), the others to
 * `~/.skillwright/plugins/config.json`; no value is ever printed. Without pairs, asks for each setting on the
 * terminal (`ask`; sensitive answers not echoed), else lists which are set. Returns the exit code.
 */
export async function configurePlugin(
  deps: InstallerDeps,
  name: string,
  pairs: readonly string[],
  ask: TerminalAsk | undefined,
): Promise<number> {
  const found = await installedOptions(deps, name);
  if ("error" in found) {
    deps.err(found.error);
    return 1;
  }
  const { options } = found;
  if (options.length === 0) {
    deps.err(`plugin ${name} declares no userConfig settings`);
    return 1;
  }
  const updates = new Map<string, string>();
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    const key = eq < 0 ? pair : pair.slice(0, eq);
    if (eq <= 0 || !options.some((o) => o.key === key)) {
      deps.err(
        `${eq < 0 ? `"${pair}" (give key=value)` : `"${key}"`}: not a setting of ${name}; it has ${options.map((o) => o.key).join(", ")}`,
      );
      return 2;
    }
    updates.set(key, pair.slice(eq + 1));
  }
  if (pairs.length === 0) {
    if (ask === undefined) {
      const { values, secrets } = await readBoth(deps);
      for (const o of options) {
        const set = (o.sensitive ? secrets : values)[name]?.[o.key] !== undefined;
        deps.out(
          `${o.key}: ${set ? "set" : o.default === undefined ? "not set" : "default"}${o.sensitive ? " (sensitive)" : ""}`,
        );
      }
      return 0;
    }
    for (const o of options) {
      const answer = await ask.line(optionPrompt(o), { secret: o.sensitive });
      if (answer !== "") updates.set(o.key, answer);
    }
  }
  return saveSettings(deps, name, options, updates);
}

/**
 * After an install or update: each installed plugin's settings that have neither a value nor a default are
 * asked for once on the terminal; without one, a line names the command that sets them. Returns the exit code.
 */
export async function askMissingSettings(deps: InstallerDeps, ask: TerminalAsk | undefined): Promise<number> {
  const root = pluginInstallRoot(deps.home);
  const names = (await deps.fs.readdir(root).catch(() => []))
    .filter((e) => e.kind === "dir" && !e.name.startsWith("."))
    .map((e) => e.name)
    .sort();
  let code = 0;
  for (const name of names) {
    const found = await installedOptions(deps, name);
    if ("error" in found || found.options.length === 0) continue;
    const { values, secrets } = await readBoth(deps);
    const missing = found.options.filter(
      (o) => o.default === undefined && (o.sensitive ? secrets : values)[name]?.[o.key] === undefined,
    );
    if (missing.length === 0) continue;
    if (ask === undefined) {
      deps.out(
        `${name} has settings to set: ${configureHint(
          name,
          missing.map((o) => o.key),
        )}`,
      );
      continue;
    }
    deps.out(`${name} has settings to set:`);
    const updates = new Map<string, string>();
    for (const o of missing) {
      const answer = await ask.line(optionPrompt(o), { secret: o.sensitive });
      if (answer !== "") updates.set(o.key, answer);
    }
    const saved = await saveSettings(deps, name, found.options, updates);
    if (saved !== 0) code = saved;
  }
  return code;
}
