import * as z from "zod";
import type { ModelToolSpec } from "../../agent/model-types.js";

/**
 * The code execution tool versions serve runs (`tools: [{ type, name: "code_execution" }]`): both give the model
 * a shell and a file editor in the container, whose calls come back as `bash_code_execution_tool_result` and
 * `text_editor_code_execution_tool_result` blocks. `code_execution_20260120` adds REPL state kept for
 * programmatic tool calling, which serve does not offer, so it runs as `code_execution_20250825` does.
 */
export const SERVED_CODE_EXECUTION_VERSIONS = ["code_execution_20250825", "code_execution_20260120"] as const;
export type ServedCodeExecutionVersion = (typeof SERVED_CODE_EXECUTION_VERSIONS)[number];

/**
 * The versions the SDK (1.11) types that serve answers with a 400 naming the served ones:
 * `code_execution_20250522` (Python only, `code_execution_tool_result` blocks) and `code_execution_20260521`.
 */
export const UNSERVED_CODE_EXECUTION_VERSIONS = [
  "code_execution_20250522",
  "code_execution_20260521",
] as const;

/** The name of the server tool's shell, as the response's `server_tool_use` blocks name it. */
export const BASH_TOOL = "bash_code_execution";
/** The name of the server tool's file editor, as the response's `server_tool_use` blocks name it. */
export const EDITOR_TOOL = "text_editor_code_execution";

/** The most of a command's stdout (and of its stderr) a result keeps, in characters; the rest is cut. */
export const MAX_STREAM_CHARS = 100_000;

/** The shell's input: `{ command }` (`restart` is accepted: every command starts afresh here anyway). */
export const BashInput = z.looseObject({ command: z.string().min(1), restart: z.boolean().optional() });
export type BashInput = z.infer<typeof BashInput>;

/** The file editor's input, one of its three commands. */
export const EditorInput = z.discriminatedUnion("command", [
  z.looseObject({
    command: z.literal("view"),
    path: z.string().min(1),
    view_range: z.tuple([z.number().int(), z.number().int()]).optional(),
  }),
  z.looseObject({ command: z.literal("create"), path: z.string().min(1), file_text: z.string() }),
  z.looseObject({
    command: z.literal("str_replace"),
    path: z.string().min(1),
    old_str: z.string().min(1),
    new_str: z.string().default(""),
  }),
]);
export type EditorInput = z.infer<typeof EditorInput>;

/**
 * The client tools the upstream model is offered in place of the server tool (it never sees a server tool):
 * a shell and a file editor, each named as the server tool's blocks name it, so a call maps to a
 * `server_tool_use` block one to one. `cwd` is where commands start; `outputs` where files to hand back go.
 */
export function codeExecutionToolSpecs(where: { cwd: string; outputs: string }): ModelToolSpec[] {
  return [
    {
      name: BASH_TOOL,
      description:
        `Runs a bash command in the code execution container and returns its stdout, stderr and exit code. ` +
        `Commands start in ${where.cwd}; the files there and elsewhere in the container stay for later ` +
        `commands and later requests that reuse the container. Files written under ${where.outputs} are ` +
        `handed to the user as downloadable files. python3 is available. stdout and stderr are each cut at ` +
        `${MAX_STREAM_CHARS} characters.`,
      input_schema: {
        type: "object",
        properties: {
          command: { type: "string", description: "The bash command to run." },
          restart: { type: "boolean", description: "Accepted; every command starts a fresh shell here." },
        },
        required: ["command"],
      },
    },
    {
      name: EDITOR_TOOL,
      description:
        "Views, creates and edits text files in the code execution container. `view` shows a file with " +
        "numbered lines (optionally `view_range: [first, last]`, 1-based, -1 for the end) or lists a folder; " +
        "`create` writes `file_text` to `path`; `str_replace` replaces the one occurrence of `old_str` with " +
        "`new_str` (it fails when `old_str` is missing or occurs more than once). Paths are absolute.",
      input_schema: {
        type: "object",
        properties: {
          command: { type: "string", enum: ["view", "create", "str_replace"] },
          path: { type: "string", description: "An absolute path in the container." },
          file_text: { type: "string", description: "create: the file's content." },
          old_str: { type: "string", description: "str_replace: the text to replace, exactly once." },
          new_str: { type: "string", description: "str_replace: what replaces it." },
          view_range: {
            type: "array",
            items: { type: "integer" },
            description: "view: [first, last] line, 1-based; -1 as last means the end.",
          },
        },
        required: ["command", "path"],
      },
    },
  ];
}
