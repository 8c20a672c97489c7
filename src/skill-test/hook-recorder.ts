import type { ShellOps, ShellRunOptions } from "../io/shell.js";
import { isRecord } from "../is-record.js";
import type { HookRun } from "./session-checks.js";

/** The hook a shell run is, from the event JSON a command hook reads on stdin; undefined for other commands. Pure. */
export function hookRunOf(command: string, options: Pick<ShellRunOptions, "input">): HookRun | undefined {
  if (options.input === undefined || !options.input.startsWith("{")) return undefined;
  let input: unknown;
  try {
    input = JSON.parse(options.input);
  } catch {
    return undefined;
  }
  if (!isRecord(input) || typeof input.hook_event_name !== "string") return undefined;
  const tool = typeof input.tool_name === "string" ? input.tool_name : undefined;
  return { event: input.hook_event_name, ...(tool === undefined ? {} : { tool }), command };
}

/**
 * A shell that runs every command with `shell` and appends each hook command run (told apart by its event JSON
 * on stdin) to `log`, in the order they start: the session's hook log.
 */
export function createHookRecordingShell(shell: ShellOps, log: HookRun[]): ShellOps {
  return {
    run(command, options) {
      const hook = hookRunOf(command, options);
      if (hook !== undefined) log.push(hook);
      return shell.run(command, options);
    },
  };
}
