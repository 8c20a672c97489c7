import type { ProjectApprovalKey } from "../../config/project-approval.js";
import { grantsText, PROJECT_PERMISSIONS_KEY } from "../../config/project-permissions.js";
import type { Engine } from "../../engine/engine.js";
import { PROJECT_HOOKS_KEY } from "../../hooks/settings-hooks.js";
import type { CliIo } from "../io.js";
import { updateLocalSettings } from "../local-settings.js";
import { usageLines } from "../usage.js";

/** What a project's committed settings can grant once approved: `hooks` run, `permissions` rules apply. */
export type ProjectApprovalTopic = "hooks" | "permissions";

const KEYS: Record<ProjectApprovalTopic, ProjectApprovalKey> = {
  hooks: PROJECT_HOOKS_KEY,
  permissions: PROJECT_PERMISSIONS_KEY,
};

/**
 * `skillwright hooks approve` / `skillwright permissions approve`: lets the hooks (or the `allow` rules and
 * `additionalDirectories`) of the project's committed settings files (`.claude/settings.json`,
 * `.skillwright/settings.json`) take effect, by setting `enableProjectHooks` (or `enableProjectPermissions`) to
 * true in `<project>/.claude/settings.local.json` (created when missing; other keys kept). Prints what it
 * approves. Exit 1 when the file cannot be updated, 2 on a usage error.
 */
export async function projectApprovalCommand(
  engine: Engine,
  io: CliIo,
  topic: ProjectApprovalTopic,
  positionals: readonly string[],
): Promise<number> {
  const [sub, ...rest] = positionals;
  if (sub !== "approve" || rest.length > 0) {
    io.stderr(usageLines(topic));
    return 2;
  }
  const key = KEYS[topic];
  const extensions = await engine.extensions();
  const written = await updateLocalSettings(engine, (current) => ({ ...current, [key]: true }));
  if (!written.ok) {
    io.stderr(`${written.message}\n`);
    return 1;
  }
  const waiting =
    topic === "hooks"
      ? extensions.settingsHooks.pending.map((file) => `the hooks in ${file}`)
      : extensions.permissions.pending.map((p) => `${grantsText(p)} (${p.file})`);
  io.stdout(
    `Approved the project's settings ${topic} in ${written.file} (${key}: true).\n` +
      (waiting.length === 0 ? `No ${topic} were waiting.\n` : `Now in effect: ${waiting.join("; ")}.\n`),
  );
  return 0;
}
