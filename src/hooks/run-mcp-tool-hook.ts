import { errorMessage } from "../io/fs.js";
import { isRecord } from "../is-record.js";
import {
  capHookText,
  type HookInput,
  type HookRunResult,
  hookTimeoutMs,
  outcomeOfOutput,
} from "./run-hook.js";
import type { HookMcpTool } from "./schema.js";

/** What a call of an MCP tool gives back: its text blocks joined, and whether the tool reported an error. */
export interface McpToolAnswer {
  text: string;
  isError: boolean;
}

/**
 * Calls `tool` of the session's MCP server `server` with `args`; undefined when the session has no such tool.
 * May reject (the runner turns that into a warning).
 */
export type McpToolCaller = (
  call: { server: string; tool: string; args: Record<string, unknown> },
  signal: AbortSignal,
) => Promise<McpToolAnswer | undefined>;

const PLACEHOLDER = /\$\{([A-Za-z0-9_.-]+)\}/g;

/** The value at a dotted `path` of the event JSON (`tool_input.file_path`), or undefined. Pure. */
function valueAt(input: HookInput, path: string): unknown {
  let value: unknown = input;
  for (const key of path.split(".")) {
    if (!isRecord(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

/**
 * The hook's `input` with every `${path}` in its strings (at any depth) replaced by the event JSON's value at
 * that dotted path: a string as it is, anything else as JSON, a missing one as "". Pure.
 */
export function fillMcpToolInput(
  template: Record<string, unknown>,
  input: HookInput,
): Record<string, unknown> {
  const fill = (value: unknown): unknown => {
    if (typeof value === "string") {
      return value.replace(PLACEHOLDER, (_, path: string) => {
        const found = valueAt(input, path);
        return found === undefined ? "" : typeof found === "string" ? found : JSON.stringify(found);
      });
    }
    if (Array.isArray(value)) return value.map(fill);
    if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    return value;
  };
  return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, fill(v)]));
}

/**
 * Calls the hook's MCP tool with its `input` filled from the event ({@link fillMcpToolInput}) and reads the
 * tool's text as Claude Code does, like a command hook's stdout on exit 0: decision JSON (`decision: "block"`,
 * `hookSpecificOutput.permissionDecision`, …) or plain text; an empty text continues. A tool the session does not
 * have, a tool error result, a failed call and the timeout (the hook's `timeout`, else 60 s) are warnings, so the
 * event goes on. Never rejects.
 */
export async function runMcpToolHook(
  hook: HookMcpTool,
  input: HookInput,
  options: { call: McpToolCaller; signal?: AbortSignal },
): Promise<HookRunResult> {
  if (options.signal?.aborted) return { outcome: "warning", message: "aborted before it started" };
  const timeoutMs = hookTimeoutMs(hook);
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
  const name = `${hook.server}/${hook.tool}`;
  let answer: McpToolAnswer | undefined;
  try {
    answer = await options.call(
      { server: hook.server, tool: hook.tool, args: fillMcpToolInput(hook.input ?? {}, input) },
      signal,
    );
  } catch (error) {
    if (timeout.aborted) return { outcome: "warning", message: `timed out after ${timeoutMs / 1000} s` };
    if (options.signal?.aborted) return { outcome: "warning", message: "aborted" };
    return { outcome: "warning", message: capHookText(`the call of ${name} failed: ${errorMessage(error)}`) };
  }
  if (answer === undefined) {
    return {
      outcome: "warning",
      message: `this session has no MCP tool ${name} (is the server configured?)`,
    };
  }
  if (answer.isError)
    return { outcome: "warning", message: capHookText(`${name} answered an error: ${answer.text}`) };
  if (answer.text.trim() === "") return { outcome: "continue", stdout: "" };
  return outcomeOfOutput(answer.text, `Blocked by MCP tool hook ${name}`);
}
