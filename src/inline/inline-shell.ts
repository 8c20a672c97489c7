import type { ShellOps, ShellResult } from "../io/shell.js";
import type { PermissionDecision } from "../permissions/decision.js";
import { shellContextAt } from "./shell-context.js";
import { variableReference } from "./shell-quote.js";
import { splitShellRegions } from "./shell-regions.js";
import {
  appendUnusedArguments,
  expandBody,
  type PlaceholderEncoder,
  type SubstituteOptions,
  type SubstitutionVars,
  substitute,
} from "./substitute.js";

/** Output of one inline command is cut to this many characters, then a truncation note follows (SPEC §5). */
export const MAX_INLINE_OUTPUT_CHARS = 30_000;

/** An inline command still running after this long is killed and fails the expansion. */
export const INLINE_SHELL_TIMEOUT_MS = 120_000;

/** What replaces a marker whose command printed nothing. */
export const EMPTY_OUTPUT_TEXT = "(Bash completed with no output)";

/** What the output of a command that exited non-zero starts with in the failure text (SPEC §14.9). */
export const FAILED_OUTPUT_PREFIX = "[stderr]\n";

/** Env var holding the raw args inside inline commands (`$ARGUMENTS`). */
export const ARGUMENTS_ENV_VAR = "SKILLWRIGHT_ARGUMENTS";

/** Prefix of the env vars holding positional args inside inline commands (`$0` → `SKILLWRIGHT_ARG_0`). */
export const ARG_ENV_VAR_PREFIX = "SKILLWRIGHT_ARG_";

/**
 * The permission check for one inline command, the same one the `Bash` tool uses (with the skill's own
 * `allowed-tools` granted). Anything but `allow` is a denial: an `ask` must be resolved by the checker itself.
 */
export type CheckCommand = (command: string, signal?: AbortSignal) => Promise<PermissionDecision>;

export interface InlineExpansionOptions {
  /** The raw args string. */
  args: string;
  argumentNames?: readonly string[];
  vars?: SubstitutionVars;
  /** False for MCP skills: markers stay literal and nothing runs. */
  allowShell: boolean;
  /** The skill's `shell:`; default `bash`. */
  shell?: "bash" | "sh";
  /** Working dir of the commands: the project dir. */
  cwd: string;
  shellOps: ShellOps;
  checkCommand: CheckCommand;
  signal?: AbortSignal;
  /** Per command; default `INLINE_SHELL_TIMEOUT_MS`. */
  timeoutMs?: number;
}

/** The expanded body, or why the whole expansion failed (a message for the tool result). */
/**
 * An expansion, or why it failed; `shell` marks a failure of an inline shell command (denied or failed), which
 * the Skill tool returns without the `<tool_use_error>` wrapper (SPEC §14.9).
 */
export type InlineExpansion = { ok: true; text: string } | { ok: false; message: string; shell?: true };

/** Cuts text to `MAX_INLINE_OUTPUT_CHARS` and says how much was dropped. */
export function capOutput(text: string): string {
  if (text.length <= MAX_INLINE_OUTPUT_CHARS) return text;
  const omitted = text.length - MAX_INLINE_OUTPUT_CHARS;
  return `${text.slice(0, MAX_INLINE_OUTPUT_CHARS)}\n\n[output truncated: ${omitted} more characters not shown]`;
}

function tidy(stream: string): string {
  return stream.replace(/^(?:[ \t]*\r?\n)+/, "").trimEnd();
}

/**
 * The text of a command's output: stdout then stderr (each without leading blank lines and trailing
 * whitespace, joined by a newline), capped; empty string when both are empty.
 */
export function formatCommandOutput(stdout: string, stderr: string): string {
  return capOutput([tidy(stdout), tidy(stderr)].filter((part) => part !== "").join("\n"));
}

function failureDetail(result: ShellResult, timeoutMs: number): string | undefined {
  const output = formatCommandOutput(result.stdout, result.stderr);
  const withOutput = (reason: string) => (output === "" ? reason : `${reason}\n${output}`);
  if (result.aborted) return withOutput("Command was aborted");
  if (result.timedOut) return withOutput(`Command timed out after ${timeoutMs} ms`);
  if (result.startError !== undefined) return `Command could not start: ${result.startError}`;
  if (result.exitCode === undefined) return withOutput("Command was killed by a signal");
  if (result.exitCode !== 0) {
    return `${FAILED_OUTPUT_PREFIX}${output === "" ? `Command exited with code ${result.exitCode}` : output}`;
  }
  return undefined;
}

function denialReason(decision: PermissionDecision): string | undefined {
  switch (decision.behavior) {
    case "allow":
      return undefined;
    case "deny":
      return decision.reason;
    case "ask":
      return decision.reason ?? `Permission was not granted (${decision.prompt})`;
  }
}

/**
 * Pastes argument values into a command as references to env vars it fills in, quoted for the context at the
 * point of pasting, so the shell sees each value as data and no value can inject a command. Escaped
 * placeholders become the literal text the program should see: `\$0` stays escaped outside single quotes.
 */
