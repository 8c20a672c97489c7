import type { AgentEvent } from "../agent/events.js";
import { isRecord } from "../is-record.js";

/** What the interactive mode prints of the main agent's text, fed every event of a turn in order. */
export interface MessagePrinter {
  /** Takes one event; prints what it owes before the event's own line (call before printing that line). */
  event(event: AgentEvent): void;
  /** Prints a message still held (at the end of the turn). */
  flush(): void;
}

/**
 * True when one of `configs` (settings-shaped hooks objects: the settings', each plugin's, each skill's `hooks`)
 * has a `MessageDisplay` entry. Pure.
 */
export function hasMessageDisplayHook(configs: readonly unknown[]): boolean {
  return configs.some((config) => isRecord(config) && config.MessageDisplay !== undefined);
}

/**
 * The printer of the interactive mode. Without `MessageDisplay` hooks (`held` false) the main agent's text is
 * streamed as it arrives. With them, each main-agent message is held until it is complete, then printed as the
 * hook's `displayContent` (the `message_display` event that follows it) or, when no hook replaced it, as it was
 * (at the end of its model turn, when its hooks have run); the conversation keeps the original either way. Sub-agents' text is
 * never printed here.
 */
export function createMessagePrinter(out: (text: string) => void, held: boolean): MessagePrinter {
  let pending: string | undefined;
  const release = () => {
    if (pending !== undefined) out(pending);
    pending = undefined;
  };
  return {
    event(event) {
      if (event.agentId !== undefined) return;
      if (!held) {
        if (event.type === "text_delta") out(event.text);
        return;
      }
      if (event.type === "message_display") {
        pending = undefined;
        out(event.text);
      } else if (event.type === "message" && event.message.role === "assistant") {
        release();
        const content = event.message.content;
        const text =
          typeof content === "string"
            ? content
            : content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
        if (text !== "") pending = text;
      } else if (event.type === "turn_end") {
        // The message's MessageDisplay hooks have run by the end of its model turn: no replacement is coming.
        release();
      }
    },
    flush: release,
  };
}
