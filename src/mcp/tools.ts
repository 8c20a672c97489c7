import type { CallToolResult, ContentBlock, Tool as McpTool } from "@modelcontextprotocol/client";
import { errorMessage } from "../io/fs.js";
import {
  ABORTED_TEXT,
  errorResult,
  IMAGE_MEDIA_TYPES,
  type ImageMediaType,
  RESULT_LIMITS,
  type Tool,
  type ToolContent,
  type ToolInputSchema,
  type ToolResult,
} from "../tools/define-tool.js";
import { formatBytes, truncateHead } from "../tools/truncate.js";
import { contentBlockText } from "./content.js";

/** Longest tool description passed on to the model; longer ones are cut and end in `…`. */
export const MAX_TOOL_DESCRIPTION_CHARS = 2_048;

/** Largest image (decoded bytes) passed on as an image block; larger ones become a text note. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The text of a successful call that returned no content at all. */
export const NO_CONTENT_TEXT = "(no content)";

/** Calls the tool on its server (`tools/call`). May reject (transport errors, timeouts, abort). */
export type CallMcpTool = (
  tool: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<CallToolResult>;

function isImageType(mime: string): mime is ImageMediaType {
  return (IMAGE_MEDIA_TYPES as readonly string[]).includes(mime);
}

function capText(text: string): string {
  const cut = truncateHead(text, RESULT_LIMITS);
  if (!cut.truncated) return text;
  return (
    `${cut.text}\n\n[Output truncated: kept the first ${cut.keptLines} of ${cut.totalLines} lines ` +
    `(${formatBytes(cut.keptBytes)} of ${formatBytes(cut.totalBytes)}).]`
  );
}

/**
 * MCP content blocks as tool-result content: text as text (capped at `RESULT_LIMITS`), PNG/JPEG/GIF/WebP
 * images up to `MAX_IMAGE_BYTES` as image blocks, everything else (audio, other images, resources) as
 * text. Pure.
 */
export function toToolContent(blocks: readonly ContentBlock[]): ToolContent[] {
  return blocks.map((block): ToolContent => {
    if (
      block.type === "image" &&
      isImageType(block.mimeType) &&
      (block.data.length * 3) / 4 <= MAX_IMAGE_BYTES
    ) {
      return { type: "image", source: { type: "base64", media_type: block.mimeType, data: block.data } };
    }
    return { type: "text", text: capText(contentBlockText(block)) };
  });
}

/**
 * A `tools/call` result as a `ToolResult`: its content (`toToolContent`), the structured content as JSON
 * when there is no other content, `(no content)` when there is nothing, and `isError` as the server set it.
 */
export function toToolResult(result: CallToolResult): ToolResult {
  let content = toToolContent(result.content ?? []);
  if (content.length === 0 && result.structuredContent !== undefined) {
    content = [{ type: "text", text: capText(JSON.stringify(result.structuredContent, null, 2)) }];
  }
  if (content.length === 0) content = [{ type: "text", text: NO_CONTENT_TEXT }];
  return { content, isError: result.isError === true, touchedPaths: [] };
}

function describeTool(server: string, tool: McpTool): string {
  const text = (tool.description ?? "").trim();
  if (text === "") return `Tool ${tool.name} from MCP server ${server}`;
  return text.length <= MAX_TOOL_DESCRIPTION_CHARS
    ? text
    : `${text.slice(0, MAX_TOOL_DESCRIPTION_CHARS - 1)}…`;
}

function inputSchemaOf(tool: McpTool): ToolInputSchema {
  const { $schema: _dropped, ...schema } = tool.inputSchema;
  return { ...schema, type: "object" };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * An MCP tool as a `Tool` named `name` (`mcp__{server}__{tool}`): the server's JSON schema as `inputSchema`,
 * `readOnly` from `annotations.readOnlyHint`, no permission subject. `run` never rejects: a non-object
 * input, a failing or lost server, a timeout and an abort (`Aborted`) are all `isError` results; the
 * server's own `isError` is kept.
 */
export function mcpToolToTool(options: {
  name: string;
  server: string;
  tool: McpTool;
  call: CallMcpTool;
}): Tool {
  const { name, server, tool } = options;
  return {
    name,
    description: describeTool(server, tool),
    inputSchema: inputSchemaOf(tool),
    readOnly: tool.annotations?.readOnlyHint === true,
    subject: () => undefined,
    async run(rawInput, ctx) {
      if (ctx.signal.aborted) return errorResult(ABORTED_TEXT);
      const input = rawInput ?? {};
      if (!isPlainObject(input)) return errorResult(`Invalid input for ${name}: expected an object`);
      try {
        return toToolResult(await options.call(tool.name, input, ctx.signal));
      } catch (error) {
        if (ctx.signal.aborted) return errorResult(ABORTED_TEXT);
        return errorResult(`${name} failed: ${errorMessage(error)}`);
      }
    },
  };
}
