import { BUILTIN_AGENTS } from "../../agent-types/agent-types.js";
import type { SkillCatalog } from "../../catalog/catalog.js";
import type { SessionHost } from "../../session/session-host.js";
import { buildSnapshot, type HostRules, type SessionSnapshot } from "../../session/session-snapshot.js";
import type { TranscriptStore } from "../../session/transcript-store.js";
import { NO_SKILL_FILTER, type SkillFilter } from "../../skill-filter.js";
import type { UsageStore } from "../../usage.js";
import type { ServedCapabilities } from "./served-capabilities.js";

/** Usage is not kept per served session (the store's own tables count invocations). */
const NO_USAGE: UsageStore = {
  load: async () => new Map(),
  record: async () => undefined,
};

/**
 * A served session's host: its skills are the catalog over the store (nothing else), and it is configured from
 * one snapshot with no file behind it: no settings, hooks, plugins, prompt templates, prompt files or agent
 * files, only the built-in agent types, the served agent's own rules and its `skill_overrides` (`filter`). Nothing here touches a file system;
 * the session's tools get `can.sandbox.fs` (the host's only when the operator passed `--host-tools`).
 */
export function servedSessionHost(input: {
  catalog: SkillCatalog;
  can: ServedCapabilities;
  rules: HostRules;
  /** The session's transcripts (in the database). */
  store: TranscriptStore;
  /** The agent's `skill_overrides` as a filter; absent: none. */
  filter?: SkillFilter;
}): SessionHost {
  const { catalog, can } = input;
  let snapshot: SessionSnapshot | undefined;
  return {
    cwd: can.cwd,
    projectDir: can.cwd,
    home: can.home,
    env: {},
    fs: can.sandbox.fs,
    catalog,
    // Nothing a snapshot holds changes when the store's skills do: built once.
    snapshot: async () => {
      snapshot ??= buildSnapshot({
        settingsRules: { allow: [], deny: [], ask: [] },
        additionalDirectories: [],
        host: input.rules,
        settingsHooks: undefined,
        plugins: [],
        agents: BUILTIN_AGENTS,
        templates: [],
        filter: input.filter ?? NO_SKILL_FILTER,
        model: undefined,
        listing: {},
        diagnostics: [],
      });
      return snapshot;
    },
    setup: async () => ({
      tools: [],
      instructions: [],
      promptFiles: { contextFiles: [], diagnostics: [] },
      store: () => input.store,
      usage: () => NO_USAGE,
    }),
  };
}
