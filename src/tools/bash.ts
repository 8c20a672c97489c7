import { randomUUID } from "node:crypto";
import * as z from "zod";
import { errorMessage, type FsOps } from "../io/fs.js";
import type { ShellOps } from "../io/shell.js";
import { lazy } from "../lazy.js";
import { defineTool, type Tool, type ToolOutput, toolError } from "./define-tool.js";
import { BASH_INPUT_SCHEMA } from "./input-schemas.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatBytes, truncateTail } from "./truncate.js";

/** Default command timeout, in milliseconds (Claude Code's: 2 minutes). */
export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
/** Longest timeout a call may ask for, in milliseconds (Claude Code's: 10 minutes). */
export const BASH_MAX_TIMEOUT_MS = 600_000;
/** The text of a result for a command that printed nothing (Claude Code's). */
export const NO_OUTPUT_TEXT = "(Bash completed with no output)";
/** The tool error for `run_in_background: true`: background runs are not implemented. */
export const BACKGROUND_UNSUPPORTED_TEXT =
  "run_in_background is not supported here: nothing was run. Run the command in the foreground (it may take up to " +
  `${BASH_MAX_TIMEOUT_MS / 60_000} minutes with timeout), or, for a long-lived process such as a server, start it ` +
  "detached with its output in a file (nohup cmd > cmd.log 2>&1 &) and Read the log.";

export const BASH_DESCRIPTION = `Run a bash command in the working directory and return its output (stdout and stderr, in the order they were written).

- description: a short, clear description of what the command does (5-10 words), e.g. "List files in current directory".
- Each call starts a fresh shell: cd and exported variables do not carry over; chain commands with && instead.
- timeout is in milliseconds: default ${BASH_DEFAULT_TIMEOUT_MS}, at most ${BASH_MAX_TIMEOUT_MS}. On timeout the command and every process it started are killed.
- run_in_background is not supported: it makes the call fail without running anything.
- Only the last ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024} KB of output are returned; earlier output is cut with a note naming a file that holds the full output (Read or Grep it).
- A non-zero exit code is reported as an error with the output.
- Prefer Read, Edit, Write, Grep, Glob and LS over cat, sed, echo >, grep, find and ls.`;

/** The `Bash` tool's input schema: the single source of its JSON schema and its parsing, built on first use. */
export const bashInput = lazy(() =>
  z.object({
    command: z.string().min(1).describe("The command to run"),
    description: z.string().optional().describe("What the command does, in 5-10 words"),
    timeout: z
      .number()
      .positive()
      .max(BASH_MAX_TIMEOUT_MS)
      .optional()
      .describe(`Timeout in milliseconds (default ${BASH_DEFAULT_TIMEOUT_MS}, max ${BASH_MAX_TIMEOUT_MS})`),
    run_in_background: z.boolean().optional().describe("Not supported: must be absent or false"),
  }),
);
export type BashInput = z.infer<ReturnType<typeof bashInput>>;

/** Where a cut output is kept whole: a folder on the file system the session's Read and Grep use. */
export interface BashFullOutput {
  fs: FsOps;
  dir: string;
}

export interface BashToolOptions {
  shell: ShellOps;
  /** Keeps the whole output of a command whose result was cut, in a file named in the result. Absent: not kept. */
  fullOutput?: BashFullOutput;
}

/** What a command run reports in `details`. */
export interface BashDetails {
  exitCode: number | undefined;
  timedOut: boolean;
  /** True when the output was cut to its tail. */
  truncated: boolean;
  /** The file holding the whole output, when it was cut and kept. */
  fullOutputPath?: string;
}

/** Writes the whole output to a new file in `keep.dir`; the path, or the reason it could not be written. */
async function keepWhole(
  keep: BashFullOutput,
  output: string,
): Promise<{ path: string } | { error: string }> {
  const path = `${keep.dir.replace(/\/+$/, "")}/bash-${Date.now()}-${randomUUID().slice(0, 8)}.log`;
  try {
    await keep.fs.mkdir(keep.dir);
    await keep.fs.writeFile(path, output);
    return { path };
  } catch (error) {
    return { error: errorMessage(error) };
  }
}

async function tailOf(
  output: string,
  keep: BashFullOutput | undefined,
): Promise<{ text: string; truncated: boolean; fullOutputPath?: string }> {
  const cut = truncateTail(output);
  if (!cut.truncated) return { text: output, truncated: false };
  const shown =
    `[Earlier output cut: showing the last ${cut.keptLines} of ${cut.totalLines} lines ` +
    `(${formatBytes(cut.keptBytes)} of ${formatBytes(cut.totalBytes)})`;
  const kept = keep === undefined ? undefined : await keepWhole(keep, output);
  if (kept === undefined) return { text: `${shown}.]\n${cut.text}`, truncated: true };
  if ("error" in kept) {
    return {
      text: `${shown}; the full output could not be kept: ${kept.error}.]\n${cut.text}`,
      truncated: true,
    };
  }
  const note = `${shown}. Full output: ${kept.path}]`;
  return { text: `${note}\n${cut.text}`, truncated: true, fullOutputPath: kept.path };
}

/**
 * The `Bash` tool (Claude Code's input: `command`, `description`, `timeout` in ms, `run_in_background`, other keys
 * ignored): runs through `ShellOps` (cwd = `ctx.cwd`), streams chunks to `ctx.onUpdate`, keeps the tail of the
 * output (and, given `fullOutput`, writes the whole of a cut output to a file named in the result), reports a
 * non-zero exit code or a timeout as an error; `run_in_background: true` is a tool error and
 * runs nothing. Timeout and abort kill the whole
 * process tree (ShellOps does it).
 */
export function createBashTool(options: BashToolOptions): Tool {
  const { shell, fullOutput } = options;
  return defineTool({
    name: "Bash",
    description: BASH_DESCRIPTION,
    input: bashInput,
    inputSchema: BASH_INPUT_SCHEMA,
    readOnly: false,
    snippet: "Run a shell command",
    guidelines: ["Keep commands non-interactive."],
    truncate: "tail",
    subject: (input) => input.command,
    async execute(input, ctx): Promise<ToolOutput> {
      if (input.run_in_background === true) return toolError(BACKGROUND_UNSUPPORTED_TEXT);
      const timeoutMs = input.timeout ?? BASH_DEFAULT_TIMEOUT_MS;
      const chunks: string[] = [];
      const result = await shell.run(input.command, {
        cwd: ctx.cwd,
        timeoutMs,
        signal: ctx.signal,
        onData: (chunk) => {
          chunks.push(chunk);
          ctx.onUpdate?.(chunk);
        },
      });
      // Streamed chunks keep stdout and stderr interleaved; a ShellOps that does not stream gives them apart.
      const output = chunks.length > 0 ? chunks.join("") : result.stdout + result.stderr;
      const { text, truncated, fullOutputPath } = await tailOf(output.replace(/\n$/, ""), fullOutput);
      const body = text === "" ? NO_OUTPUT_TEXT : text;
      const details: BashDetails = {
        exitCode: result.exitCode,
        timedOut: result.timedOut,
        truncated,
        ...(fullOutputPath === undefined ? {} : { fullOutputPath }),
      };
      if (result.timedOut) {
        const after = timeoutMs % 1000 === 0 ? `${timeoutMs / 1000} seconds` : `${timeoutMs} ms`;
        return { content: `${body}\n\nCommand timed out after ${after}.`, isError: true, details };
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
