import type { ModelContentBlock, ModelMessage } from "../agent/model-types.js";

/** What heads an exported conversation. */
export interface ExportHeader {
  sessionId: string;
  name: string | undefined;
  model: string;
  exportedAt: string;
}

/** Text without the `<system-reminder>` blocks the engine adds (the listing, notes): what a person wrote or read. Pure. */
export function withoutReminders(text: string): string {
  return text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, "").trim();
}

/** A fence longer than any run of backticks in `text`, so the text cannot close it. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return "`".repeat(longest + 1);
}

function fenced(text: string, lang = ""): string {
  const f = fence(text);
  return `${f}${lang}\n${text}\n${f}`;
}

function blockMarkdown(block: ModelContentBlock): string {
  switch (block.type) {
    case "text":
      return withoutReminders(block.text);
    case "image":
      return `_[image: ${block.source.media_type}]_`;
    case "tool_use":
      return `**Tool call: ${block.name}**\n\n${fenced(JSON.stringify(block.input, null, 2), "json")}`;
    case "tool_result": {
      const text =
        typeof block.content === "string"
          ? block.content
          : block.content
              .map((b) =>
                b.type === "text"
                  ? b.text
                  : b.type === "image"
                    ? `[image: ${b.source.media_type}]`
                    : `[tool revealed: ${b.tool_name}]`,
              )
              .join("\n");
      return `**Tool result${block.is_error === true ? " (error)" : ""}**\n\n${fenced(text)}`;
    }
  }
}

/**
 * The conversation as Markdown, as the interactive `/export` writes it: a header, then each message under its
 * role (reminders left out), tool calls and results in fences that their own text cannot close. Pure.
 */
export function conversationMarkdown(messages: readonly ModelMessage[], header: ExportHeader): string {
  const title = header.name ?? `Session ${header.sessionId}`;
  const parts = [
    `# ${title}`,
    `Session ${header.sessionId} · model ${header.model} · exported ${header.exportedAt}`,
  ];
  for (const message of messages) {
    const blocks =
      typeof message.content === "string" ? [message.content] : message.content.map(blockMarkdown);
    parts.push(`## ${message.role === "user" ? "User" : "Assistant"}`, ...blocks.filter((b) => b !== ""));
  }
  return `${parts.join("\n\n")}\n`;
}
