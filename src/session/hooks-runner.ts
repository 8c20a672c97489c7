import {
  type DispatchDeps,
  dispatchHooks,
  type HookDispatchResult,
  type HookPayload,
} from "../hooks/dispatch.js";
import type { HookRegistry } from "../hooks/registry.js";
import type { HookEvent } from "../hooks/schema.js";

/** Fires one hook event for the session. Never rejects (failing hooks are warnings in the result). */
export type RunHooks = (
  event: HookEvent,
  payload: HookPayload,
  signal?: AbortSignal,
) => Promise<HookDispatchResult>;

/** Binds a session's hook registry and dispatch dependencies into one `RunHooks` function. */
export function createHooksRunner(registry: HookRegistry, deps: Omit<DispatchDeps, "signal">): RunHooks {
  return (event, payload, signal) =>
    dispatchHooks(registry, event, payload, signal === undefined ? deps : { ...deps, signal });
}
