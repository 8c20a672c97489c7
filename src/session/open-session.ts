import { join, resolve } from "node:path";
import { createNestedDiscovery } from "../activation/nested.js";
import type { AgentTool } from "../agent/loop.js";
import type { ModelMessage } from "../agent/model-types.js";
import { contextWindowFor, DEFAULT_MODEL } from "../agent/models.js";
import { ruleToolName } from "../agent/turn.js";
import { discoverAgentTypes } from "../agents/discover-agents.js";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import type { Engine } from "../engine/engine.js";
import { createHookRegistry } from "../hooks/registry.js";
import { parseHooksConfig } from "../hooks/schema.js";
import { createNodeFileModes } from "../io/atomic-write.js";
import { createNoShell } from "../io/no-shell.js";
import { listingLimits, listingSettingsOf, SKILL_SEARCH_TOOL_NAME } from "../listing.js";
import type { PermissionRules } from "../permissions/decision.js";
import { assembleSessionPrompt } from "../prompt/session-prompt.js";
import { loadPromptTemplates } from "../prompt-templates/load-templates.js";
import { expandPromptTemplate } from "../prompt-templates/template.js";
import { answersTo, type Skill } from "../skill/skill.js";
import { catalogCanOverflow } from "../skill-search/overflow.js";
import { createSkillSearchTool } from "../skill-search/tool.js";
import type { InvokedSkill } from "../skill-tool/invoked-skill.js";
import { LOAD_REFERENCE_TOOL_NAME, namesReferences } from "../sources/reference-section.js";
import { createBuiltinTools } from "../tools/builtin.js";
import { createLoadReferenceTool } from "../tools/load-reference.js";
import { createFileUsageStore, defaultUsagePath } from "../usage.js";
import { invocationsFromTranscript } from "./compaction/reattach.js";
import { createMemorySessionStore } from "./memory-session-store.js";
import type { OpenedSession, OpenSessionOptions } from "./open.js";
import { createSession } from "./session.js";
import { createFileSessionStore, newSessionId, replayMessages } from "./session-store.js";
import type { SessionContext } from "./session-types.js";
import { createSkillView } from "./view.js";

/**
 * Opens a session on an engine: settings and permission rules, settings hooks, agent types, built-in tools
 * (minus `disallowedTools` bare names), the skill view and the transcript store; with `resume`, the stored
 * conversation. Rejects only when `resume` names a session that does not exist. What `openSession` runs once this
 * module (and the tools, hooks and agent parts it imports) is loaded.
 */
