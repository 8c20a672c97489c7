import type { Engine } from "../engine/engine.js";
import type { CliIo } from "./io.js";

/**
 * Before a run: one stderr line naming the project and plugin MCP servers that will not start because they
 * wait for approval, and one each naming the project settings files whose hooks do not run or whose permission
 * grants do not apply for the same reason (the `mcp-unapproved`, `hooks-unapproved` and `permissions-unapproved`
 * diagnostics say the same in `doctor`). Nothing when all is approved.
 */
export async function noticeUnapproved(engine: Engine, io: CliIo): Promise<void> {
  const { mcpServers, settingsHooks, permissions } = await engine.extensions();
  const pending = mcpServers.filter((s) => s.approval.state === "pending").map((s) => s.name);
  if (pending.length > 0) {
    const list = pending.map((n) => `"${n}"`).join(", ");
    io.stderr(
      `skillwright: MCP server${pending.length === 1 ? "" : "s"} ${list} not started (not approved); run \`skillwright mcp approve <name>\` or see \`skillwright doctor\`\n`,
    );
  }
  if (settingsHooks.pending.length > 0) {
    io.stderr(
      `skillwright: hooks in ${settingsHooks.pending.join(", ")} not run (a project's committed settings need approval); run \`skillwright hooks approve\` or see \`skillwright doctor\`\n`,
    );
  }
  if (permissions.pending.length > 0) {
    io.stderr(
      `skillwright: permission grants in ${permissions.pending.map((p) => p.file).join(", ")} not applied (a project's committed settings need approval); run \`skillwright permissions approve\` or see \`skillwright doctor\`\n`,
    );
  }
}
