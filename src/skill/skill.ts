import type { CodexInterface } from "./openai-yaml.js";
import type { SkillReferences } from "./reference.js";
import type { SkillNeeds } from "./skill-needs.js";
import type { SkillOverride } from "./skill-override.js";
import type { SkillTerms } from "./skill-terms.js";
import type { SkillToolSpec } from "./skill-tools.js";

/**
 * Where a skill came from, in precedence order (SPEC §2). `app`: an application's source
 * (`createEngine({ sources })`), whose precedence is its own `rank`.
 */
export const SKILL_TIERS = ["managed", "user", "project", "plugin", "mcp", "app", "bundled"] as const;
/** The precedence tier of a skill (one of {@link SKILL_TIERS}); a `SkillSource` is what provides skills. */
export type SkillTier = (typeof SKILL_TIERS)[number];

/** A `SKILL.md` directory skill, or a legacy `commands/*.md` command. */
export type SkillKind = "skill" | "command";

export const EFFORTS = ["low", "medium", "high", "xhigh", "max"] as const;
export type Effort = (typeof EFFORTS)[number];

export type ExecutionContext = "inline" | "fork";

/** Who invoked a skill: a person typing `/name`, the main agent's model, or a sub-agent's model. */
export type SkillTrigger = "user" | "model" | "nested";

/** The plugin a skill belongs to (SPEC §11). */
export interface PluginRef {
  name: string;
  root: string;
  dataDir: string;
  /** `${user_config.KEY}` in the plugin's skill text: its non-sensitive configured values. */
  userConfig?: Readonly<Record<string, string>>;
}

/** The frontmatter fields the engine acts on, normalised (SPEC §1). */
export interface SkillMeta {
  /** The `name:` alias when it differs from the dir name and is valid. */
  alias?: string;
  /**
   * A display title: a named environment's skill whose frontmatter `name` is not a valid skill name
   * (`name: Release Notes`). Shown to people (`listSkills()`, `list`); the skill answers only to its dir name.
   */
  title?: string;
  description: string;
  /** True when the description came from the body or the default, not from the frontmatter. */
  descriptionFromBody: boolean;
  whenToUse?: string;
  argumentHint?: string;
  argumentNames: string[];
  allowedTools: string[];
  disallowedTools: string[];
  model?: string;
  effort?: Effort;
  context: ExecutionContext;
  agent?: string;
  /**
   * `background: true` on a `context: fork` skill: the Skill tool returns a handle at once and the fork's answer
   * arrives in the caller's next request (docs/behaviour.md). Never set on an inline skill.
   */
  background?: true;
  /**
   * `available-to`: the agent types that may see and call the skill (`main` is the main agent); undefined: all.
   * Distinct from `agent`, the type a `context: fork` skill runs as.
   */
  availableTo?: string[];
  userInvocable: boolean;
  disableModelInvocation: boolean;
  /** Globs from `paths:`; undefined when the skill is not conditional. */
  paths?: string[];
  /** The raw `hooks:` value; validated when the skill is invoked (SPEC §10). */
  hooks?: unknown;
  /** `skill-tools:`: tools offered from the first request and callable once the skill is loaded. */
  skillTools?: SkillToolSpec[];
  shell: "bash" | "sh";
  /**
   * `ttl-turns`: after this many further user turns an inline expansion of the skill is replaced, in what the
   * model is sent, by a one-line stub (the transcript keeps it). Undefined: the session's default.
   */
  ttlTurns?: number;
  license?: string;
  compatibility?: string;
  version?: string;
  metadata?: unknown;
  /** Unknown top-level keys, kept as written. */
  extra: Record<string, unknown>;
  /** Codex's `interface` from the skill's `agents/openai.yaml`: shown to people (`list`, `show`), not the model. */
  codex?: CodexInterface;
  /**
   * Needs declared beside the frontmatter (`agents/openai.yaml` `dependencies`); those in `metadata` are read by
   * `skillNeeds`. Absent: none.
   */
  needs?: SkillNeeds;
}

/**
 * A discovered skill: plain data plus `loadBody`, which reads the text after the frontmatter on demand
 * (discovery reads only the head of each file). Sources differ only in where the body comes from.
 */
export interface Skill extends SkillMeta {
  /** The name the skill answers to: dir name, `ns:sub` for commands, `plugin:name`, `mcp__server__name`. */
  name: string;
  source: SkillTier;
  kind: SkillKind;
  /** The file the skill was found at (not its realpath). Empty for in-memory skills. */
  filePath: string;
  /** `Base directory for this skill:` — the dir the skill was found in (not its realpath). */
  baseDir: string;
  /** The root dir the skill was found under, e.g. `/repo/.claude/skills`. */
  root: string;
  plugin?: PluginRef;
  /** Present for MCP skills: the server name. Inline shell never runs for these. */
  mcpServer?: string;
  /**
   * Reads the body (the text after the frontmatter). Rejects when the file has gone. `args` is used only by
   * sources whose text depends on them (MCP prompts, which take their arguments server-side).
   */
  loadBody(signal?: AbortSignal, args?: string): Promise<string>;
  /** True when the body is final text: no substitution, no inline shell (MCP prompts). */
  literalBody?: boolean;
  /**
   * What the model may read with `load_reference`: declared references of memory skills, or the files in a
   * file skill's folder (relative paths as names). Absent: none.
   */
  references?: SkillReferences;
  /**
   * Set by the catalog when a settings file's `skillOverrides` makes the skill `name-only` or
   * `user-invocable-only` (a `user-invocable-only` skill also has `disableModelInvocation`). Absent: as written.
   */
  override?: SkillOverride;
  /**
   * Its head fields' search terms, when the discovery cache kept them (see `skill-terms.ts`). Not enumerable:
   * JSON output, spreads and comparisons leave it out (a copy analyses its text again).
   */
  terms?: SkillTerms;
}

/** The name as listed: `{dir} ({alias})` when there is an alias. */
export function displayName(skill: Pick<Skill, "name" | "alias">): string {
  return skill.alias === undefined ? skill.name : `${skill.name} (${skill.alias})`;
}

/** True when `name` is one of the names the skill answers to. Case-sensitive. */
export function answersTo(skill: Pick<Skill, "name" | "alias">, name: string): boolean {
  return skill.name === name || skill.alias === name;
}
