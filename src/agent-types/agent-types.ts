import { basename, join } from "node:path";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { type HooksConfig, parseHooksConfig } from "../hooks/schema.js";
import { errorCode, errorMessage, type FsOps } from "../io/fs.js";
import { isRecord } from "../is-record.js";
import { collapseNewlines, toBoolean, toText, toToolRules } from "../skill/fields.js";
import { parseFrontmatterLazily, type SplitFile, splitFrontmatter } from "../skill/frontmatter-core.js";
import { EFFORTS, type Effort } from "../skill/skill.js";

/**
 * Claude Code's `permissionMode` values for a custom agent. What each does here: `default` changes nothing;
 * `acceptEdits` allows Write and Edit without asking; `bypassPermissions` allows every tool the agent has
 * without asking (deny rules still win: SPEC §14.1); `plan` gives the agent only read-only tools; `dontAsk`
 * never asks: what no rule allows is denied.
 */
export const AGENT_PERMISSION_MODES = [
  "default",
  "acceptEdits",
  "bypassPermissions",
  "plan",
  "dontAsk",
] as const;
/** One of {@link AGENT_PERMISSION_MODES}. */
export type AgentPermissionMode = (typeof AGENT_PERMISSION_MODES)[number];

/** A sub-agent type a forked skill can run as (SPEC §7). */
export interface AgentType {
  name: string;
  description: string;
  /** Tool names (or rules naming tools) the agent gets; undefined = every tool of the parent. */
  tools?: string[];
  /** True: only read-only tools. */
  readOnly: boolean;
  model?: string;
  effort?: Effort;
  /** Skill names whose expansion is preloaded into the agent's first message (Claude Code's `skills:`). */
  skills?: string[];
  /** Skill name globs the agent may see and call (`allowed-skills`); undefined: every skill. */
  allowedSkills?: string[];
  /** Skill name globs the agent may not see or call (`disallowed-skills`); they beat `allowedSkills`. */
  disallowedSkills?: string[];
  /** Tools (bare names) removed from the agent, or scoped rules denied (`disallowedTools`). */
  disallowedTools?: string[];
  permissionMode?: AgentPermissionMode;
  /**
   * `background: true`: every forked skill running as this type returns to its caller at once with a handle;
   * its answer arrives in the caller's next request.
   */
  background?: boolean;
  /** Hooks registered while the agent runs, for its own events only (`Stop` runs as `SubagentStop`). */
  hooks?: HooksConfig;
  systemPrompt: string;
  source: "builtin" | "user" | "project" | "plugin";
  path?: string;
}

/** The agent type a `context: fork` skill runs as when it names none. */
export const DEFAULT_AGENT_TYPE = "general-purpose";

const FORK_PROMPT =
  "You are a sub-agent started to carry out one task for a parent agent. Work autonomously with the tools " +
  "you have; do not ask questions, nobody will answer them. When you are done, reply with your final result " +
  "as plain text: it is returned to the parent verbatim, so make it complete and self-contained.";

/** The built-in agent types: `general-purpose` (all tools), `Explore` and `Plan` (read-only). */
export const BUILTIN_AGENTS: readonly AgentType[] = [
  {
    name: "general-purpose",
    description: "General-purpose agent for multi-step tasks with every tool.",
    readOnly: false,
    systemPrompt: FORK_PROMPT,
    source: "builtin",
  },
  {
    name: "Explore",
    description: "Read-only agent for searching and reading code to answer a question.",
    readOnly: true,
    systemPrompt: `${FORK_PROMPT}\n\nYou are read-only: search and read, never change files.`,
    source: "builtin",
  },
  {
    name: "Plan",
    description: "Read-only agent that studies the code and returns a step-by-step plan.",
    readOnly: true,
    systemPrompt: `${FORK_PROMPT}\n\nYou are read-only: study the code and return a concrete, ordered plan.`,
    source: "builtin",
  },
];

/**
 * The agent type of one `.claude/agents/*.md` file from its split text and parsed frontmatter (`parseAgentFile`
 * and `loadAgentTypes` parse; this decides). Pure; never throws.
 */
