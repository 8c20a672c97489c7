import { assertNever } from "../diagnostics.js";
import { errorMessage } from "../io/fs.js";
import type { ShellOps, ShellResult } from "../io/shell.js";
import { type HookCommand, type HookEvent, type HookOutput, parseHookStdout } from "./schema.js";

/** How long a hook may run when it sets no `timeout` (SPEC §10). */
export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;

/** The exit code with which a hook blocks (SPEC §10). */
export const HOOK_BLOCK_EXIT_CODE = 2;

/** Longest hook text (block reason, warning, added context) passed on; longer text is cut with a note. */
export const MAX_HOOK_TEXT_CHARS = 10_000;

/**
 * The event JSON a command hook reads on stdin (Claude Code field names): the common fields plus the event's
 * own (`tool_name`, `tool_input`, `tool_response`, `tool_use_id`, `prompt`, `source`, `trigger`, …).
 */
export interface HookInput {
  session_id: string;
  transcript_path?: string;
  cwd: string;
  hook_event_name: HookEvent;
  [field: string]: unknown;
}

/** What a command hook needs to run. */
export interface RunHookOptions {
  shell: ShellOps;
  /** The hook's working directory. */
  cwd: string;
  /** `CLAUDE_PROJECT_DIR`; defaults to `cwd`. */
  projectDir?: string;
  /** `CLAUDE_PLUGIN_ROOT`, for hooks that came from a plugin (or, as in Claude Code, a skill's dir). */
  pluginRoot?: string;
  /** Extra environment, added to the parent's. */
  env?: Record<string, string>;
  signal?: AbortSignal;
  /** The timeout when the hook sets none; default {@link DEFAULT_HOOK_TIMEOUT_MS}. */
  defaultTimeoutMs?: number;
}

/**
 * The outcome of one hook run:
 * - `continue`: exit 0; `output` when stdout was hook JSON, `outputError` when it looked like JSON but was not
 *   valid (the run still counts as a success);
 * - `block`: exit 2 (`reason` = stderr) or exit 0 with JSON `decision: "block"` (`reason` = its `reason`);
 * - `warning`: any other exit code, a timeout (the process tree is killed), an abort, or a spawn failure.
 */
export type HookRunResult =
  | { outcome: "continue"; stdout: string; output?: HookOutput; outputError?: string }
  | { outcome: "block"; reason: string; output?: HookOutput }
  | { outcome: "warning"; message: string };

/** Cuts text to {@link MAX_HOOK_TEXT_CHARS}, saying how much was left out. */
export function capHookText(text: string): string {
  if (text.length <= MAX_HOOK_TEXT_CHARS) return text;
  return `${text.slice(0, MAX_HOOK_TEXT_CHARS)}… [${text.length - MAX_HOOK_TEXT_CHARS} more characters cut]`;
}

/**
 * The hook's timeout in milliseconds: its `timeout` (seconds), else `fallbackMs` (default
 * {@link DEFAULT_HOOK_TIMEOUT_MS}).
 */
export function hookTimeoutMs(
  hook: Pick<HookCommand, "timeout">,
  fallbackMs: number = DEFAULT_HOOK_TIMEOUT_MS,
): number {
  return hook.timeout === undefined ? fallbackMs : Math.round(hook.timeout * 1000);
}

/**
 * Runs one command hook with bash: the event JSON on stdin, `CLAUDE_PROJECT_DIR` (and `CLAUDE_PLUGIN_ROOT` when
 * given) in the environment, killed with its whole process tree after its timeout. Never rejects: every
 * failure is a `warning` result, and so is a shell that starts nothing (`not run: {refusal}`).
 */
export async function runCommandHook(
  hook: HookCommand,
  input: HookInput,
  options: RunHookOptions,
): Promise<HookRunResult> {
  if (options.signal?.aborted) return { outcome: "warning", message: "aborted before it started" };
  const refusal = options.shell.refusal;
  if (refusal !== undefined) return { outcome: "warning", message: `not run: ${refusal}` };
  const timeoutMs = hookTimeoutMs(hook, options.defaultTimeoutMs);
  const env: Record<string, string> = {
    ...options.env,
    CLAUDE_PROJECT_DIR: options.projectDir ?? options.cwd,
    ...(options.pluginRoot === undefined ? {} : { CLAUDE_PLUGIN_ROOT: options.pluginRoot }),
  };
  let result: ShellResult;
  try {
    result = await options.shell.run(hook.command, {
      cwd: options.cwd,
      env,
      input: JSON.stringify(input),
      timeoutMs,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      shell: "bash",
    });
  } catch (error) {
    return { outcome: "warning", message: `could not start: ${errorMessage(error)}` };
  }
  const stderr = result.stderr.trim();
  if (result.timedOut) {
    return { outcome: "warning", message: `timed out after ${timeoutMs / 1000} s and was killed` };
  }
  if (result.aborted) return { outcome: "warning", message: "aborted" };
  if (result.startError !== undefined)
    return { outcome: "warning", message: `could not start: ${result.startError}` };
  if (result.exitCode === undefined) {
    const detail = stderr === "" ? "" : `: ${stderr}`;
    const message = `did not exit normally (killed by a signal, or could not start in ${options.cwd})${detail}`;
    return { outcome: "warning", message: capHookText(message) };
  }
  if (result.exitCode === HOOK_BLOCK_EXIT_CODE) {
    return {
      outcome: "block",
      reason: capHookText(
        stderr === "" ? `Blocked by hook "${hook.shown ?? hook.command}" (exit code 2, no stderr)` : stderr,
      ),
    };
  }
  if (result.exitCode !== 0) {
    const detail = stderr === "" ? "" : `: ${stderr}`;
    return { outcome: "warning", message: capHookText(`exited with code ${result.exitCode}${detail}`) };
  }
  return outcomeOfOutput(result.stdout, `Blocked by hook "${hook.shown ?? hook.command}"`);
}

/**
 * What a hook's successful answer (a command's stdout on exit 0, an HTTP hook's 2xx body) means: JSON output
 * (`decision: "block"` blocks, with its `reason` or `blockedBy`), plain text, or JSON that does not validate
 * (`outputError`; still a success). Pure.
 */
export function outcomeOfOutput(text: string, blockedBy: string): HookRunResult {
  const parsed = parseHookStdout(text);
  switch (parsed.kind) {
    case "text":
      return { outcome: "continue", stdout: text };
    case "invalid":
      return { outcome: "continue", stdout: text, outputError: parsed.message };
    case "json": {
      const output = parsed.output;
      if (output.decision === "block") {
        const reason = output.reason?.trim() || blockedBy;
        return { outcome: "block", reason: capHookText(reason), output };
      }
      return { outcome: "continue", stdout: text, output };
    }
    default:
      return assertNever(parsed);
  }
}
