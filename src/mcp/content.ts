import type { ContentBlock } from "@modelcontextprotocol/client";

/**
 * One MCP content block as text: text as is, embedded text resources by their text, images, audio, blobs and
 * resource links as a short bracketed note. Pure.
 */
export function contentBlockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "resource":
      return "text" in block.resource
        ? block.resource.text
        : `[resource ${block.resource.uri}${block.resource.mimeType ? ` (${block.resource.mimeType})` : ""}]`;
    case "resource_link":
      return `[resource ${block.uri}]`;
    case "image":
      return `[image (${block.mimeType})]`;
    case "audio":
      return `[audio (${block.mimeType})]`;
    default:
      return "";
  }
}
