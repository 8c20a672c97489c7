import type { Engine } from "../../engine/engine.js";
import { PROJECT_HOOKS_KEY } from "../../hooks/settings-hooks.js";
import type { CliIo } from "../io.js";
import { updateLocalSettings } from "../local-settings.js";

/** The usage line of the `hooks` subcommand. */
export const HOOKS_USAGE = "usage: skillwright hooks approve\n";

/**
 * `skillwright hooks approve`: lets the hooks in the project's committed settings files (`.claude/settings.json`,
 * `.skillwright/settings.json`) run, by setting `enableProjectHooks: true` in `<project>/.claude/settings.local.json`
 * (created when missing; other keys kept). Prints the files whose hooks it approves. Exit 1 when the file
 * cannot be updated.
 */
export async function hooksCommand(
  engine: Engine,
  io: CliIo,
  positionals: readonly string[],
): Promise<number> {
  const [sub, ...rest] = positionals;
  if (sub !== "approve" || rest.length > 0) {
    io.stderr(HOOKS_USAGE);
    return 2;
  }
  const { settingsHooks } = await engine.extensions();
  const written = await updateLocalSettings(engine, (current) => ({ ...current, [PROJECT_HOOKS_KEY]: true }));
  if (!written.ok) {
    io.stderr(`${written.message}\n`);
    return 1;
  }
  const files = settingsHooks.pending;
  io.stdout(
    `Approved the project's settings hooks in ${written.file} (${PROJECT_HOOKS_KEY}: true).\n` +
      (files.length === 0 ? "No hooks were waiting.\n" : `Now run: the hooks in ${files.join(", ")}.\n`),
  );
  return 0;
}
