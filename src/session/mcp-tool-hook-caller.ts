import { randomUUID } from "node:crypto";
import type { AgentTool } from "../agent/loop.js";
import type { McpToolCaller } from "../hooks/run-mcp-tool-hook.js";
import { mcpName } from "../mcp/names.js";

/**
 * The session's caller for `type: mcp_tool` hooks: the session's own MCP tool `mcp__{server}__{tool}` (among
 * `tools`, as the model is offered it), run directly, outside the tool gate (a hook is not the model's call);
 * the answer is its text blocks joined. Undefined for a tool the session does not have.
 */
export function mcpToolHookCaller(
  tools: () => readonly AgentTool[],
  cwd: string,
  model: string,
): McpToolCaller {
  return async ({ server, tool, args }, signal) => {
    const name = mcpName(server, tool);
    const found = tools().find((t) => t.name === name);
    if (found === undefined) return undefined;
    const result = await found.run(args, {
      cwd,
      signal,
      toolUseId: `hook_${randomUUID().replaceAll("-", "").slice(0, 24)}`,
      turn: { model, grants: [], removedTools: [] },
    });
    const text = result.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
    return { text, isError: result.isError };
  };
}
