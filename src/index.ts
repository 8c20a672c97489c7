/**
 * skillwright's public API. Every export is named here on purpose: nothing else is public.
 */

// Agent, tools, forks
export type { AgentEvent, AgentResult } from "./agent/events.js";
export { type AgentTool, executeAgent, runAgent, type ToolGate } from "./agent/loop.js";
export {
  createModelClient,
  type ModelClient,
  type ModelClientOptions,
  ModelError,
  type ModelMessage,
} from "./agent/model-client.js";
export { contextWindowFor, DEFAULT_MODEL, MODEL_ALIASES, resolveModel } from "./agent/models.js";
export { createFileSessionStore, replayMessages, type SessionStore } from "./agent/session-store.js";
// Skills and discovery
export {
  type BundledRegistry,
  type BundledSkillDefinition,
  createBundledRegistry,
} from "./bundled/register.js";
export { loadScript, ModelScript } from "./dev/model-script.js";
export { type ModelServer, startModelServer } from "./dev/model-server.js";
export {
  assertNever,
  DIAGNOSTIC_CODES,
  type Diagnostic,
  type DiagnosticCode,
  hasErrors,
  type Severity,
} from "./diagnostics.js";
export {
  type DiscoverOptions,
  type Discovery,
  discoverSkills,
  type RootReport,
} from "./discovery/discover.js";
export { type RootInputs, type SkillRoot, skillRoots } from "./discovery/sources.js";
// Engine and sessions
export { createEngine, type Engine, type EngineOptions } from "./engine.js";
export { AGENT_PERMISSION_MODES, type AgentPermissionMode } from "./fork/agent-types.js";
export { type AgentType, BUILTIN_AGENTS, loadAgentTypes } from "./fork/agents.js";
export { dispatchHooks } from "./hooks/dispatch.js";
// Hooks, plugins, MCP
export { createHookRegistry, type HookRegistry } from "./hooks/registry.js";
export { HOOK_EVENTS, type HookEvent, HooksConfig, parseHooksConfig } from "./hooks/schema.js";
export { expandSkill } from "./inline/expand-skill.js";
export { expandInline, hasInlineShell } from "./inline/inline-shell.js";
export { substitute } from "./inline/substitute.js";
// I/O and testing
export { createNodeFs, type FsOps } from "./io/fs.js";
export { createNodeShell, type ShellOps } from "./io/shell.js";
// Listing, the Skill tool, permissions
export {
  buildListing,
  type Listing,
  type ListingEntry,
  listingBudget,
  listingDescription,
  listingLimits,
} from "./listing.js";
export { loadMcpConfigs, parseMcpConfig } from "./mcp/config.js";
export { createMcpManager, type McpManager } from "./mcp/manager.js";
export { type DecideInput, decide } from "./permissions/decide.js";
export type { AskPermission, PermissionDecision, PermissionRules } from "./permissions/decision.js";
export { type LoadedPlugin, loadPlugin } from "./plugins/load-plugin.js";
export { loadPlugins, type SourcedPlugin } from "./plugins/load-plugins.js";
export { validatePlugins } from "./plugins/validate-plugin.js";
export { type OpenedSession, type OpenSessionOptions, openSession } from "./session/open.js";
export { COMPACT_COMMAND, createSession, type Session, type SessionDeps } from "./session/session.js";
export { parseFrontmatter, splitFrontmatter } from "./skill/frontmatter.js";
export { HEAD_BYTES, loadSkillFile, MAX_SKILL_FILE_BYTES, type SkillFileRef } from "./skill/load-skill.js";
export { KNOWN_FIELDS, normalizeMeta } from "./skill/schema.js";
export {
  answersTo,
  displayName,
  EFFORTS,
  type Effort,
  SKILL_SOURCES,
  type Skill,
  type SkillKind,
  type SkillMeta,
  type SkillSource,
} from "./skill/skill.js";
export { checkSpecProfile } from "./skill/spec-profile.js";
export { type ValidatedFile, validatePath } from "./skill/validate-path.js";
export {
  type DisabledBy,
  type DisabledSkill,
  matchesSkillPattern,
  type SkillFilter,
  type SkillSwitches,
} from "./skill-filter.js";
export { searchSkills } from "./skill-search/search.js";
export { createSkillSearchTool } from "./skill-search/tool.js";
export { SKILL_TOOL_DESCRIPTION, SKILL_TOOL_NAME } from "./skill-tool/prompt.js";
export {
  parseSkillToolInput,
  SKILL_TOOL_INPUT_SCHEMA,
  SkillToolInput,
  toolUseError,
  validateSkillCall,
} from "./skill-tool/validate.js";
export { createBuiltinTools } from "./tools/builtin.js";
export { defineTool, type Tool, type ToolContext, type ToolResult } from "./tools/define-tool.js";
export { createFileUsageStore, type UsageStore, usageScore } from "./usage.js";
