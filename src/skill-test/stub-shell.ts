import type { ShellOps, ShellResult } from "../io/shell.js";
import type { StubOutput } from "./cases.js";

/**
 * The command with each argument env var reference the engine pasted (`"${SKILLWRIGHT_ARG_0}"`, `${…}`) replaced
 * by its value, so a stub can be written with the arguments in place. Pure.
 */
export function commandWithValues(command: string, env: Readonly<Record<string, string>>): string {
  let text = command;
  for (const [name, value] of Object.entries(env)) {
    text = text.replaceAll(`"\${${name}}"`, value).replaceAll(`\${${name}}`, value);
  }
  return text;
}

/**
 * A `ShellOps` that runs nothing: each command gets the output stubbed for it (matched as it would run, or with
 * the argument values in place, see `commandWithValues`); a command with no stub fails with exit 127 and a
 * message naming it, so the case shows which stub is missing.
 */
export function createStubShell(stubs: Readonly<Record<string, StubOutput>>): ShellOps {
  const find = (command: string, env: Readonly<Record<string, string>>): StubOutput | undefined =>
    stubs[command] ?? stubs[commandWithValues(command, env)];
  return {
    async run(command, options): Promise<ShellResult> {
      const stub = find(command.trim(), options.env ?? {});
      if (stub === undefined) {
        const shown = commandWithValues(command.trim(), options.env ?? {});
        return {
          stdout: "",
          stderr: `skillwright test: no stub for command: ${shown}`,
          exitCode: 127,
          timedOut: false,
          aborted: false,
        };
      }
      const result = typeof stub === "string" ? { stdout: stub, stderr: "", exit_code: 0 } : stub;
      return {
        stdout: result.stdout,
        stderr: result.stderr,
        exitCode: result.exit_code,
        timedOut: false,
        aborted: false,
      };
    },
  };
}
