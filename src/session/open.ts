import { join, resolve } from "node:path";
import { createNestedDiscovery } from "../activation/nested.js";
import { type InvokedSkill, invocationsFromTranscript } from "../agent/compaction/reattach.js";
import type { AgentTool } from "../agent/loop.js";
import type { ModelClient, ModelMessage } from "../agent/model-client.js";
import { contextWindowFor, DEFAULT_MODEL, type ModelEffort } from "../agent/models.js";
import {
  createFileSessionStore,
  newSessionId,
  replayMessages,
  type SessionStore,
} from "../agent/session-store.js";
import { buildSystemPrompt } from "../agent/system-prompt.js";
import { ruleToolName } from "../agent/turn.js";
import { permissionRules } from "../config/settings.js";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import type { Engine } from "../engine.js";
import { loadAgentTypes } from "../fork/agent-types.js";
import { createHookRegistry } from "../hooks/registry.js";
import { parseHooksConfig } from "../hooks/schema.js";
import { createNodeFileModes } from "../io/atomic-write.js";
import type { FsOps } from "../io/fs.js";
import { createNodeShell, type ShellOps } from "../io/shell.js";
import { listingLimits, listingSettingsOf, SKILL_SEARCH_TOOL_NAME } from "../listing.js";
import type { AskPermission } from "../permissions/decision.js";
import { catalogCanOverflow } from "../skill-search/overflow.js";
import { createSkillSearchTool } from "../skill-search/tool.js";
import { createBuiltinTools } from "../tools/builtin.js";
import { createFileUsageStore, defaultUsagePath, type UsageStore } from "../usage.js";
import { createSession, type Session } from "./session.js";
import { createSkillView } from "./view.js";

/** What a host chooses for a session; everything else comes from the engine's config and settings. */
export interface OpenSessionOptions {
  client: ModelClient;
  /** Model id or alias; default: settings `model`, else {@link DEFAULT_MODEL}. */
  model?: string;
  effort?: ModelEffort;
  /** Extra allow rules (`--allowedTools`). */
  allowedTools?: string[];
  /** Tools removed (bare names) or denied (scoped rules) (`--disallowedTools`). */
  disallowedTools?: string[];
  /** Asked when a permission decision is `ask`. Absent: headless, and `ask` means no. */
  askPermission?: AskPermission;
  /** A session id to continue (`--resume`). */
  resume?: string;
  maxTurns?: number;
  shell?: ShellOps;
  store?: SessionStore;
  usage?: UsageStore;
  appendSystemPrompt?: string;
  /** The file system the built-in tools use; default the engine's. */
  toolsFs?: FsOps;
  /** Extra tools (e.g. MCP tools) offered beside the built-ins. */
  extraTools?: AgentTool[];
  now?: () => number;
}

/** A session plus what was found wrong while opening it (settings, hooks, agents). */
export interface OpenedSession {
  session: Session;
  diagnostics: Diagnostic[];
  model: string;
  tools: string[];
}

/**
 * Opens a session on an engine: settings and permission rules, settings hooks, agent types, built-in tools
 * (minus `disallowedTools` bare names), the skill view and the transcript store; with `resume`, the stored
 * conversation. Rejects only when `resume` names a session that does not exist.
 */
