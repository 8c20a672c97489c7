import { join } from "node:path";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import type { SkillRoot } from "../discovery/skill-roots.js";
import type { FsOps } from "../io/fs.js";
import { type AgentType, loadAgentTypes } from "./agent-types.js";

/** A dir of custom agent files (`*.md`) and where it sits in precedence. */
export interface AgentDir {
  dir: string;
  source: "user" | "project";
}

/**
 * Where custom agents live, in precedence order: the named environment's `agents/` (when one is in use), then
 * `~/.claude/agents`, then the `agents` dir beside each project
 * `.claude/skills` root (nearest first, the skill roots' order). Other roots (`--add-dir`, `--skills-dir`,
 * managed, legacy commands) hold no agents. Pure.
 */
export function agentDirs(home: string, roots: readonly SkillRoot[], environmentDir?: string): AgentDir[] {
  return [
    ...(environmentDir === undefined
      ? []
      : [{ dir: join(environmentDir, "agents"), source: "user" as const }]),
    { dir: join(home, ".claude", "agents"), source: "user" },
    ...roots
      .filter(
        (r) => r.source === "project" && r.layout === "skills" && r.dir.endsWith(join(".claude", "skills")),
      )
      .map((r) => ({ dir: join(r.dir, "..", "agents"), source: "project" as const })),
  ];
}

/** The permission modes that grant tools without asking. */
const GRANTING_MODES: ReadonlySet<string> = new Set(["acceptEdits", "bypassPermissions"]);

/**
 * Project agents come with a cloned repository, so a `permissionMode` that grants tools (`acceptEdits`,
 * `bypassPermissions`) applies only when the user approved the project's grants (`enableProjectPermissions`,
 * as for its settings' allow rules); until then the agent runs in the default mode and a
 * `permissions-unapproved` diagnostic says why. Pure.
 */
export function withheldProjectModes(
  agents: readonly AgentType[],
  approved: boolean,
): { agents: AgentType[]; diagnostics: Diagnostic[] } {
  if (approved) return { agents: [...agents], diagnostics: [] };
  const diagnostics: Diagnostic[] = [];
  const out = agents.map((agent) => {
    if (agent.source !== "project" || !GRANTING_MODES.has(agent.permissionMode ?? "")) return agent;
    const { permissionMode, ...rest } = agent;
    diagnostics.push(
      diagnostic(
        "info",
        "permissions-unapproved",
        `agent "${agent.name}" runs in the default permission mode, not ${permissionMode}: a project's agents grant tools only once you approve the project's grants (\`skillwright permissions approve\`)`,
        agent.path,
      ),
    );
    return rest;
  });
  return { agents: out, diagnostics };
}

/**
 * The agent types a session can fork into, discovered like skills: built-in first (never replaced), then user,
 * then project (nearest first), then those of the loaded plugins; of two with one name the earlier wins. Bad
 * files become diagnostics; never rejects for bad content. A project agent's granting `permissionMode` is
 * dropped unless `projectGrantsApproved` (see {@link withheldProjectModes}).
 */
export async function discoverAgentTypes(input: {
  fs: FsOps;
  home: string;
  roots: readonly SkillRoot[];
  plugins: readonly { agents: readonly AgentType[] }[];
  /** The named environment's dir (`~/.skillwright/environments/<name>`), whose `agents/` come first. */
  environmentDir?: string;
  /** Whether the user approved the project's grants (`enableProjectPermissions`). */
  projectGrantsApproved: boolean;
}): Promise<{ agents: AgentType[]; diagnostics: Diagnostic[] }> {
  const loaded = await loadAgentTypes(input.fs, agentDirs(input.home, input.roots, input.environmentDir));
  const gated = withheldProjectModes(loaded.agents, input.projectGrantsApproved);
  return {
    agents: [...gated.agents, ...input.plugins.flatMap((plugin) => plugin.agents)],
    diagnostics: [...loaded.diagnostics, ...gated.diagnostics],
  };
}
