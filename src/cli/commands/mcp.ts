import type { Engine } from "../../engine/engine.js";
import { MCP_APPROVAL_KEYS } from "../../mcp/approval.js";
import type { CliIo } from "../io.js";
import { updateLocalSettings } from "../local-settings.js";
import { usageLines } from "../usage.js";

/** The usage line of the `mcp` subcommand. */

/**
 * Adds `name` to `enabledMcpjsonServers` of a settings object (and drops it from that object's own
 * `disabledMcpjsonServers`), keeping every other key. Returns the new object; `settings` is not changed. Pure.
 */
export function withApproval(settings: Record<string, unknown>, name: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...settings };
  const current = out[MCP_APPROVAL_KEYS.enabled];
  const enabled: unknown[] = Array.isArray(current) ? [...current] : [];
  if (!enabled.includes(name)) enabled.push(name);
  out[MCP_APPROVAL_KEYS.enabled] = enabled;
  const disabled = out[MCP_APPROVAL_KEYS.disabled];
  if (Array.isArray(disabled)) out[MCP_APPROVAL_KEYS.disabled] = disabled.filter((n) => n !== name);
  return out;
}

/**
 * `skillwright mcp approve <name>`: lets a project (`.mcp.json`) or plugin MCP server start, by merging the
 * name into `enabledMcpjsonServers` of `<project>/.claude/settings.local.json` (created when missing; other
 * keys kept). Exit 1 for a name no config defines or a settings file that is not a JSON object.
 */
export async function mcpCommand(engine: Engine, io: CliIo, positionals: readonly string[]): Promise<number> {
  const [sub, name, ...rest] = positionals;
  if (sub !== "approve" || name === undefined || rest.length > 0) {
    io.stderr(usageLines("mcp"));
    return 2;
  }
  const extensions = await engine.extensions();
  const entry = extensions.mcpServers.find((s) => s.name === name);
  if (entry === undefined) {
    const known = extensions.mcpServers.map((s) => s.name);
    io.stderr(
      `No MCP server "${name}" in .mcp.json, --mcp-config or a plugin${known.length > 0 ? ` (servers: ${known.join(", ")})` : ""}.\n`,
    );
    return 1;
  }
  const written = await updateLocalSettings(engine, (current) => withApproval(current, name));
  if (!written.ok) {
    io.stderr(`${written.message}\n`);
    return 1;
  }
  const { file } = written;
  io.stdout(`Approved MCP server "${name}" in ${file}.\n`);
  if (entry.approval.state === "disabled" && entry.approval.by !== file) {
    io.stdout(`It stays off: ${MCP_APPROVAL_KEYS.disabled} in ${entry.approval.by} lists it (that wins).\n`);
  }
  return 0;
}
