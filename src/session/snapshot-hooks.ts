import type { HookRegistry } from "../hooks/registry.js";
import type { SessionSnapshot } from "./session-snapshot.js";

/**
 * Brings a session's hook registry from the `previous` snapshot's settings and plugin hooks to `next`'s:
 * each of `next`'s sources registered (replacing its hooks in place, keeping its `once` state), and the plugin
 * sources only `previous` had removed. Skill and agent hooks in the registry are left alone.
 */
export function applySnapshotHooks(
  registry: HookRegistry,
  previous: SessionSnapshot | undefined,
  next: SessionSnapshot,
): void {
  const kept = new Set(next.hooks.map((h) => `${h.source.kind}:${h.source.name}`));
  for (const { source } of previous?.hooks ?? []) {
    if (!kept.has(`${source.kind}:${source.name}`)) registry.unregister(source);
  }
  for (const { source, config } of next.hooks) registry.register(source, config);
}
