import { type DispatchDeps, dispatchHooks, type HookDispatchResult, type HookPayload } from "./dispatch.js";
import type { HookRegistry } from "./registry.js";
import type { HookEvent } from "./schema.js";

/** Fires one hook event for the session. Never rejects (failing hooks are warnings in the result). */
export type RunHooks = (
  event: HookEvent,
  payload: HookPayload,
  signal?: AbortSignal,
) => Promise<HookDispatchResult>;

/**
 * Binds a session's hook registry and dispatch dependencies into one `RunHooks` function. Every warning of
 * every event (a hook exiting with a code other than 0 or 2, a timeout, bad JSON) and every `systemMessage`
 * goes to `onWarning`, so the host sees them whichever event fired (SPEC §10). The keys of `once` hooks that
 * ran go to `onOnceFired` (the session records them, so a resume does not run them again).
 */
export function createHooksRunner(
  registry: HookRegistry,
  deps: Omit<DispatchDeps, "signal">,
  onWarning: (message: string) => void,
  onOnceFired: (keys: string[]) => Promise<void> = async () => {},
): RunHooks {
  return async (event, payload, signal) => {
    const result = await dispatchHooks(
      registry,
      event,
      payload,
      signal === undefined ? deps : { ...deps, signal },
    );
    for (const warning of result.warnings) onWarning(`${event} hook: ${warning}`);
    for (const message of result.systemMessages) onWarning(message);
    const once = result.runs.filter((run) => run.hook.hook.once === true).map((run) => run.hook.key);
    if (once.length > 0) await onOnceFired(once);
    return result;
  };
}
