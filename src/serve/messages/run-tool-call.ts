import { posix } from "node:path";
import type {
  BashCodeExecutionToolResultBlock,
  TextEditorCodeExecutionToolResultBlock,
} from "@anthropic-ai/sdk/resources/messages";
import type { ModelToolUseBlock } from "../../agent/model-types.js";
import type { Sandbox } from "../../sandbox/sandbox.js";
import { BASH_DEFAULT_TIMEOUT_MS } from "../../tools/bash.js";
import { BASH_TOOL, BashInput, EDITOR_TOOL, EditorInput, MAX_STREAM_CHARS } from "./code-execution-tools.js";
import type { OutputFiles } from "./output-files.js";
import type { CodeExecutionResultBlock } from "./result-blocks.js";

/** What a call runs with: the container's sandbox and working folder, its output files, the request's signal. */
export interface ToolCallContext {
  sandbox: Sandbox;
  cwd: string;
  outputs: OutputFiles;
  signal: AbortSignal;
}

type EditorContent = TextEditorCodeExecutionToolResultBlock["content"];

/** `text` cut to {@link MAX_STREAM_CHARS} characters, saying so. Pure. */
function capped(text: string): string {
  if (text.length <= MAX_STREAM_CHARS) return text;
  return `${text.slice(0, MAX_STREAM_CHARS)}\n[cut: ${text.length - MAX_STREAM_CHARS} more characters]`;
}

/** A shell result block. */
function bashBlock(
  id: string,
  content: BashCodeExecutionToolResultBlock["content"],
): CodeExecutionResultBlock {
  return { type: "bash_code_execution_tool_result", tool_use_id: id, content };
}

/** An editor result block. */
function editorBlock(id: string, content: EditorContent): CodeExecutionResultBlock {
  return { type: "text_editor_code_execution_tool_result", tool_use_id: id, content };
}

/** An editor error block. */
function editorError(
  id: string,
  code: "invalid_tool_input" | "file_not_found" | "unavailable",
  message: string,
): CodeExecutionResultBlock {
  return editorBlock(id, {
    type: "text_editor_code_execution_tool_result_error",
    error_code: code,
    error_message: message,
  });
}

/** Runs a shell call: its stdout, stderr and exit code, and the output files it wrote or changed. */
async function runBash(call: ModelToolUseBlock, ctx: ToolCallContext): Promise<CodeExecutionResultBlock> {
  const input = BashInput.safeParse(call.input);
  if (!input.success)
    return bashBlock(call.id, {
      type: "bash_code_execution_tool_result_error",
      error_code: "invalid_tool_input",
    });
  const shell = ctx.sandbox.shell;
  if (shell.refusal !== undefined)
    return bashBlock(call.id, { type: "bash_code_execution_tool_result_error", error_code: "unavailable" });
  const before = await ctx.outputs.snapshot();
  const result = await shell.run(input.data.command, {
    cwd: ctx.cwd,
    signal: ctx.signal,
    timeoutMs: BASH_DEFAULT_TIMEOUT_MS,
  });
  if (result.timedOut)
    return bashBlock(call.id, {
      type: "bash_code_execution_tool_result_error",
      error_code: "execution_time_exceeded",
    });
  if (result.startError !== undefined)
    return bashBlock(call.id, { type: "bash_code_execution_tool_result_error", error_code: "unavailable" });
  const fileIds = await ctx.outputs.publish(before);
  return bashBlock(call.id, {
    type: "bash_code_execution_result",
    stdout: capped(result.stdout),
    stderr: capped(result.stderr),
    return_code: result.exitCode ?? 1,
    content: fileIds.map((file_id) => ({ type: "bash_code_execution_output", file_id })),
  });
}

/** The code of a file-system error (`ENOENT`, …), if it has one. */
function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}

/** `text`'s lines numbered from `first` as `cat -n` does. Pure. */
function numbered(lines: readonly string[], first: number): string {
  return lines.map((line, i) => `${String(first + i).padStart(6)}\t${line}`).join("\n");
}

/** Runs an editor call on the container's file system. */
async function runEditor(call: ModelToolUseBlock, ctx: ToolCallContext): Promise<CodeExecutionResultBlock> {
  const parsed = EditorInput.safeParse(call.input);
  if (!parsed.success)
    return editorError(call.id, "invalid_tool_input", parsed.error.issues[0]?.message ?? "");
  const input = parsed.data;
  const fs = ctx.sandbox.fs;
  const path = posix.resolve(ctx.cwd, input.path);
  try {
    switch (input.command) {
      case "view": {
        const stat = await fs.stat(path);
        if (stat.kind === "dir") {
          const entries = await fs.readdir(path);
          const listing = entries.map((e) => (e.kind === "dir" ? `${e.name}/` : e.name)).join("\n");
          return editorBlock(call.id, {
            type: "text_editor_code_execution_view_result",
            content: listing,
            file_type: "text",
            num_lines: entries.length,
            start_line: 1,
            total_lines: entries.length,
          });
        }
        const lines = (await fs.readFile(path)).split("\n");
        const [from = 1, to = -1] = input.view_range ?? [];
        const first = Math.max(1, from);
        const last = to === -1 ? lines.length : Math.min(lines.length, to);
        const shown = lines.slice(first - 1, last);
        return editorBlock(call.id, {
          type: "text_editor_code_execution_view_result",
          content: numbered(shown, first),
          file_type: "text",
          num_lines: shown.length,
          start_line: first,
          total_lines: lines.length,
        });
      }
      case "create": {
        const existed = await fs.stat(path).then(
          () => true,
          () => false,
        );
        await fs.mkdir(posix.dirname(path));
        await fs.writeFile(path, input.file_text);
        return editorBlock(call.id, {
          type: "text_editor_code_execution_create_result",
          is_file_update: existed,
        });
      }
      case "str_replace": {
        const text = await fs.readFile(path);
        const at = text.indexOf(input.old_str);
        if (at < 0) return editorError(call.id, "invalid_tool_input", `old_str was not found in ${path}`);
        if (text.indexOf(input.old_str, at + 1) >= 0)
          return editorError(call.id, "invalid_tool_input", `old_str occurs more than once in ${path}`);
        await fs.writeFile(path, text.slice(0, at) + input.new_str + text.slice(at + input.old_str.length));
        const start = text.slice(0, at).split("\n").length;
        const newLines = input.new_str.split("\n");
        return editorBlock(call.id, {
          type: "text_editor_code_execution_str_replace_result",
          old_start: start,
          old_lines: input.old_str.split("\n").length,
          new_start: start,
          new_lines: newLines.length,
          lines: newLines,
        });
      }
      default: {
        const unknown: never = input;
        return unknown;
      }
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return editorError(
      call.id,
      errorCode(error) === "ENOENT" ? "file_not_found" : "invalid_tool_input",
      message,
    );
  }
}

/**
 * Runs one call of the upstream model's code execution tools in the container and returns the result block the
 * response shows for it. Never throws for what the call did: a bad input, a refusing shell, a timeout or a
 * file-system error is a result block with its error code.
 */
export async function runToolCall(
  call: ModelToolUseBlock,
  ctx: ToolCallContext,
): Promise<CodeExecutionResultBlock> {
  if (call.name === BASH_TOOL) return runBash(call, ctx);
  if (call.name === EDITOR_TOOL) return runEditor(call, ctx);
  return editorError(call.id, "invalid_tool_input", `no tool is named ${JSON.stringify(call.name)}`);
}
