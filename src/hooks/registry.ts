import { HOOK_EVENTS } from "./hook-events.js";
import { type MatchTarget, matchesHook } from "./matcher.js";
import { type HookEvent, type HookHandler, type HooksConfig, hookTarget } from "./schema.js";

/** Where hooks come from (SPEC §10). */
export const HOOK_SOURCE_KINDS = ["settings", "skill", "plugin", "agent"] as const;
export type HookSourceKind = (typeof HOOK_SOURCE_KINDS)[number];

/**
 * The origin of a set of hooks. `name` identifies it within its kind (a settings file path, a skill name, a
 * plugin name). `pluginRoot` becomes `CLAUDE_PLUGIN_ROOT`; for a skill without one, `skillDir` does (as in
 * Claude Code, which hands a skill's hooks its own dir there).
 */
export interface HookSource {
  kind: HookSourceKind;
  name: string;
  pluginRoot?: string;
  skillDir?: string;
  /** A custom agent's hooks: they fire only for events of this sub-agent (its tool calls, its SubagentStop). */
  agentId?: string;
}

/** One registered hook (any type) with where it came from. */
export interface RegisteredHook {
  /** Stable identity: source, event, matcher and command (URL, prompt). Used for `once` tracking. */
  key: string;
  event: HookEvent;
  matcher?: string;
  hook: HookHandler;
  source: HookSource;
}

/** What to match against; without `toolName` matchers are ignored (e.g. `UserPromptSubmit`, `Stop`). */
export interface HookQuery {
  toolName?: string;
  skillName?: string;
  skillAlias?: string;
  /** The sub-agent the event belongs to (payload `agent_id`); agent-scoped hooks need it to match. */
  agentId?: string;
}

/** A session's hooks. One per session: it holds the `once` state. */
export interface HookRegistry {
  /**
   * Adds the hooks of `source`. Registering the same source (kind + name) again replaces its hooks in place
   * (it keeps its position and its `once` state), so invoking a skill twice never doubles its hooks.
   * Returns how many hooks the source now has.
   */
  register(source: HookSource, config: HooksConfig): number;
  /** Removes a source's hooks; true when it had been registered. */
  unregister(source: Pick<HookSource, "kind" | "name">): boolean;
  /**
   * The hooks to run for `event`, in registration order (sources in first-registration order, then the order
   * written). Leaves out `once` hooks that have fired and later copies of an identical command with the same
   * environment (run once per event, as Claude Code does). Does not mark anything as fired.
   */
  matching(event: HookEvent, query?: HookQuery): RegisteredHook[];
  /** Records that these hooks have started: `once` hooks among them will not be returned again. */
  markFired(hooks: readonly RegisteredHook[]): void;
  /** Marks `once` hooks fired by key, as a transcript recorded them (a resumed session). */
  restoreFired(keys: Iterable<string>): void;
  /** Every registered hook, in registration order. */
  all(): RegisteredHook[];
}

function sourceKey(source: Pick<HookSource, "kind" | "name">): string {
  return `${source.kind}\u0000${source.name}`;
}

function flatten(source: HookSource, config: HooksConfig): RegisteredHook[] {
  const hooks: RegisteredHook[] = [];
  for (const event of HOOK_EVENTS) {
    for (const group of config[event] ?? []) {
      for (const hook of group.hooks) {
        const key = [sourceKey(source), event, group.matcher ?? "", hookTarget(hook)].join("\u0000");
        hooks.push({
          key,
          event,
          ...(group.matcher === undefined ? {} : { matcher: group.matcher }),
          hook,
          source,
        });
      }
    }
  }
  return hooks;
}

function environmentKey(entry: RegisteredHook): string {
  const { hook, source } = entry;
  return [hook.type, hookTarget(hook), source.pluginRoot ?? "", source.skillDir ?? ""].join("\u0000");
}

/** Creates an empty registry. All state lives in the returned object. */
export function createHookRegistry(): HookRegistry {
  const sources = new Map<string, RegisteredHook[]>();
  const fired = new Set<string>();
  const all = () => [...sources.values()].flat();
  return {
    register(source, config) {
      const hooks = flatten({ ...source }, config);
      sources.set(sourceKey(source), hooks);
      return hooks.length;
    },
    unregister(source) {
      return sources.delete(sourceKey(source));
    },
    matching(event, query = {}) {
      const seen = new Set<string>();
      const result: RegisteredHook[] = [];
      for (const entry of all()) {
        if (entry.event !== event) continue;
        if (entry.hook.once === true && fired.has(entry.key)) continue;
        if (entry.source.agentId !== undefined && entry.source.agentId !== query.agentId) continue;
        if (query.toolName !== undefined) {
          const target: MatchTarget = { toolName: query.toolName };
          if (query.skillName !== undefined) target.skillName = query.skillName;
          if (query.skillAlias !== undefined) target.skillAlias = query.skillAlias;
          if (!matchesHook(entry.matcher, target)) continue;
        }
        const envKey = environmentKey(entry);
        if (seen.has(envKey)) continue;
        seen.add(envKey);
        result.push(entry);
      }
      return result;
    },
    markFired(hooks) {
      for (const entry of hooks) if (entry.hook.once === true) fired.add(entry.key);
    },
    restoreFired(keys) {
      for (const key of keys) fired.add(key);
    },
    all,
  };
}
