import type { ContentBlock, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import { lazy } from "../lazy.js";
import { defineTool, type Tool, type ToolInputSchema } from "../tools/define-tool.js";
import { toToolContent } from "./tools.js";

/** Claude Code's name for the tool, so permission rules and hook matchers written for it apply unchanged. */
export const READ_MCP_RESOURCE_TOOL = "ReadMcpResourceTool";

/** The zod input schema, built on first use (exported for the schema drift test). */
export const readResourceInput = lazy(() =>
  z.strictObject({
    server: z.string().min(1).describe("The MCP server's name, as in mcp__{server}__…"),
    uri: z.string().min(1).describe("The resource URI, e.g. skill://greet/reference.md"),
  }),
);

/** The tool's `input_schema`; test/mcp/resource-tool.test.ts keeps it equal to what zod generates. */
export const READ_MCP_RESOURCE_INPUT_SCHEMA: ToolInputSchema = {
  type: "object",
  properties: {
    server: { type: "string", minLength: 1, description: "The MCP server's name, as in mcp__{server}__…" },
    uri: { type: "string", minLength: 1, description: "The resource URI, e.g. skill://greet/reference.md" },
  },
  required: ["server", "uri"],
  additionalProperties: false,
};

/** Reads one resource from a configured server (`resources/read`). Rejects for an unknown server or URI. */
export type ReadMcpResource = (
  server: string,
  uri: string,
  signal: AbortSignal,
) => Promise<ReadResourceResult>;

/**
 * The resource contents as MCP content blocks: text as text, images as images, other blobs as a note naming
 * the URI and type (the result content caps apply afterwards, in `toToolContent`). Pure.
 */
export function resourceBlocks(result: ReadResourceResult): ContentBlock[] {
  return result.contents.map((item): ContentBlock => {
    if ("text" in item && typeof item.text === "string") return { type: "text", text: item.text };
    const mimeType = item.mimeType ?? "application/octet-stream";
    if ("blob" in item && typeof item.blob === "string" && mimeType.startsWith("image/")) {
      return { type: "image", mimeType, data: item.blob };
    }
    return { type: "resource", resource: { uri: item.uri, mimeType, blob: "" } };
  });
}

/**
 * `ReadMcpResourceTool`: reads a resource of a connected MCP server, such as a supporting file of an MCP skill
 * (whose `Base directory` is a URI, so the Read tool cannot open it). Read-only.
 */
export function createReadMcpResourceTool(read: ReadMcpResource, servers: readonly string[]): Tool {
  return defineTool({
    name: READ_MCP_RESOURCE_TOOL,
    description:
      `Reads a resource from an MCP server (servers: ${servers.join(", ")}). Use it for the files of an MCP ` +
      "skill: its base directory is a URI (e.g. skill://name), so read skill://name/reference.md here, not with Read.",
    input: readResourceInput,
    inputSchema: READ_MCP_RESOURCE_INPUT_SCHEMA,
    readOnly: true,
    subject: (input) => `${input.server} ${input.uri}`,
    async execute(input, ctx) {
      const result = await read(input.server, input.uri, ctx.signal);
      const content = toToolContent(resourceBlocks(result));
      return { content: content.length === 0 ? `${input.uri}: the server returned no content` : content };
    },
  });
}
