import type { AgentTool } from "../agent/loop.js";
import { type SkillScope, skillsInScope } from "../agent-types/skill-scope.js";
import type { Diagnostic } from "../diagnostics.js";
import { createNodeFileModes } from "../io/atomic-write.js";
import type { FsOps } from "../io/fs.js";
import type { ShellOps } from "../io/shell.js";
import { catalogCanCut, SKILL_SEARCH_TOOL_NAME } from "../listing/overflow.js";
import type { Skill } from "../skill/skill.js";
import { RESERVED_TOOL_NAMES } from "../skill/skill-tools.js";
import type { SkillSearcher } from "../skill-search/search.js";
import { createSkillSearchTool } from "../skill-search/tool.js";
import { skillOwnedTools } from "../skill-tool/owned-tools.js";
import { LOAD_REFERENCE_TOOL_NAME, namesReferences } from "../sources/reference-section.js";
import { createBuiltinTools } from "../tools/builtin.js";
import { createLoadReferenceTool } from "../tools/load-reference.js";

/** What decides a session's tools, once, at open. */
export interface SessionToolsInput {
  /** The file system the built-in tools use (file modes only over the host's own). */
  fs: FsOps;
  /** The shell for Bash; absent: no Bash tool. */
  shell?: ShellOps;
  home: string;
  /** Whether the built-in file and shell tools are offered. */
  builtinTools: boolean;
  /** Whether the built-ins include Bash when `shell` is given (default true). */
  bashTool?: boolean;
  /** How long one Grep or Glob call may run (default `TOOL_DEADLINE_MS`). */
  toolDeadlineMs?: number;
  /** The host's tools (MCP) and the application's own, after the built-ins. */
  extra: readonly AgentTool[];
  /** Bare tool names removed (`disallowedTools`). */
  removed: ReadonlySet<string>;
  /** The skills at open: `load_reference` is offered when one has references and no folder (unless `loadReference` says). */
  skills: readonly Skill[];
  loadReference?: boolean;
  /** The skills visible now (what `load_reference` and `SkillSearch` read). */
  visible: () => readonly Skill[];
  /** The listing budget and description cap for the session's model: `SkillSearch` when the listing can cut anything. */
  listing: { budget: number; maxDescChars: number };
  /** What `SkillSearch` ranks with (its index is built on the first search). */
  searcher: SkillSearcher;
}

/**
 * A session's tools, decided once so the tools array never changes within the session (SPEC §14.15): the
 * built-ins, the host's and the application's, minus removed names, then `load_reference`; and `SkillSearch`
 * apart (each agent gets it beside its Skill tool).
 */
export function sessionTools(input: SessionToolsInput): {
  tools: AgentTool[];
  /** Problems with the skills' own tools (a name another tool has). */
  diagnostics: Diagnostic[];
  /** The `SkillSearch` tool over the skills an agent of `scope` may see (the same definition for every scope). */
  skillSearch?: (scope: SkillScope) => AgentTool;
} {
  const builtins = input.builtinTools
    ? createBuiltinTools({
        fs: input.fs,
        ...(input.shell === undefined || input.bashTool === false ? {} : { shell: input.shell }),
        ...(input.fs.host === true ? { modes: createNodeFileModes() } : {}),
        homeDir: input.home,
        deadlineMs: input.toolDeadlineMs,
      })
    : [];
  const tools = [...builtins, ...input.extra].filter((t) => !input.removed.has(t.name));
  // The skills' own tools last: a name a tool above has (or Skill, SkillSearch, load_reference) is theirs.
  const owned = skillOwnedTools({
    skills: input.skills,
    taken: new Set([...builtins, ...input.extra].map((t) => t.name).concat(RESERVED_TOOL_NAMES)),
    ...(input.shell === undefined ? {} : { shell: input.shell }),
  });
  if (
    (input.loadReference ?? input.skills.some(namesReferences)) &&
    !input.removed.has(LOAD_REFERENCE_TOOL_NAME)
  ) {
    tools.push(createLoadReferenceTool({ skills: input.visible }));
  }
  const searchable =
    catalogCanCut(input.skills, input.listing.budget, input.listing.maxDescChars) &&
    !input.removed.has(SKILL_SEARCH_TOOL_NAME);
  tools.push(...owned.tools.filter((t) => !input.removed.has(t.name)));
  const { diagnostics } = owned;
  return searchable
    ? {
        tools,
        diagnostics,
        skillSearch: (scope) =>
          createSkillSearchTool({
            skills: () => skillsInScope(input.visible(), scope),
            maxDescChars: input.listing.maxDescChars,
            searcher: input.searcher,
          }),
      }
    : { tools, diagnostics };
}
