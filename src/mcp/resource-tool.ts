import type { ContentBlock, ReadResourceResult } from "@modelcontextprotocol/client";
import * as z from "zod";
import { lazy } from "../lazy.js";
import { defineTool, type Tool } from "../tools/define-tool.js";
import { READ_MCP_RESOURCE_INPUT_SCHEMA } from "../tools/input-schemas.js";
import { toToolContent } from "./tools.js";

/** Claude Code's name for the tool, so permission rules and hook matchers written for it apply unchanged. */
export const READ_MCP_RESOURCE_TOOL = "ReadMcpResourceTool";

/** The zod input schema, built on first use; the single source of the tool's `input_schema`. */
export const readResourceInput = lazy(() =>
  z.strictObject({
    server: z.string().min(1).describe("The MCP server's name, as in mcp__{server}__…"),
    uri: z.string().min(1).describe("The resource URI, e.g. skill://greet/reference.md"),
  }),
);

/** Reads one resource from a configured server (`resources/read`). Rejects for an unknown server or URI. */
export type ReadMcpResource = (
  server: string,
  uri: string,
  signal?: AbortSignal,
) => Promise<ReadResourceResult>;

const TEXT_MIME_TYPES = new Set([
  "application/json",
  "application/xml",
  "application/yaml",
  "application/x-yaml",
  "application/toml",
  "application/javascript",
  "application/ecmascript",
  "application/typescript",
  "application/x-sh",
  "application/x-shellscript",
  "application/x-python",
  "application/x-python-code",
  "application/x-ruby",
  "application/x-perl",
  "application/sql",
  "application/graphql",
  "application/x-httpd-php",
]);

/** Types that say nothing about the bytes: the bytes themselves decide. */
const GENERIC_MIME_TYPES = new Set(["application/octet-stream", "binary/octet-stream", ""]);

/** True for a MIME type whose content is text (`text/*`, JSON/XML/YAML, scripts, `charset=` given). Pure. */
export function isTextMimeType(mimeType: string): boolean {
  const [essence = "", ...params] = mimeType
    .toLowerCase()
    .split(";")
    .map((p) => p.trim());
  if (params.some((p) => p.startsWith("charset="))) return true;
  return (
    essence.startsWith("text/") ||
    TEXT_MIME_TYPES.has(essence) ||
    essence.endsWith("+json") ||
    essence.endsWith("+xml") ||
    essence.endsWith("+yaml")
  );
}

/** The base64 `blob` as UTF-8 text, or undefined when its bytes are not valid UTF-8 or hold control bytes. */
export function decodeTextBlob(blob: string): string | undefined {
  const bytes = Buffer.from(blob, "base64");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  // NUL and other C0 controls (bar tab, newline, vertical tab, form feed, carriage return) mark binary data.
  const binary = bytes.some((b) => b < 0x20 && (b < 0x09 || b > 0x0d));
  return binary ? undefined : text;
}

/**
 * The resource contents as MCP content blocks: text as text; blobs that are text (a text-like MIME type such as
 * `text/x-python` or `text/markdown`, or a generic/missing type whose bytes are UTF-8 text) decoded as text, so
 * an MCP skill's `scripts/` and `references/` reach the model; images as images; other blobs as a note naming
 * the URI and type (the result content caps apply afterwards, in `toToolContent`). Pure.
 */
export function resourceBlocks(result: ReadResourceResult): ContentBlock[] {
  return result.contents.map((item): ContentBlock => {
    if ("text" in item && typeof item.text === "string") return { type: "text", text: item.text };
    const declared = item.mimeType ?? "";
    const mimeType = declared === "" ? "application/octet-stream" : declared;
    if ("blob" in item && typeof item.blob === "string") {
      if (mimeType.startsWith("image/")) return { type: "image", mimeType, data: item.blob };
      const essence = declared.toLowerCase().split(";")[0]?.trim() ?? "";
      if (isTextMimeType(declared) || GENERIC_MIME_TYPES.has(essence)) {
        const text = decodeTextBlob(item.blob);
        if (text !== undefined) return { type: "text", text };
      }
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
