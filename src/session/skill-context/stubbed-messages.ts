import type { ModelContentBlock, ModelMessage } from "../../agent/model-types.js";

/**
 * Where an expired expansion sits in the conversation: a text block of a user message, by position. `stub`
 * replaces the block's whole text, or only `part` of it (a skill's section of the block that re-attaches skills
 * after compaction); `drop` removes the block (a re-invocation note whose body was stubbed).
 */
export type ExpiredSpan =
  | { kind: "stub"; message: number; block: number; stub: string; part?: string }
  | { kind: "drop"; message: number; block: number };

/**
 * The messages as the model is sent them: each span applied to a copy of its message (the others are the same
 * objects). A span whose position holds no text block, or whose `part` is not in it, is skipped; a message
 * never loses its last block. Pure: `messages` is not changed.
 */
export function stubbedMessages(
  messages: readonly ModelMessage[],
  spans: readonly ExpiredSpan[],
): ModelMessage[] {
  if (spans.length === 0) return [...messages];
  const byMessage = new Map<number, ExpiredSpan[]>();
  for (const span of spans) {
    const list = byMessage.get(span.message) ?? [];
    list.push(span);
    byMessage.set(span.message, list);
  }
  return messages.map((message, index) => {
    const own = byMessage.get(index);
    if (own === undefined || typeof message.content === "string") return message;
    const content: (ModelContentBlock | undefined)[] = [...message.content];
    for (const span of own) {
      const block = content[span.block];
      if (block === undefined || block.type !== "text") continue;
      if (span.kind === "drop") content[span.block] = undefined;
      else if (span.part === undefined) content[span.block] = { type: "text", text: span.stub };
      else if (block.text.includes(span.part))
        content[span.block] = { type: "text", text: block.text.replace(span.part, () => span.stub) };
    }
    const kept = content.filter((b): b is ModelContentBlock => b !== undefined);
    return { role: message.role, content: kept.length === 0 ? message.content : kept };
  });
}
