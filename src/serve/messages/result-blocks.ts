import type {
  BashCodeExecutionToolResultBlock,
  ServerToolUseBlock,
  TextBlock,
  TextEditorCodeExecutionToolResultBlock,
} from "@anthropic-ai/sdk/resources/messages";

/** A code execution result block of a response, as the SDK types it. */
export type CodeExecutionResultBlock =
  | BashCodeExecutionToolResultBlock
  | TextEditorCodeExecutionToolResultBlock;

/** A block serve puts in a response: the model's text, its calls of the server tool and their results. */
export type ResponseBlock = TextBlock | ServerToolUseBlock | CodeExecutionResultBlock;

/** What the upstream model reads of a result: the tool_result's text and whether it is an error. */
export interface UpstreamResult {
  text: string;
  isError: boolean;
}

/** Whether `type` names a code execution result block. Pure. */
export function isResultType(type: string): type is CodeExecutionResultBlock["type"] {
  return type === "bash_code_execution_tool_result" || type === "text_editor_code_execution_tool_result";
}

/**
 * The tool_result the upstream model gets for a result block's `content`: the same text whether the block was
 * just made or comes back in a later request's history, so a conversation reads the same to the model both
 * times. Pure.
 */
export function upstreamResult(content: CodeExecutionResultBlock["content"]): UpstreamResult {
  switch (content.type) {
    case "bash_code_execution_result": {
      const parts = [content.stdout];
      if (content.stderr !== "") parts.push(`[stderr]\n${content.stderr}`);
      if (content.return_code !== 0) parts.push(`[exit code ${content.return_code}]`);
      if (content.content.length > 0)
        parts.push(`[${content.content.length} output file(s) handed to the user]`);
      const text = parts.filter((p) => p !== "").join("\n");
      return { text: text === "" ? "(no output)" : text, isError: false };
    }
    case "bash_code_execution_tool_result_error":
      return { text: `Error: ${content.error_code}`, isError: true };
    case "text_editor_code_execution_view_result":
      return { text: content.content, isError: false };
    case "text_editor_code_execution_create_result":
      return { text: content.is_file_update ? "File overwritten." : "File created.", isError: false };
    case "text_editor_code_execution_str_replace_result":
      return { text: `Replaced; the edited lines:\n${(content.lines ?? []).join("\n")}`, isError: false };
    case "text_editor_code_execution_tool_result_error":
      return { text: `Error: ${content.error_code}: ${content.error_message ?? ""}`.trim(), isError: true };
    default: {
      const unknown: never = content;
      return unknown;
    }
  }
}