export async function openSessionNow(engine: Engine, options: OpenSessionOptions): Promise<OpenedSession> {
  const { fs } = engine;
  const { projectDir, roots, gitRoot, environment } = await engine.roots();
  const [extensions, discovery] = await Promise.all([engine.extensions(), engine.discover()]);
  const { settings } = extensions;
  const diagnostics: Diagnostic[] = [];
  const rules: PermissionRules = {
    allow: [...extensions.permissions.rules.allow],
    deny: [...extensions.permissions.rules.deny],
    ask: [...extensions.permissions.rules.ask],
  };
  const disallowed = options.disallowedTools ?? [];
  rules.allow = [...rules.allow, ...(options.allowedTools ?? [])];
  rules.ask = [...rules.ask, ...(options.askRules ?? [])];
  // Bare names also become deny rules: the tool leaves the list, and no grant (a skill's `allowed-tools`, its
  // inline shell) can bring it back (SPEC §14.1).
  rules.deny = [...rules.deny, ...disallowed];
  rules.additionalDirectories = [
    ...engine.addDirs,
    ...extensions.permissions.additionalDirectories.map((d) =>
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
  const discoveredAgents = await discoverAgentTypes({
    fs,
    home: engine.home,
    roots,
    plugins: extensions.plugins,
    ...(environment === undefined ? {} : { environmentDir: environment.dir }),
    projectGrantsApproved: extensions.permissions.approvedBy !== undefined,
  });
  diagnostics.push(...discoveredAgents.diagnostics);
  let agents = discoveredAgents.agents;
  const mcpTools = extensions.mcp === undefined ? [] : await extensions.mcp.tools();
  const mcpInstructions = extensions.mcp === undefined ? [] : await extensions.mcp.instructions();

  // Capabilities are handed in, never found: no shell given, none used (inline shell and hooks say so); mode bits
  // and transcripts on disk only beside the host's own file system.
  const shell = options.shell ?? createNoShell();
  const toolsFs = options.toolsFs ?? fs;
  const builtins = createBuiltinTools({
    fs: toolsFs,
    ...(options.shell === undefined ? {} : { shell: options.shell }),
    ...(toolsFs.host === true ? { modes: createNodeFileModes() } : {}),
    homeDir: engine.home,
  });
  const tools: AgentTool[] = [
    ...(options.builtinTools === false ? [] : builtins),
    ...mcpTools,
    ...(options.extraTools ?? []),
  ].filter((t) => !removed.has(t.name));
  const store =
    options.store ??
    (fs.host !== true
      ? createMemorySessionStore()
      : createFileSessionStore(join(engine.home, ".skillwright", "sessions"), {
          onTornTail: (torn) =>
            diagnostics.push(
              diagnostic(
                "warning",
                "transcript-torn",
                `the transcript's last line was cut off by a crash; its ${torn.bytes} bytes were moved to ${torn.tornPath}`,
                torn.path,
              ),
            ),
        }));
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
  if (
    (options.loadReference ?? discovery.skills.some(namesReferences)) &&
    !removed.has(LOAD_REFERENCE_TOOL_NAME)
  ) {
    tools.push(createLoadReferenceTool({ skills: () => view.visible() }));
  }
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
    const next = fresh.permissions.rules;
    rules.allow = [...next.allow, ...(options.allowedTools ?? [])];
    rules.deny = [...next.deny, ...disallowed.filter((r) => r.includes("("))];
    rules.ask = [...next.ask, ...(options.askRules ?? [])];
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
    agents = (
      await discoverAgentTypes({
        fs,
        home: engine.home,
        roots,
        plugins: fresh.plugins,
        ...(environment === undefined ? {} : { environmentDir: environment.dir }),
        projectGrantsApproved: fresh.permissions.approvedBy !== undefined,
      })
    ).agents;
  };
  const prompt = await assembleSessionPrompt({
    fs,
    home: engine.home,
    projectDir,
    cwd: engine.cwd,
    gitRoot,
    platform: process.platform,
    date: new Date(now()).toISOString().slice(0, 10),
    systemPrompt: options.systemPrompt,
    appendSystemPrompt: options.appendSystemPrompt,
    tools,
    mcpInstructions,
    catalog: options.skillCatalog === "system" ? view.visible() : undefined,
    filesystem: options.filesystem,
  });
  diagnostics.push(...prompt.diagnostics);
  const loadTemplates = (skills: readonly Skill[]) =>
    loadPromptTemplates(
      fs,
      { home: engine.home, projectDir },
      new Set(skills.flatMap((s) => (s.alias === undefined ? [s.name] : [s.name, s.alias]))),
    );
  const loadedTemplates = await loadTemplates(discovery.skills);
  diagnostics.push(...loadedTemplates.diagnostics);
  // Templates follow every reload (`/reload`, the watcher): read again beside the rediscovered skills.
  let templates = loadedTemplates.templates;
  let templatesLoading: Promise<unknown> = Promise.resolve();
  const context: SessionContext = {
    sessionId: id,
    cwd: engine.cwd,
    projectDir,
    home: engine.home,
    env: engine.env,
    fs,
    shell,
    client: options.client,
    model,
    ...(options.effort === undefined ? {} : { effort: options.effort }),
    skills: view,
    agents: () => agents,
    tools,
    ...(skillSearch === undefined ? {} : { skillSearch }),
    rules,
    ...(options.askPermission === undefined ? {} : { askPermission: options.askPermission }),
    hooks,
    transcript: (message, agentId) =>
      store.append(id, [
        { type: "message", message, ...(agentId === undefined ? {} : { agentId }), at: stamp(now) },
      ]),
    now,
  };
  const session = createSession({
    context,
    system: prompt.text,
    catalogNames: prompt.catalogNames,
    // `/name args` naming a prompt template (and no skill, even one that appeared later) is its expansion.
    expandTemplate: (text) =>
      expandPromptTemplate(text, templates, (name) => view.visible().some((s) => answersTo(s, name))),
    onClose: engine.catalog.onChange((rediscovered) => {
      view.rediscovered(rediscovered.skills, rediscovered.disabled ?? []);
      reloading = reloadSettings();
      templatesLoading = loadTemplates(rediscovered.skills).then((loaded) => {
        templates = loaded.templates;
      });
    }),
    settled: async () => {
      await engine.catalog.get();
      await reloading;
      await templatesLoading;
    },
    usage: options.usage ?? createFileUsageStore({ fs, path: defaultUsagePath(engine.home) }),
    store,
    listingSettings,
    ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
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

/** An ISO timestamp for a transcript entry. */
function stamp(now: () => number): string {
  return new Date(now()).toISOString();
}
