import type { Diagnostic } from "../diagnostics.js";
import { parseFrontmatter } from "../skill/frontmatter.js";
import { splitFrontmatter } from "../skill/frontmatter-core.js";
import { type AgentType, agentFromFile } from "./agent-types.js";

/** Parses one `.claude/agents/*.md` file. Never throws. Synchronous: this module loads `yaml` up front. */
export function parseAgentFile(
  text: string,
  path: string,
  source: AgentType["source"],
): { agent?: AgentType; diagnostics: Diagnostic[] } {
  const split = splitFrontmatter(text);
  const data = split.frontmatter === undefined ? {} : parseFrontmatter(split.frontmatter).data;
  return agentFromFile(split, data, path, source);
}
