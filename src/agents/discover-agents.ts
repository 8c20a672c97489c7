import { join } from "node:path";
import type { Diagnostic } from "../diagnostics.js";
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

/**
 * The agent types a session can fork into, discovered like skills: built-in first (never replaced), then user,
 * then project (nearest first), then those of the loaded plugins; of two with one name the earlier wins. Bad
 * files become diagnostics; never rejects for bad content.
 */
export async function discoverAgentTypes(input: {
  fs: FsOps;
  home: string;
  roots: readonly SkillRoot[];
  plugins: readonly { agents: readonly AgentType[] }[];
  /** The named environment's dir (`~/.skillwright/environments/<name>`), whose `agents/` come first. */
  environmentDir?: string;
}): Promise<{ agents: AgentType[]; diagnostics: Diagnostic[] }> {
  const loaded = await loadAgentTypes(input.fs, agentDirs(input.home, input.roots, input.environmentDir));
  return {
    agents: [...loaded.agents, ...input.plugins.flatMap((plugin) => plugin.agents)],
    diagnostics: loaded.diagnostics,
  };
}
