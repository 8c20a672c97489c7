import * as z from "zod";
import { lazy } from "../lazy.js";
import { defineTool, type Tool } from "../tools/define-tool.js";
import { LIST_MCP_RESOURCES_INPUT_SCHEMA } from "../tools/input-schemas.js";

/** One resource of a server, as `ListMcpResourcesTool` shows it. */
export interface McpResourceEntry {
  server: string;
  uri: string;
  name: string;
  mimeType?: string;
  description?: string;
}

/** Claude Code's name for the tool, so permission rules and hook matchers written for it apply unchanged. */
export const LIST_MCP_RESOURCES_TOOL = "ListMcpResourcesTool";

/** What the tool answers when no server has a resource. */
export const NO_RESOURCES_TEXT =
  "No resources found. MCP servers may still provide tools even if they have no resources.";

/** The zod input schema, built on first use; the single source of the tool's `input_schema`. */
export const listResourcesInput = lazy(() =>
  z.strictObject({
    server: z.string().min(1).optional().describe("Only this MCP server's resources (default: every server)"),
  }),
);

/** Lists the resources of one server, or of every connected server with resources. */
export type ListMcpResources = (
  server: string | undefined,
  signal: AbortSignal,
) => Promise<McpResourceEntry[]>;

/**
 * `ListMcpResourcesTool` (Claude Code's, input `{server?}`): the resources of the connected MCP servers as a
 * JSON array of `{uri, name, mimeType?, description?, server}`, so the model can find a server's catalog (for
 * example its `skill://` files) and read entries with `ReadMcpResourceTool`. Read-only.
 */
export function createListMcpResourcesTool(list: ListMcpResources, servers: readonly string[]): Tool {
  return defineTool({
    name: LIST_MCP_RESOURCES_TOOL,
    description:
      `Lists the resources of the connected MCP servers (servers: ${servers.join(", ")}). Each entry names its ` +
      "server; read one with ReadMcpResourceTool.",
    input: listResourcesInput,
    inputSchema: LIST_MCP_RESOURCES_INPUT_SCHEMA,
    readOnly: true,
    subject: (input) => input.server,
    async execute(input, ctx) {
      const entries = await list(input.server, ctx.signal);
      if (entries.length === 0) return { content: NO_RESOURCES_TEXT };
      const shown = entries.map(({ server, ...rest }) => ({ ...rest, server }));
      return { content: JSON.stringify(shown, null, 2) };
    },
  });
}
