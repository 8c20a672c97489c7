/**
 * skillwright's public API: what a host needs to discover skills, open sessions and plug in its own I/O (files,
 * shell, transcripts, usage scores). Every name here is public on purpose and test/public-surface.test.ts pins
 * the list; nothing else is. Test helpers (the scripted Messages API server) are the `skillwright/testing` entry.
 */

export type { AgentEvent, AgentResult } from "./agent/events.js";
export type { AgentTool } from "./agent/loop.js";
export { createModelClient, type ModelClient, type ModelClientOptions } from "./agent/model-client.js";
export { ModelError } from "./agent/model-error.js";
export type { ModelMessage } from "./agent/model-types.js";
export type { BundledRegistry, BundledSkillDefinition } from "./bundled/register.js";
export type { Discovery, SkillCatalog } from "./catalog/catalog.js";
export {
  DIAGNOSTIC_CODES,
  type Diagnostic,
  type DiagnosticCode,
  hasErrors,
  type Severity,
} from "./diagnostics.js";
export { createEngine, type Engine, type EngineOptions } from "./engine/engine.js";
export type { SkillInfo } from "./environments/skill-info.js";
export { UnknownEnvironmentError } from "./environments/unknown-environment-error.js";
export { createNodeFs, type DirEntry, type FileHead, type FileStat, type FsOps } from "./io/fs.js";
export { createMemoryFs } from "./io/memory-fs.js";
export { createNodeShell, type ShellOps, type ShellResult, type ShellRunOptions } from "./io/shell.js";
export { DEFAULT_MODEL, type ModelEffort } from "./models.js";
export type { AskPermission, PermissionDecision, PermissionRules } from "./permissions/decision.js";
export type { Sandbox } from "./sandbox/sandbox.js";
export { createSimulatedSandbox, type SimulatedSandboxOptions } from "./sandbox/simulated-sandbox.js";
export { openSession } from "./session/open.js";
export type { OpenedSession, OpenSessionOptions } from "./session/open-options.js";
export type { Session } from "./session/session-types.js";
export {
  createFileTranscriptStore,
  type TranscriptEntry,
  type TranscriptStore,
} from "./session/transcript-store.js";
export { UnknownSessionError } from "./session/unknown-session-error.js";
export { SKILL_TIERS, type Skill, type SkillMeta } from "./skill/skill.js";
export { defineSkillTool } from "./skill/skill-tools.js";
export type { SkillSwitches } from "./skill-filter.js";
export { createEmbeddingRetriever } from "./skill-search/embedding-retriever.js";
export type { SkillRetriever } from "./skill-search/retriever.js";
export type { MemorySkillDefinition } from "./sources/memory-skill.js";
export { createMemorySource } from "./sources/memory-source.js";
export type { SkillSource } from "./sources/skill-source.js";
export { defineTool, type Tool, type ToolContext, type ToolResult } from "./tools/define-tool.js";
export { createFileUsageStore, type UsageEntry, type UsageScores, type UsageStore } from "./usage.js";
