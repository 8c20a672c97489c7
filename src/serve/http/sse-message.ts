import type { SessionEvent } from "../store/sessions.js";

/**
 * One session event as an SSE message: `event: <type>`, its JSON on one `data:` line, `id: <id>`, as hono's
 * `writeSSE` writes it (JSON.stringify escapes every line break; a type or id holding one throws, as there).
 * Pure.
 */
export function sseMessage(event: SessionEvent): string {
  if (/[\r\n]/.test(event.type) || /[\r\n]/.test(event.id))
    throw new Error(`an event's type and id must not contain "\\r" or "\\n"`);
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\nid: ${event.id}\n\n`;
}
