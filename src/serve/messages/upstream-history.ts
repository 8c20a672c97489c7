import * as z from "zod";
import type { ModelContentBlock, ModelMessage } from "../../agent/model-types.js";
import { BASH_TOOL, EDITOR_TOOL } from "./code-execution-tools.js";
import type { RequestBlock, RequestMessage } from "./message-params.js";
import { isResultType, upstreamResult } from "./result-blocks.js";

const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().default(null);

/** A result block as a client sends it back (the param form: some response fields may be left out). */
const ResultBlock = z.object({
  type: z.enum(["bash_code_execution_tool_result", "text_editor_code_execution_tool_result"]),
  tool_use_id: z.string().min(1),
  content: z.discriminatedUnion("type", [
    z.object({
      type: z.literal("bash_code_execution_result"),
      stdout: z.string(),
      stderr: z.string(),
      return_code: z.number().int(),
      content: z.array(z.object({ type: z.literal("bash_code_execution_output"), file_id: z.string() })),
    }),
    z.object({
      type: z.literal("bash_code_execution_tool_result_error"),
      error_code: z.enum([
        "invalid_tool_input",
        "unavailable",
        "too_many_requests",
        "execution_time_exceeded",
        "output_file_too_large",
      ]),
    }),
    z.object({
      type: z.literal("text_editor_code_execution_view_result"),
      content: z.string(),
      file_type: z.enum(["text", "image", "pdf"]),
      num_lines: nullable(z.number()),
      start_line: nullable(z.number()),
      total_lines: nullable(z.number()),
    }),
    z.object({ type: z.literal("text_editor_code_execution_create_result"), is_file_update: z.boolean() }),
    z.object({
      type: z.literal("text_editor_code_execution_str_replace_result"),
      lines: nullable(z.array(z.string())),
      new_lines: nullable(z.number()),
      new_start: nullable(z.number()),
      old_lines: nullable(z.number()),
      old_start: nullable(z.number()),
    }),
    z.object({
      type: z.literal("text_editor_code_execution_tool_result_error"),
      error_code: z.enum([
        "invalid_tool_input",
        "unavailable",
        "too_many_requests",
        "execution_time_exceeded",
        "file_not_found",
      ]),
      error_message: nullable(z.string()),
    }),
  ]),
});

const TextBlock = z.object({ type: z.literal("text"), text: z.string() });
const ServerToolUse = z.object({
  type: z.literal("server_tool_use"),
  id: z.string().min(1),
  name: z.enum([BASH_TOOL, EDITOR_TOOL]),
  input: z.record(z.string(), z.unknown()),
});

/** The conversation as the upstream model reads it, or why a block of it cannot be served. */
export type UpstreamHistory = { kind: "ok"; messages: ModelMessage[] } | { kind: "refused"; message: string };

/** Block types that carry nothing the upstream model needs again (a signed thinking block is the API's own). */
const DROPPED = new Set(["thinking", "redacted_thinking"]);

/** Adjacent messages of one role as one message (the API wants roles to alternate). Pure. */
function merged(messages: readonly ModelMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  const blocks = (m: ModelMessage): ModelContentBlock[] =>
    typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
  for (const message of messages) {
    const last = out.at(-1);
    if (last !== undefined && last.role === message.role) {
      out[out.length - 1] = { role: last.role, content: [...blocks(last), ...blocks(message)] };
    } else out.push(message);
  }
  return out.filter((m) => typeof m.content === "string" || m.content.length > 0);
}

/** `why` about the `n`th message's block of `type`. */
const refusal = (n: number, type: string, why: string): UpstreamHistory => ({
  kind: "refused",
  message: `messages[${n}]: a ${type} block ${why}`,
});

/**
 * The request's conversation as the upstream model reads it: each `server_tool_use` of the code execution tool
 * becomes the client tool call it was (same id, name and input) and each result block the tool_result the model
 * got (`upstreamResult`), splitting the assistant message there as a tool round trip does. Text passes as is;
 * thinking blocks are left out. Any other block (images, documents, client tool calls) is refused: this route
 * serves the code execution tool only. Pure.
 */
export function upstreamHistory(messages: readonly RequestMessage[]): UpstreamHistory {
  const out: ModelMessage[] = [];
  for (const [n, message] of messages.entries()) {
    if (typeof message.content === "string") {
      out.push({ role: message.role, content: message.content });
      continue;
    }
    let blocks: ModelContentBlock[] = [];
    const flush = (role: "user" | "assistant") => {
      if (blocks.length > 0) out.push({ role, content: blocks });
      blocks = [];
    };
    for (const raw of message.content as readonly RequestBlock[]) {
      if (DROPPED.has(raw.type)) continue;
      if (raw.type === "text") {
        const text = TextBlock.safeParse(raw);
        if (!text.success) return refusal(n, "text", "has no text");
        blocks.push({ type: "text", text: text.data.text });
      } else if (raw.type === "server_tool_use" && message.role === "assistant") {
        const call = ServerToolUse.safeParse(raw);
        if (!call.success)
          return refusal(n, "server_tool_use", `is not one of serve's (${BASH_TOOL}, ${EDITOR_TOOL})`);
        blocks.push({ type: "tool_use", id: call.data.id, name: call.data.name, input: call.data.input });
      } else if (isResultType(raw.type) && message.role === "assistant") {
        const result = ResultBlock.safeParse(raw);
        if (!result.success) return refusal(n, raw.type, `is malformed: ${z.prettifyError(result.error)}`);
        flush("assistant");
        const { text, isError } = upstreamResult(result.data.content);
        out.push({
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: result.data.tool_use_id, content: text, is_error: isError },
          ],
        });
      } else {
        return refusal(
          n,
          raw.type,
          `in a ${message.role} message is not served: skillwright serve's Messages route takes text and the code execution tool's blocks`,
        );
      }
    }
    flush(message.role);
  }
  return { kind: "ok", messages: merged(out) };
}
