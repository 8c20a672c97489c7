import * as z from "zod";
import type { SkillsLock } from "./skills-lock.js";

/** The lock key our installed plugins sit under, beside the `skills` installer's `skills`. */
export const PLUGINS_LOCK_KEY = "plugins";

/** One dependency as the lock records it: the plugin, its marketplace and the range it was asked at. */
export const LockedDependency = z.object({
  name: z.string(),
  marketplace: z.string(),
  range: z.string().optional(),
});
export type LockedDependency = z.infer<typeof LockedDependency>;

/**
 * One installed plugin: `source` (`name@marketplace`), the version and tag it resolved to (none when the
 * marketplace has no tags for it: then its listed copy, at `commit`), the range the user asked for (`--version`),
 * `computedHash` and each installed file's hash (as skills are locked), its capabilities as approved when it was
 * installed (hooks, MCP servers, commands, agents, each skill's powers), its dependencies, and whether it was
 * installed only as another plugin's dependency.
 */
export const PluginLockEntry = z.looseObject({
  source: z.string(),
  sourceType: z.literal("marketplace-plugin"),
  marketplace: z.string(),
  version: z.string().optional(),
  tag: z.string().optional(),
  range: z.string().optional(),
  commit: z.string().optional(),
  computedHash: z.string(),
  files: z.record(z.string(), z.string()),
  capabilities: z.array(z.string()),
  dependencies: z.array(LockedDependency),
  autoInstalled: z.boolean().optional(),
});
export type PluginLockEntry = z.infer<typeof PluginLockEntry>;

const PluginEntries = z.record(z.string(), PluginLockEntry);

/** The lock's plugin entries by plugin name, or what is wrong with them. Pure. */
export function lockedPlugins(
  lock: SkillsLock,
): { plugins: Record<string, PluginLockEntry> } | { error: string } {
  const raw = lock[PLUGINS_LOCK_KEY];
  if (raw === undefined) return { plugins: {} };
  const parsed = PluginEntries.safeParse(raw);
  if (parsed.success) return { plugins: parsed.data };
  const issue = parsed.error.issues[0];
  return { error: `${PLUGINS_LOCK_KEY}.${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}` };
}

/** A copy of the lock with these plugin entries (sorted by name). Pure. */
export function withPlugins(lock: SkillsLock, plugins: Record<string, PluginLockEntry>): SkillsLock {
  const sorted: Record<string, PluginLockEntry> = {};
  for (const name of Object.keys(plugins).sort()) {
    const entry = plugins[name];
    if (entry !== undefined) sorted[name] = entry;
  }
  return { ...lock, [PLUGINS_LOCK_KEY]: sorted };
}
