import { type DispatchDeps, dispatchHooks, type HookDispatchResult, type HookPayload } from "./dispatch.js";
import type { HookRegistry } from "./registry.js";
import type { HookEvent } from "./schema.js";

/** Fires one hook event for the session. Never rejects (failing hooks are warnings in the result). */
export type RunHooks = (
  event: HookEvent,
  payload: HookPayload,
  signal?: AbortSignal,
) => Promise<HookDispatchResult>;

/** When the hooks of one event ran, how many, and whether one blocked (for telemetry). */
export interface HookRunTiming {
  event: HookEvent;
  count: number;
  startedAt: number;
  endedAt: number;
  blocked: boolean;
}

/**
 * Binds a session's hook registry and dispatch dependencies into one `RunHooks` function. Every warning of
 * every event (a hook exiting with a code other than 0 or 2, a timeout, bad JSON) and every `systemMessage`
 * goes to `onWarning`, so the host sees them whichever event fired (SPEC §10). The keys of `once` hooks that
 * ran go to `onOnceFired` (the session records them, so a resume does not run them again); each event whose
 * hooks ran goes to `onRun` with its timing.
 */
export function createHooksRunner(
  registry: HookRegistry,
  deps: Omit<DispatchDeps, "signal" | "background">,
  onWarning: (message: string) => void,
  onOnceFired: (keys: string[]) => Promise<void> = async () => {},
  track: (task: Promise<void>) => void = () => {},
  onRun: (run: HookRunTiming) => void = () => {},
): RunHooks {
  const report = (event: HookEvent, result: HookDispatchResult) => {
    for (const warning of result.warnings) onWarning(`${event} hook: ${warning}`);
    for (const message of result.systemMessages) onWarning(message);
  };
  const onceKeys = (result: HookDispatchResult) =>
    result.runs.filter((run) => run.hook.hook.once === true).map((run) => run.hook.key);
  // An async hook's result arrives after its event: only its warnings and systemMessage are reported.
  const background = (event: HookEvent, task: Promise<HookDispatchResult>) =>
    track(
      task.then(async (result) => {
        report(event, result);
        const once = onceKeys(result);
        if (once.length > 0) await onOnceFired(once);
      }),
    );
  return async (event, payload, signal) => {
    const eventDeps: DispatchDeps = { ...deps, background, ...(signal === undefined ? {} : { signal }) };
    const startedAt = Date.now();
    const result = await dispatchHooks(registry, event, payload, eventDeps);
    if (result.runs.length > 0) {
      onRun({
        event,
        count: result.runs.length,
        startedAt,
        endedAt: Date.now(),
        blocked: result.blocked !== undefined,
      });
    }
    report(event, result);
    const once = onceKeys(result);
    if (once.length > 0) await onOnceFired(once);
    return result;
  };
}

/** The `async: true` hooks still running, so a session can wait for them before it closes. */
export interface BackgroundHooks {
  track: (task: Promise<void>) => void;
  /** Resolves once every task tracked so far (and any they started) has settled. Never rejects. */
  settled: () => Promise<void>;
}

/** Creates an empty {@link BackgroundHooks}. All state lives in the returned object. */
export function createBackgroundHooks(): BackgroundHooks {
  const pending = new Set<Promise<void>>();
  return {
    track(task) {
      const settled = task.catch(() => {}).finally(() => pending.delete(settled));
      pending.add(settled);
    },
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
