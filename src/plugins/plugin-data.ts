import { join } from "node:path";

/** The marketplace part of a `--plugin-dir` plugin's id (`{name}@inline`), as in Claude Code. */
export const INLINE_MARKETPLACE = "inline";

/** `{home}/.skillwright/plugins/data`: the parent of every plugin's `${CLAUDE_PLUGIN_DATA}`. Pure. */
export function pluginDataRoot(home: string): string {
  return join(home, ".skillwright", "plugins", "data");
}

/**
 * A plugin's `${CLAUDE_PLUGIN_DATA}`: `{dataRoot}/{id}`, the id `{name}@{marketplace}` with every character but
 * ASCII letters, digits, `_` and `-` replaced by `-` (Claude Code's layout: `formatter@tools` →
 * `formatter-tools`, a `--plugin-dir` plugin `notes@inline` → `notes-inline`). Pure.
 */
export function pluginDataDir(dataRoot: string, name: string, marketplace: string): string {
  return join(dataRoot, `${name}@${marketplace}`.replace(/[^A-Za-z0-9_-]/g, "-"));
}
