import { join } from "node:path";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { errorCode, type FsOps } from "../io/fs.js";
import { isRecord } from "../is-record.js";

/** Claude Code's record of the plugins it installed from marketplaces (formats v1 and v2). */
export function claudeInstalledFile(home: string): string {
  return join(home, ".claude", "plugins", "installed_plugins.json");
}

/** A file larger than this is not read. */
export const MAX_INSTALLED_FILE_BYTES = 4_000_000;

/** One installation of a plugin that applies to the project. */
export interface ClaudeInstall {
  /** `name@marketplace`, as `enabledPlugins` keys it. */
  key: string;
  installPath: string;
}

/**
 * The plugins Claude Code installed (`~/.claude/plugins/installed_plugins.json`) that apply to `projectDir`:
 * v2 (`{ version: 2, plugins: { "name@market": [{ scope, installPath, projectPath? }] } }`) keeps `user`-scope
 * entries and `project`/`local` ones whose `projectPath` is `projectDir`; v1 (`{ plugins: { "name@market":
 * { installPath } } }`) has no scopes. A missing file is no plugins; a malformed one is a warning. Whether a
 * plugin is enabled is the caller's business (`enabledPlugins`). Never throws.
 */
export async function readClaudeInstalled(
  fs: FsOps,
  home: string,
  projectDir: string,
): Promise<{ installs: Map<string, ClaudeInstall>; diagnostics: Diagnostic[] }> {
  const file = claudeInstalledFile(home);
  const installs = new Map<string, ClaudeInstall>();
  const bad = (why: string) => ({
    installs,
    diagnostics: [diagnostic("warning", "plugin-invalid", `Claude Code's installed plugins: ${why}`, file)],
  });
  let parsed: unknown;
  try {
    const stat = await fs.stat(file);
    if (stat.size > MAX_INSTALLED_FILE_BYTES) return bad(`over ${MAX_INSTALLED_FILE_BYTES} bytes; not read`);
    parsed = JSON.parse(await fs.readFile(file));
  } catch (error) {
    if (errorCode(error) === "ENOENT") return { installs, diagnostics: [] };
    return bad(error instanceof SyntaxError ? `not valid JSON (${error.message})` : String(error));
  }
  const plugins = isRecord(parsed) ? parsed.plugins : undefined;
  if (!isRecord(plugins)) return bad("no `plugins` object");
  for (const [key, value] of Object.entries(plugins)) {
    const entries = Array.isArray(value) ? value : [value];
    const applies = entries.find(
      (entry): entry is Record<string, unknown> =>
        isRecord(entry) &&
        typeof entry.installPath === "string" &&
        entry.installPath !== "" &&
        (entry.scope === undefined || entry.scope === "user" || entry.projectPath === projectDir),
    );
    if (applies !== undefined) installs.set(key, { key, installPath: String(applies.installPath) });
  }
  return { installs, diagnostics: [] };
}
