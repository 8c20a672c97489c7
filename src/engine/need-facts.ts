import { delimiter, isAbsolute, join } from "node:path";
import type { FsOps } from "../io/fs.js";
import type { McpServerEntry } from "../mcp/approval.js";
import type { McpServerState, NeedFacts } from "../skill/skill-needs.js";

/** What a configured server's approval means for a skill that needs it. Pure. */
export function mcpServerState(entries: readonly McpServerEntry[], name: string): McpServerState {
  const entry = entries.find((e) => e.name === name);
  if (entry === undefined) return "not configured";
  if (entry.approval.state === "disabled") return "disabled";
  if (entry.approval.state === "pending") return "waiting for approval";
  return "ready";
}

/**
 * The facts skill needs are checked against on the CLI's host: `commands` looked up in the `PATH` of `env`
 * (a regular file in one of its folders; a name with a `/` is not looked up), the variables of `env`, and the
 * configured MCP servers with their approvals. Reads only the few paths the commands name.
 */
export async function hostNeedFacts(input: {
  fs: FsOps;
  env: Readonly<Record<string, string | undefined>>;
  commands: readonly string[];
  mcpServers: readonly McpServerEntry[];
}): Promise<NeedFacts> {
  const dirs = (input.env.PATH ?? "").split(delimiter).filter((d) => d !== "" && isAbsolute(d));
  const found = new Set<string>();
  for (const command of input.commands) {
    if (command.includes("/") || command.includes("\\")) continue;
    for (const dir of dirs) {
      const stat = await input.fs.stat(join(dir, command)).catch(() => undefined);
      if (stat?.kind === "file") {
        found.add(command);
        break;
      }
    }
  }
  return {
    onPath: (name) => found.has(name),
    env: (name) => input.env[name],
    mcpServer: (name) => mcpServerState(input.mcpServers, name),
  };
}
