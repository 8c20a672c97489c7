import { ruleToolName } from "../agent/turn-patch.js";
import type { AgentType } from "../agent-types/agent-types.js";
import type { Diagnostic } from "../diagnostics.js";
import type { HookSource } from "../hooks/registry.js";
import { type HooksConfig, parseHooksConfig } from "../hooks/schema.js";
import type { ListingSettings } from "../listing/budget.js";
import type { PermissionRules } from "../permissions/decision.js";
import type { PromptTemplate } from "../prompt-templates/template.js";
import type { SkillFilter } from "../skill-filter.js";
import type { SkillContextOptions } from "./skill-context/expiry.js";

/** The permission rules a host adds to the settings' for one session (the CLI's flags, serve's tool confirmation). */
export interface HostRules {
  /** Extra allow rules (`--allowedTools`). */
  allowedTools?: readonly string[];
  /** Extra ask rules: calls they match are asked (`askPermission`) even when a rule or grant allows them. */
  askRules?: readonly string[];
  /** Tools removed (bare names) or denied (scoped rules) (`--disallowedTools`). */
  disallowedTools?: readonly string[];
}

/** One source of hooks a snapshot registers: the settings files' hooks, or one plugin's. */
export interface SnapshotHooks {
  readonly source: HookSource;
  readonly config: HooksConfig;
}

/**
 * What a session is configured from, as one immutable value: the permission rules (settings plus the host's),
 * the settings and plugin hooks, the agent types, the prompt templates, the skill filter, the plugin names, the
 * settings a session reads at open (default model, listing settings) and what was wrong reading them. A reload
 * replaces the whole value (one reference swap); nothing in it is changed in place. A user turn runs on the
 * snapshot in force when it starts: a reload that lands mid-turn is seen by the next turn.
 */
export interface SessionSnapshot {
  readonly rules: Readonly<PermissionRules>;
  /** The settings hooks, then each plugin's, in plugin order. */
  readonly hooks: readonly SnapshotHooks[];
  readonly agents: readonly AgentType[];
  readonly templates: readonly PromptTemplate[];
  readonly filter: SkillFilter;
  readonly pluginNames: readonly string[];
  /** Settings `model`; read once, when the session opens. */
  readonly model: string | undefined;
  /** The listing settings; read once, when the session opens. */
  readonly listing: ListingSettings;
  /** Settings `skillModelSwitch`; read once, when the session opens. */
  readonly skillModelSwitch: boolean;
  /** Settings `skillContext` (when inline expansions expire); read once, when the session opens. */
  readonly skillContext: Readonly<SkillContextOptions>;
  /** Settings hooks that did not parse, agent files and prompt templates that did not load. */
  readonly diagnostics: readonly Diagnostic[];
}

/** What {@link buildSnapshot} is built from: what the host loaded, plus the host's own rules. */
export interface SnapshotInput {
  /** The settings files' rules that apply. */
  settingsRules: Readonly<PermissionRules>;
  /** Absolute directories commands may write to (`--add-dir`, then settings `additionalDirectories`). */
  additionalDirectories: readonly string[];
  host: HostRules;
  /** The settings-shaped hooks object of the approved settings files (parsed here). */
  settingsHooks: unknown;
  plugins: readonly { name: string; root: string; hooks: HooksConfig }[];
  agents: readonly AgentType[];
  templates: readonly PromptTemplate[];
  filter: SkillFilter;
  model: string | undefined;
  listing: ListingSettings;
  skillModelSwitch?: boolean;
  skillContext?: SkillContextOptions;
  /** What loading the agent types and templates found wrong. */
  diagnostics: readonly Diagnostic[];
}

/** The tools the host's `disallowedTools` bare names remove from the session (scoped rules only deny). Pure. */
export function removedTools(host: HostRules): Set<string> {
  return new Set((host.disallowedTools ?? []).filter((r) => !r.includes("(")).map(ruleToolName));
}

/**
 * Builds a session's snapshot. The host's allow and ask rules follow the settings'; every `disallowedTools`
 * entry is a deny rule, bare names too: the tool leaves the list, and no grant (a skill's `allowed-tools`, its
 * inline shell) can bring it back (SPEC §14.1). The same rules after every reload. Pure but for parsing the
 * settings hooks (whose problems become diagnostics).
 */
export function buildSnapshot(input: SnapshotInput): SessionSnapshot {
  const parsed = parseHooksConfig(input.settingsHooks, "settings");
  const rules: PermissionRules = {
    allow: [...input.settingsRules.allow, ...(input.host.allowedTools ?? [])],
    deny: [...input.settingsRules.deny, ...(input.host.disallowedTools ?? [])],
    ask: [...input.settingsRules.ask, ...(input.host.askRules ?? [])],
    additionalDirectories: [...input.additionalDirectories],
  };
  const hooks: SnapshotHooks[] = [
    { source: { kind: "settings", name: "settings" }, config: parsed.config },
    ...input.plugins.map((plugin) => ({
      source: { kind: "plugin" as const, name: plugin.name, pluginRoot: plugin.root },
      config: plugin.hooks,
    })),
  ];
  return Object.freeze({
    rules: Object.freeze(rules),
    hooks: Object.freeze(hooks),
    agents: Object.freeze([...input.agents]),
    templates: Object.freeze([...input.templates]),
    filter: input.filter,
    pluginNames: Object.freeze(input.plugins.map((p) => p.name)),
    model: input.model,
    listing: input.listing,
    skillModelSwitch: input.skillModelSwitch === true,
    skillContext: Object.freeze({ ...input.skillContext }),
    diagnostics: Object.freeze([...parsed.diagnostics, ...input.diagnostics]),
  });
}