export function agentFromFile(
  split: SplitFile,
  data: Record<string, unknown>,
  path: string,
  source: AgentType["source"],
): { agent?: AgentType; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const name = toText(data.name)?.trim() || basename(path).replace(/\.md$/, "");
  const description = collapseNewlines(toText(data.description) ?? "");
  if (description === "") {
    diagnostics.push(diagnostic("warning", "agent-invalid", "agent has no description", path));
  }
  const agent: AgentType = {
    name,
    description,
    readOnly: false,
    systemPrompt: split.body.trim(),
    source,
    path,
  };
  if (data.tools !== undefined && data.tools !== null) {
    const tools = toToolRules(data.tools);
    if (tools === undefined)
      diagnostics.push(diagnostic("warning", "agent-invalid", "tools: expected a list", path));
    else agent.tools = tools;
  }
  const model = toText(data.model)?.trim();
  if (model) agent.model = model;
  const list = (key: string) => {
    const raw = data[key];
    if (raw === undefined || raw === null) return undefined;
    const items = toToolRules(raw);
    if (items === undefined)
      diagnostics.push(diagnostic("warning", "agent-invalid", `${key}: expected a list`, path));
    return items;
  };
  const skills = list("skills");
  if (skills !== undefined && skills.length > 0) agent.skills = skills;
  const allowedSkills = list("allowed-skills") ?? list("allowedSkills");
  if (allowedSkills !== undefined) agent.allowedSkills = allowedSkills;
  const disallowedSkills = list("disallowed-skills") ?? list("disallowedSkills");
  if (disallowedSkills !== undefined && disallowedSkills.length > 0)
    agent.disallowedSkills = disallowedSkills;
  const disallowed = list("disallowedTools") ?? list("disallowed-tools");
  if (disallowed !== undefined && disallowed.length > 0) agent.disallowedTools = disallowed;
  const mode = toText(data.permissionMode)?.trim();
  if (mode !== undefined && mode !== "") {
    const known = AGENT_PERMISSION_MODES.find((m) => m.toLowerCase() === mode.toLowerCase());
    if (known !== undefined) agent.permissionMode = known;
    else
      diagnostics.push(
        diagnostic(
          "warning",
          "agent-invalid",
          `permissionMode: unknown mode "${mode}" (known: ${AGENT_PERMISSION_MODES.join(", ")}); ignored`,
          path,
        ),
      );
  }
  if (data.hooks !== undefined && data.hooks !== null) {
    const parsed = parseHooksConfig(stopAsSubagentStop(data.hooks), path);
    diagnostics.push(...parsed.diagnostics);
    if (Object.keys(parsed.config).length > 0) agent.hooks = parsed.config;
  }
  if (data.background !== undefined && data.background !== null) {
    const background = toBoolean(data.background);
    if (background === undefined)
      diagnostics.push(diagnostic("warning", "agent-invalid", "background: expected true or false", path));
    else agent.background = background;
  }
  const effort = toText(data.effort)?.trim().toLowerCase();
  if (effort !== undefined && effort !== "") {
    if ((EFFORTS as readonly string[]).includes(effort)) agent.effort = effort as Effort;
    else diagnostics.push(diagnostic("warning", "agent-invalid", `effort: unknown level "${effort}"`, path));
  }
  return { agent, diagnostics };
}

/** An agent's `Stop` hooks run when the agent stops, which is the parent's `SubagentStop` (as in Claude Code). */
function stopAsSubagentStop(hooks: unknown): unknown {
  if (!isRecord(hooks) || !("Stop" in hooks)) return hooks;
  const { Stop: stop, ...rest } = hooks;
  const existing = rest.SubagentStop;
  const merged = [...(Array.isArray(existing) ? existing : []), ...(Array.isArray(stop) ? stop : [stop])];
  return { ...rest, SubagentStop: merged };
}

/**
 * Loads custom agents from `{dir}/*.md` for each dir (user first, then project dirs nearest first); a later
 * definition of the same name does not replace an earlier one. Built-ins come first and cannot be replaced.
 * `yaml` is loaded only when a file's frontmatter needs it.
 */
export async function loadAgentTypes(
  fs: FsOps,
  dirs: readonly { dir: string; source: AgentType["source"] }[],
): Promise<{ agents: AgentType[]; diagnostics: Diagnostic[] }> {
  const agents: AgentType[] = [...BUILTIN_AGENTS];
  const diagnostics: Diagnostic[] = [];
  for (const { dir, source } of dirs) {
    let entries: Awaited<ReturnType<FsOps["readdir"]>>;
    try {
      entries = await fs.readdir(dir);
    } catch (error) {
      if (errorCode(error) !== "ENOENT") {
        diagnostics.push(diagnostic("warning", "dir-unreadable", errorMessage(error), dir));
      }
      continue;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (!entry.name.endsWith(".md") || entry.kind === "dir") continue;
      const path = join(dir, entry.name);
      try {
        const split = splitFrontmatter(await fs.readFile(path));
        const data =
          split.frontmatter === undefined ? {} : (await parseFrontmatterLazily(split.frontmatter)).data;
        const parsed = agentFromFile(split, data, path, source);
        diagnostics.push(...parsed.diagnostics);
        if (parsed.agent !== undefined && !agents.some((a) => a.name === parsed.agent?.name)) {
          agents.push(parsed.agent);
        }
      } catch (error) {
        diagnostics.push(diagnostic("warning", "file-unreadable", errorMessage(error), path));
      }
    }
  }
  return { agents, diagnostics };
}