export async function openSession(engine: Engine, options: OpenSessionOptions): Promise<OpenedSession> {
  const { fs } = engine;
  const { projectDir, roots, gitRoot, environment } = await engine.roots();
  const [extensions, discovery] = await Promise.all([engine.extensions(), engine.discover()]);
  const { settings } = extensions;
  const diagnostics: Diagnostic[] = [];
  const rules = permissionRules(settings.settings);
  const disallowed = options.disallowedTools ?? [];
  rules.allow = [...rules.allow, ...(options.allowedTools ?? [])];
  // Bare names also become deny rules: the tool leaves the list, and no grant (a skill's `allowed-tools`, its
  // inline shell) can bring it back (SPEC §14.1).
  rules.deny = [...rules.deny, ...disallowed];
  rules.additionalDirectories = [
    ...engine.addDirs,
    ...(settings.settings.permissions?.additionalDirectories ?? []).map((d) =>
      d === "~" || d.startsWith("~/") ? join(engine.home, d.slice(1)) : resolve(projectDir, d),
    ),
  ];
  const removed = new Set(disallowed.filter((r) => !r.includes("(")).map(ruleToolName));

  const hooks = createHookRegistry();
  const parsedHooks = parseHooksConfig(extensions.settingsHooks.hooks, "settings");
  diagnostics.push(...parsedHooks.diagnostics);
  hooks.register({ kind: "settings", name: "settings" }, parsedHooks.config);
  for (const plugin of extensions.plugins) {
    hooks.register({ kind: "plugin", name: plugin.name, pluginRoot: plugin.root }, plugin.hooks);
  }

  let filter = await engine.skillFilter();
  const agentDirs = [
    ...(environment === undefined ? [] : [{ dir: join(environment.dir, "agents"), source: "user" as const }]),
    { dir: join(engine.home, ".claude", "agents"), source: "user" as const },
    ...roots
      .filter(
        (r) => r.source === "project" && r.layout === "skills" && r.dir.endsWith(join(".claude", "skills")),
      )
      .map((r) => ({ dir: join(r.dir, "..", "agents"), source: "project" as const })),
  ];
  const loadedAgents = await loadAgentTypes(fs, agentDirs);
  diagnostics.push(...loadedAgents.diagnostics);
  let agents = [...loadedAgents.agents, ...extensions.plugins.flatMap((p) => p.agents)];
  const mcpTools = extensions.mcp === undefined ? [] : await extensions.mcp.tools();
  const mcpInstructions = extensions.mcp === undefined ? [] : await extensions.mcp.instructions();

  const shell = options.shell ?? createNodeShell();
  const builtins = createBuiltinTools({
    fs: options.toolsFs ?? fs,
    shell,
    modes: createNodeFileModes(),
    homeDir: engine.home,
  });
  const tools: AgentTool[] = [...builtins, ...mcpTools, ...(options.extraTools ?? [])].filter(
    (t) => !removed.has(t.name),
  );
  const store =
    options.store ??
    createFileSessionStore(join(engine.home, ".skillwright", "sessions"), {
      onTornTail: (torn) =>
        diagnostics.push(
          diagnostic(
            "warning",
            "transcript-torn",
            `the transcript's last line was cut off by a crash; its ${torn.bytes} bytes were moved to ${torn.tornPath}`,
            torn.path,
          ),
        ),
    });
  let history: ModelMessage[] | undefined;
  let priorInvocations: InvokedSkill[] = [];
  let priorLoaded: InvokedSkill[] = [];
  let priorFiredOnce: string[] = [];
  let id = newSessionId();
  if (options.resume !== undefined) {
    const entries = await store.read(options.resume);
    history = replayMessages(entries);
    priorInvocations = invocationsFromTranscript(entries);
    const sinceCompaction = entries.slice(entries.findLastIndex((e) => e.type === "compaction") + 1);
    priorLoaded = invocationsFromTranscript(sinceCompaction).filter((i) => i.agentId === undefined);
    priorFiredOnce = entries.flatMap((e) => (e.type === "hook_fired" ? [e.key] : []));
    id = options.resume;
  }
  const model = options.model ?? settings.settings.model ?? DEFAULT_MODEL;
  const now = options.now ?? Date.now;
  const view = createSkillView({
    cwd: engine.cwd,
    skills: discovery.skills,
    disabled: discovery.disabled ?? [],
    filter: () => filter,
    builtinCommands: true,
    nested: createNestedDiscovery({
      fs,
      cwd: engine.cwd,
      ...(gitRoot === undefined ? {} : { gitRoot }),
      loadedRoots: roots.filter((r) => r.source === "project").map((r) => r.dir),
    }),
  });
  // Decided once, so the tools array never changes within the session (SPEC §14.15).
  const listingSettings = listingSettingsOf(settings.settings);
  const { budget, maxDescChars } = listingLimits({
    env: engine.env,
    settings: listingSettings,
    contextWindowTokens: contextWindowFor(model),
  });
  const skillSearch =
    catalogCanOverflow(discovery.skills, budget) && !removed.has(SKILL_SEARCH_TOOL_NAME)
      ? createSkillSearchTool({ skills: () => view.visible(), maxDescChars })
      : undefined;
  /**
   * After `engine.reload()`: the settings hooks, plugin hooks, permission rules, the skill filter and the agent
   * types follow the files as they are now (the rules object is shared with the session, so it is updated in
   * place). `--allowedTools`/`--disallowedTools` stay.
   */
  let reloading: Promise<void> = Promise.resolve();
  let pluginNames = extensions.plugins.map((p) => p.name);
  const reloadSettings = async () => {
    const fresh = await engine.extensions();
    filter = await engine.skillFilter();
    const next = permissionRules(fresh.settings.settings);
    rules.allow = [...next.allow, ...(options.allowedTools ?? [])];
    rules.deny = [...next.deny, ...disallowed.filter((r) => r.includes("("))];
    rules.ask = next.ask;
    hooks.register(
      { kind: "settings", name: "settings" },
      parseHooksConfig(fresh.settingsHooks.hooks, "settings").config,
    );
    for (const name of pluginNames) {
      if (!fresh.plugins.some((p) => p.name === name)) hooks.unregister({ kind: "plugin", name });
    }
    pluginNames = fresh.plugins.map((p) => p.name);
    for (const plugin of fresh.plugins) {
      hooks.register({ kind: "plugin", name: plugin.name, pluginRoot: plugin.root }, plugin.hooks);
    }
    const reloadedAgents = await loadAgentTypes(fs, agentDirs);
    agents = [...reloadedAgents.agents, ...fresh.plugins.flatMap((p) => p.agents)];
  };
  const session = createSession({
    id,
    cwd: engine.cwd,
    projectDir,
    home: engine.home,
    env: engine.env,
    fs,
    shell,
    client: options.client,
    model,
    ...(options.effort === undefined ? {} : { effort: options.effort }),
    system: buildSystemPrompt({
      cwd: engine.cwd,
      platform: process.platform,
      date: new Date(now()).toISOString().slice(0, 10),
      mcpInstructions,
      ...(options.appendSystemPrompt === undefined ? {} : { append: options.appendSystemPrompt }),
    }),
    tools,
    skills: view,
    onClose: engine.catalog.onChange((rediscovered) => {
      view.rediscovered(rediscovered.skills, rediscovered.disabled ?? []);
      reloading = reloadSettings();
    }),
    settled: async () => {
      await engine.catalog.get();
      await reloading;
    },
    agents: () => agents,
    rules,
    ...(options.askPermission === undefined ? {} : { askPermission: options.askPermission }),
    hooks,
    usage: options.usage ?? createFileUsageStore({ fs, path: defaultUsagePath(engine.home) }),
    store,
    listingSettings,
    ...(skillSearch === undefined ? {} : { skillSearch }),
    ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
    now,
    ...(history === undefined ? {} : { history, priorInvocations, priorLoaded, priorFiredOnce }),
  });
  if (history === undefined) {
    await store.append(id, [
      { type: "session", id, cwd: engine.cwd, createdAt: new Date(now()).toISOString(), model },
    ]);
  }
  const toolNames = [
    ...tools.map((t) => t.name),
    "Skill",
    ...(skillSearch === undefined ? [] : [skillSearch.name]),
  ];
  return { session, diagnostics, model, tools: toolNames };
}
