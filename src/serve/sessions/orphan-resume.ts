import type { ModelMessage, ModelToolResultBlock } from "../../agent/model-types.js";
import type { TranscriptEntry } from "../../session/transcript-store.js";
import { requiredActions } from "../store/session-waits.js";
import type { SessionEvent } from "../store/sessions.js";
import { customResultContent } from "./custom-tool.js";
import { DEFAULT_DENY_TEXT } from "./tool-confirmation.js";

/** A call the session waits on (its `agent.*tool_use` event) and the user event that answers it. */
export interface AnsweredCall {
  use: SessionEvent;
  answer: SessionEvent;
}

/** The text of the user message that goes on with a turn resumed on another instance. */
export const RESUME_PROMPT =
  "The server running this turn stopped while it waited for the results above; the turn goes on from them.";

/** What the model gets for an allowed call that the stopped server never ran. */
export const ALLOWED_NOT_RUN_TEXT =
  "The user allowed this call, but the server that was to run it stopped first, so it did not run. Call it again to run it: the same call is allowed without asking.";

/** What the model gets for a call of the same message whose result the stopped server never recorded. */
export const RESULT_LOST_TEXT =
  "The server running this call stopped before its result was recorded: it may or may not have run.";

/**
 * The calls a turn was left waiting on, when every one of them is answered now: the session's last status
 * event (from `events`, the current turn's, in order) is a `session.status_idle` with `requires_action`, and
 * each event it names has a later `user.custom_tool_result` / `user.tool_confirmation`. Undefined otherwise
 * (the turn went on, or still waits for an answer). Pure.
 */
export function answeredWait(events: readonly SessionEvent[]): AnsweredCall[] | undefined {
  const last = events.findLastIndex((e) => e.type.startsWith("session.status_"));
  const idle = events[last];
  const ids = idle?.type === "session.status_idle" ? requiredActions(idle.stop_reason) : undefined;
  if (ids === undefined || ids.length === 0) return undefined;
  const calls: AnsweredCall[] = [];
  for (const id of ids) {
    const at = events.findIndex((e) => e.id === id);
    const use = events[at];
    const answer = events
      .slice(at + 1)
      .find(
        (e) =>
          (e.type === "user.custom_tool_result" && e.custom_tool_use_id === id) ||
          (e.type === "user.tool_confirmation" && e.tool_use_id === id),
      );
    if (use === undefined || answer === undefined) return undefined;
    calls.push({ use, answer });
  }
  return calls;
}

/** The main agent's last message in the transcript (since its last compaction). Pure. */
export function lastMainMessage(entries: readonly TranscriptEntry[]): ModelMessage | undefined {
  for (let i = entries.length - 1; i >= 0; i -= 1) {
    const entry = entries[i];
    if (entry?.type === "compaction") return undefined;
    if (entry?.type === "message" && entry.agentId === undefined) return entry.message;
  }
  return undefined;
}

/** Whether the transcript's tool_use block `name`/`input` is the call event `use` stands for. Pure. */
function sameCall(use: SessionEvent, name: string, input: unknown): boolean {
  const engineName =
    use.type === "agent.mcp_tool_use" ? `mcp__${String(use.mcp_server_name)}__${String(use.name)}` : use.name;
  return engineName === name && JSON.stringify(use.input) === JSON.stringify(input);
}

/** The result of a call the user answered while its server was gone, and whether the call is allowed again. Pure. */
function resultFor(answer: SessionEvent, toolUseId: string): ModelToolResultBlock {
  if (answer.type === "user.custom_tool_result") {
    return {
      type: "tool_result",
      tool_use_id: toolUseId,
      content: customResultContent(answer.content),
      ...(answer.is_error === true ? { is_error: true } : {}),
    };
  }
  const message = answer.deny_message;
  const text =
    answer.result === "allow"
      ? ALLOWED_NOT_RUN_TEXT
      : typeof message === "string" && message.trim() !== ""
        ? message
        : DEFAULT_DENY_TEXT;
  return { type: "tool_result", tool_use_id: toolUseId, content: text, is_error: true };
}

/**
 * The user message that completes `assistant`'s tool calls from the stored answers, for a turn resumed on
 * another instance: a custom tool's result as the application sent it, a denied call's message, an allowed
 * call "not run, call again" (and the call in `allowOnce`, so the repeat is not asked again), any other call
 * of the message "result lost". Undefined when `assistant` has no tool call. Pure.
 */
export function completeCalls(
  assistant: ModelMessage | undefined,
  calls: readonly AnsweredCall[],
): { message: ModelMessage; allowOnce: { name: string; input: unknown }[] } | undefined {
  if (assistant?.role !== "assistant" || !Array.isArray(assistant.content)) return undefined;
  const left = [...calls];
  const results: ModelToolResultBlock[] = [];
  const allowOnce: { name: string; input: unknown }[] = [];
  for (const block of assistant.content) {
    if (block.type !== "tool_use") continue;
    const at = left.findIndex((call) => sameCall(call.use, block.name, block.input));
    const call = at === -1 ? undefined : left.splice(at, 1)[0];
    if (call === undefined) {
      results.push({ type: "tool_result", tool_use_id: block.id, content: RESULT_LOST_TEXT, is_error: true });
      continue;
    }
    results.push(resultFor(call.answer, block.id));
    if (call.answer.type === "user.tool_confirmation" && call.answer.result === "allow") {
      allowOnce.push({ name: block.name, input: block.input });
    }
  }
  return results.length === 0 ? undefined : { message: { role: "user", content: results }, allowOnce };
}