function shellEncoder(env: Record<string, string>): PlaceholderEncoder {
  return (placeholder, before) => {
    const context = shellContextAt(before);
    if (placeholder.kind === "escaped") {
      return context === "single" || context === "ansi" ? placeholder.literal : `\\${placeholder.literal}`;
    }
    const name = placeholder.kind === "all" ? ARGUMENTS_ENV_VAR : `${ARG_ENV_VAR_PREFIX}${placeholder.index}`;
    env[name] = placeholder.value.replaceAll("\0", "");
    return variableReference(name, context);
  };
}

/**
 * How a refusal quotes a marker (Claude Code's wire): as the text would read after substitution (argument values
 * pasted, not the env var references the command runs with), and only its first line (a ```` ```! ```` block is
 * quoted by its opening fence line). Pure.
 */
export function refusedPattern(marker: string, base: SubstituteOptions): string {
  const substituted = substitute(marker, base).text;
  const end = substituted.indexOf("\n");
  return (end === -1 ? substituted : substituted.slice(0, end)).replace(/\r$/, "");
}

async function runOne(
  command: string,
  marker: string,
  /** The marker as a refusal quotes it (see {@link refusedPattern}). */
  quoted: string,
  options: InlineExpansionOptions,
  env: Record<string, string>,
): Promise<InlineExpansion> {
  const timeoutMs = options.timeoutMs ?? INLINE_SHELL_TIMEOUT_MS;
  // A session given no shell says so at once: asking for a permission that cannot be used would only mislead.
  const refusal = options.shellOps.refusal;
  if (refusal !== undefined) {
    return { ok: false, message: `Shell command not run for pattern "${quoted}": ${refusal}`, shell: true };
  }
  let decision: PermissionDecision;
  try {
    decision = await options.checkCommand(command, options.signal);
  } catch (error) {
    decision = { behavior: "deny", reason: error instanceof Error ? error.message : String(error) };
  }
  const denied = denialReason(decision);
  if (denied !== undefined) {
    return {
      ok: false,
      message: `Shell command permission check failed for pattern "${quoted}": ${denied}`,
      shell: true,
    };
  }
  const failed = (detail: string): InlineExpansion => ({
    ok: false,
    message: `Shell command failed for pattern "${marker}": ${detail}`,
    shell: true,
  });
  if (options.signal?.aborted) return failed("Command was aborted");
  let result: ShellResult;
  try {
    result = await options.shellOps.run(command, {
      cwd: options.cwd,
      env,
      shell: options.shell ?? "bash",
      signal: options.signal,
      timeoutMs,
    });
  } catch (error) {
    return failed(error instanceof Error ? error.message : String(error));
  }
  const detail = failureDetail(result, timeoutMs);
  if (detail !== undefined) return failed(detail);
  const output = formatCommandOutput(result.stdout, result.stderr);
  return { ok: true, text: output === "" ? EMPTY_OUTPUT_TEXT : output };
}

/**
 * Expands a skill body (SPEC §5): substitutes placeholders, runs each inline shell marker and replaces it with
 * its output, then applies the `ARGUMENTS:` append rule. The body is split into text and shell regions first:
 * text gets values pasted raw; inside a command each argument value is passed in an env var
 * (`SKILLWRIGHT_ARGUMENTS`, `SKILLWRIGHT_ARG_{N}`) referenced with quoting fit for its spot, so args can never
 * inject commands (variables like `${CLAUDE_SKILL_DIR}` are trusted and pasted raw). Commands run sequentially in
 * document order, each after `checkCommand` (which sees the command as it will run, references included),
 * through `shellOps` with `cwd`, `shell`, `signal`, the env vars and a timeout.
 * Command output is never substituted or scanned again. The first denial or failure stops the expansion:
 * `Shell command permission check failed for pattern "{q}": {reason}` (an unresolved `ask` gives its `reason`, SPEC
 * §14.9) / `Shell command failed for pattern "{p}": [stderr]⏎{output}` for a non-zero exit (timeouts and
 * aborts say so instead), where `{p}` is the marker as written in the body and `{q}` the marker as a refusal
 * quotes it (`refusedPattern`: substituted, first line only). A shell that starts nothing (`refusal` set) gives
 * `Shell command not run for pattern "{q}": {refusal}` before any permission check. `allowShell: false` leaves markers
 * literal (substituted like text) and runs nothing. Never rejects (a throwing checker or shell is a failure).
 */
export async function expandInline(body: string, options: InlineExpansionOptions): Promise<InlineExpansion> {
  const base = { args: options.args, argumentNames: options.argumentNames, vars: options.vars };
  if (!options.allowShell) return { ok: true, text: expandBody(body, base) };
  let text = "";
  let substituted = false;
  for (const region of splitShellRegions(body)) {
    if (region.kind === "text") {
      const part = substitute(region.text, base);
      text += part.text;
      substituted ||= part.substituted;
      continue;
    }
    const env: Record<string, string> = {};
    const command = substitute(region.command, { ...base, encode: shellEncoder(env) });
    substituted ||= command.substituted;
    const quoted = refusedPattern(region.marker, base);
    const ran = await runOne(command.text.trim(), region.marker, quoted, options, env);
    if (!ran.ok) return ran;
    text += ran.text;
  }
  return { ok: true, text: appendUnusedArguments(text, options.args, substituted) };
}
