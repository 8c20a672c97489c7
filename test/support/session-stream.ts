import type Anthropic from "@anthropic-ai/sdk";
import type { BetaManagedAgentsStreamSessionEvents } from "@anthropic-ai/sdk/resources/beta/sessions/events";
import type { ModelServer } from "../../src/dev/model-server.js";

/** A served session's event as the SDK streams it. */
export type StreamEvent = BetaManagedAgentsStreamSessionEvents;

/** Reads a session's event stream up to and including the first event `stop` accepts; throws if it ends first. */
export async function readUntil(
  events: AsyncIterator<StreamEvent>,
  stop: (e: StreamEvent) => boolean,
): Promise<StreamEvent[]> {
  const seen: StreamEvent[] = [];
  for (;;) {
    const next = await events.next();
    if (next.done === true) throw new Error(`the stream ended after ${seen.map((e) => e.type).join(", ")}`);
    seen.push(next.value);
    if (stop(next.value)) return seen;
  }
}

/** The body of `events.send` for one `user.message` saying `text`. */
export function userMessage(text: string) {
  return { events: [{ type: "user.message" as const, content: [{ type: "text" as const, text }] }] };
}

/**
 * One user turn as a client runs it: opens `sessionId`'s stream on `client`, sends a `user.message` saying
 * `text`, and reads up to the first event `stop` accepts (default: any `session.status_idle`); the stream is
 * closed after.
 */
export async function sayAndRead(
  client: Anthropic,
  sessionId: string,
  text: string,
  stop: (e: StreamEvent) => boolean = (e) => e.type === "session.status_idle",
): Promise<StreamEvent[]> {
  const stream = await client.beta.sessions.events.stream(sessionId);
  const events = stream[Symbol.asyncIterator]();
  await client.beta.sessions.events.send(sessionId, userMessage(text));
  try {
    return await readUntil(events, stop);
  } finally {
    stream.controller.abort();
  }
}

/** The tool_result block for `toolUseId` in the last request `model` got (undefined: none). */
export function toolResultSent(model: ModelServer, toolUseId: string): unknown {
  const body = model.requests.at(-1)?.body;
  const messages = typeof body === "object" && body !== null && "messages" in body ? body.messages : [];
  const blocks = (Array.isArray(messages) ? messages : []).flatMap((m: { content?: unknown }) =>
    Array.isArray(m.content) ? m.content : [],
  );
  return blocks.find(
    (b: { type?: unknown; tool_use_id?: unknown }) => b.type === "tool_result" && b.tool_use_id === toolUseId,
  );
}
