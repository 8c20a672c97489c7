import { dirname, join } from "node:path";
import { isatty } from "node:tty";
import type { InstallerDeps } from "../install/installer-deps.js";
import { writeFileAtomic } from "../io/atomic-write.js";
import { errorMessage, pathKind } from "../io/fs.js";
import { writePrivateFile } from "../io/private-file.js";
import { isRecord } from "../is-record.js";
import { pluginInstallRoot } from "../plugins/find-plugins.js";
import {
  pluginConfigFile,
  pluginSecretsFile,
  readConfigFile,
  type UserConfigOption,
  userConfigOptions,
} from "../plugins/user-config.js";
import type { CliIo } from "./io.js";

/** Reads one line from the terminal; a sensitive answer is not echoed. */
async function askTerminal(io: CliIo, question: string, secret: boolean): Promise<string> {
  const { createInterface } = await import("node:readline/promises");
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const output = rl as unknown as { _writeToOutput?: (text: string) => void };
  try {
    io.stderr(question);
    if (secret) output._writeToOutput = () => undefined;
    return (await rl.question("")).trim();
  } finally {
    rl.close();
    if (secret) io.stderr("\n");
  }
}

function optionPrompt(option: UserConfigOption): string {
  const about = option.description ?? option.title ?? "";
  return `${option.key}${about === "" ? "" : ` (${about})`}${option.sensitive ? " [sensitive, not shown]" : ""}: `;
}

/**
 * `skillwright plugin configure <name> [key=value...]`: sets an installed plugin's `userConfig` values. Sensitive
 * ones go to `~/.skillwright/plugins/secrets.json` (mode 0600, only the user can read it), the others to
 * `~/.skillwright/plugins/config.json`; no value is ever printed. Without pairs, asks for each setting in a
 * terminal, else lists which are set. Returns the exit code.
 */
export async function configurePlugin(
  io: CliIo,
  deps: InstallerDeps,
  name: string,
  pairs: readonly string[],
): Promise<number> {
  const dir = join(pluginInstallRoot(deps.home), name);
  if ((await pathKind(deps.fs, dir)) !== "dir") {
    deps.err(`no installed plugin named ${name} (${pluginInstallRoot(deps.home)})`);
    return 1;
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(await deps.fs.readFile(join(dir, ".claude-plugin", "plugin.json")));
  } catch {
    manifest = {};
  }
  const options = userConfigOptions(isRecord(manifest) ? manifest.userConfig : undefined);
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
        `${pair.includes("=") ? `"${key}"` : `"${pair}" (give key=value)`}: not a setting of ${name}; it has ${options.map((o) => o.key).join(", ")}`,
      );
      return 2;
    }
    updates.set(key, pair.slice(eq + 1));
  }
  const [values, secrets] = await Promise.all([
    readConfigFile(deps.fs, pluginConfigFile(deps.home)),
    readConfigFile(deps.fs, pluginSecretsFile(deps.home)),
  ]);
  if (pairs.length === 0) {
    if (!isatty(0)) {
      for (const o of options) {
        const set = (o.sensitive ? secrets : values)[name]?.[o.key] !== undefined;
        deps.out(
          `${o.key}: ${set ? "set" : o.default === undefined ? "not set" : "default"}${o.sensitive ? " (sensitive)" : ""}`,
        );
      }
      return 0;
    }
    for (const o of options) {
      const answer = await askTerminal(io, optionPrompt(o), o.sensitive);
      if (answer !== "") updates.set(o.key, answer);
    }
  }
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
