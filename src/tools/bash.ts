import * as z from "zod";
import type { ShellOps } from "../io/shell.js";
import { lazy } from "../lazy.js";
import { defineTool, type Tool, type ToolInputSchema, type ToolOutput } from "./define-tool.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatBytes, truncateTail } from "./truncate.js";

/** Default command timeout, in seconds. */
export const BASH_DEFAULT_TIMEOUT_SECONDS = 120;
/** Longest timeout a call may ask for, in seconds. */
export const BASH_MAX_TIMEOUT_SECONDS = 600;
/** The text of a result for a command that printed nothing. */
export const NO_OUTPUT_TEXT = "(no output)";

export const BASH_DESCRIPTION = `Run a bash command in the working directory and return its output (stdout and stderr, in the order they were written).

- Each call starts a fresh shell: cd and exported variables do not carry over; chain commands with && instead.
- timeout is in seconds: default ${BASH_DEFAULT_TIMEOUT_SECONDS}, at most ${BASH_MAX_TIMEOUT_SECONDS}. On timeout the command and every process it started are killed.
- Only the last ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024} KB of output are returned; earlier output is cut with a note. Redirect big output to a file and use Read or Grep on it.
- A non-zero exit code is reported as an error with the output.
- Prefer Read, Edit, Write, Grep, Glob and LS over cat, sed, echo >, grep, find and ls.`;

/** The `Bash` tool's input schema, built on the first call that parses an input (zod is costly at start-up). */
export const bashInput = lazy(() =>
  z.strictObject({
    command: z.string().min(1).describe("The command to run"),
    timeout: z
      .number()
      .positive()
      .max(BASH_MAX_TIMEOUT_SECONDS)
      .optional()
      .describe(`Timeout in seconds (default ${BASH_DEFAULT_TIMEOUT_SECONDS})`),
  }),
);
export type BashInput = z.infer<ReturnType<typeof bashInput>>;

/** `bashInput` as the API gets it (`input_schema`); test/tools/input-schemas.test.ts keeps the two equal. */
export const BASH_INPUT_SCHEMA: ToolInputSchema = {
  type: "object",
  properties: {
    command: { type: "string", minLength: 1, description: "The command to run" },
    timeout: {
      description: `Timeout in seconds (default ${BASH_DEFAULT_TIMEOUT_SECONDS})`,
      type: "number",
      exclusiveMinimum: 0,
      maximum: BASH_MAX_TIMEOUT_SECONDS,
    },
  },
  required: ["command"],
  additionalProperties: false,
};

export interface BashToolOptions {
  shell: ShellOps;
}

/** What a command run reports in `details`. */
export interface BashDetails {
  exitCode: number | undefined;
  timedOut: boolean;
  /** True when the output was cut to its tail. */
  truncated: boolean;
}

function tailOf(output: string): { text: string; truncated: boolean } {
  const cut = truncateTail(output);
  if (!cut.truncated) return { text: output, truncated: false };
  const note =
    `[Earlier output cut: showing the last ${cut.keptLines} of ${cut.totalLines} lines ` +
    `(${formatBytes(cut.keptBytes)} of ${formatBytes(cut.totalBytes)}).]`;
  return { text: `${note}\n${cut.text}`, truncated: true };
}

/**
 * The `Bash` tool: runs through `ShellOps` (cwd = `ctx.cwd`), streams chunks to `ctx.onUpdate`, keeps the
 * tail of the output, reports a non-zero exit code or a timeout as an error. Timeout and abort kill the whole
 * process tree (ShellOps does it).
 */
export function createBashTool(options: BashToolOptions): Tool {
  const { shell } = options;
  return defineTool({
    name: "Bash",
    description: BASH_DESCRIPTION,
    input: bashInput,
    inputSchema: BASH_INPUT_SCHEMA,
    readOnly: false,
    truncate: "tail",
    subject: (input) => input.command,
    async execute(input, ctx): Promise<ToolOutput> {
      const seconds = input.timeout ?? BASH_DEFAULT_TIMEOUT_SECONDS;
      const chunks: string[] = [];
      const result = await shell.run(input.command, {
        cwd: ctx.cwd,
        timeoutMs: seconds * 1000,
        signal: ctx.signal,
        onData: (chunk) => {
          chunks.push(chunk);
          ctx.onUpdate?.(chunk);
        },
      });
      // Streamed chunks keep stdout and stderr interleaved; a ShellOps that does not stream gives them apart.
      const output = chunks.length > 0 ? chunks.join("") : result.stdout + result.stderr;
      const { text, truncated } = tailOf(output.replace(/\n$/, ""));
      const body = text === "" ? NO_OUTPUT_TEXT : text;
      const details: BashDetails = { exitCode: result.exitCode, timedOut: result.timedOut, truncated };
      if (result.timedOut) {
        return { content: `${body}\n\nCommand timed out after ${seconds} seconds.`, isError: true, details };
      }
      if (result.exitCode === undefined) {
        return { content: `${body}\n\nCommand was killed by a signal.`, isError: true, details };
      }
      if (result.exitCode !== 0) {
        return { content: `${body}\n\nExit code ${result.exitCode}`, isError: true, details };
      }
      return { content: body, details };
    },
  });
}
