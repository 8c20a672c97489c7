import { dirname, join } from "node:path";
import { MAIN_SCOPE, skillsInScope } from "../agent-types/skill-scope.js";
import type { SkillApprovals } from "../approvals/skill-approvals.js";
import type { Diagnostic } from "../diagnostics.js";
import type { Engine } from "../engine/engine.js";
import { createHookRegistry } from "../hooks/registry.js";
import { createNoShell } from "../io/no-shell.js";
import { listingLimits } from "../listing/budget.js";
import { contextWindowFor, DEFAULT_MODEL } from "../models.js";
import { CONFIG_DIR_NAME } from "../prompt/load-prompt-files.js";
import { sessionPromptFrom } from "../prompt/session-prompt.js";
import { expandPromptTemplate } from "../prompt-templates/template.js";
import { answersTo } from "../skill/skill.js";
import { createSkillSearcher } from "../skill-search/search.js";
import { engineSessionHost } from "./engine-host.js";
import { followSnapshots } from "./live-snapshot.js";
import type { OpenedSession, OpenSessionOptions } from "./open-options.js";
import { readResumed } from "./resume.js";
import { createSession } from "./session.js";
import type { SessionHost } from "./session-host.js";
import { removedTools } from "./session-snapshot.js";
import { sessionTools } from "./session-tools.js";
import type { SessionContext } from "./session-types.js";
import { newSessionId } from "./transcript-store.js";
import { createSkillView } from "./view.js";

/**
 * Opens a session on an engine (see `openSession`): the engine as the session's host, then
 * {@link openSessionOn}. What `openSession` runs once this module (and the tools, hooks and agent parts it
 * imports) is loaded.
 */
export async function openSessionNow(engine: Engine, options: OpenSessionOptions): Promise<OpenedSession> {
  return openSessionOn(await engineSessionHost(engine, options), options);
}

/**
 * Opens a session on a host: its snapshot (rules, hooks, agent types, templates) followed across reloads, the
 * skill view, the tools, the system prompt, the transcript store; with `resume`, the stored conversation.
 * Rejects only when `resume` names a session that does not exist.
 */
export async function openSessionOn(host: SessionHost, options: OpenSessionOptions): Promise<OpenedSession> {
  const diagnostics: Diagnostic[] = [];
  const [snapshot, discovery, setup] = await Promise.all([
    host.snapshot(),
    host.catalog.get(),
    host.setup((d) => diagnostics.push(d)),
  ]);
  diagnostics.push(...snapshot.diagnostics);
  const model = options.model ?? snapshot.model ?? DEFAULT_MODEL;
  const now = options.now ?? Date.now;
  const live = followSnapshots(host, snapshot, (rediscovered) =>
    view.rediscovered(rediscovered.skills, rediscovered.disabled ?? [], rediscovered.skipped ?? []),
  );
  const view = createSkillView({
    cwd: host.cwd,
    skills: discovery.skills,
    disabled: discovery.disabled ?? [],
    skipped: discovery.skipped ?? [],
    filter: () => live.current().filter,
    builtinCommands: true,
    ...(setup.nested === undefined ? {} : { nested: setup.nested }),
  });
  // Decided once, so the tools array never changes within the session (SPEC §14.15).
  const listing = listingLimits({
    env: host.env,
    settings: snapshot.listing,
    contextWindowTokens: contextWindowFor(model),
  });
  const usage = options.usage ?? setup.usage();
  const shell = options.sandbox?.shell ?? options.shell;
  const {
    tools,
    skillSearch: skillSearchFor,
    diagnostics: toolDiagnostics,
  } = sessionTools({
    fs: options.sandbox?.fs ?? options.toolsFs ?? host.fs,
    ...(shell === undefined ? {} : { shell }),
    home: host.home,
    builtinTools: options.builtinTools !== false,
    // A sandbox of tier none runs nothing by design: no Bash. A refusing shell handed in alone keeps Bash, whose
    // answer is the refusal (the CLI's sandbox that cannot run here names what to install).
    ...(options.bashTool === undefined && options.sandbox?.tier !== "none"
      ? {}
      : { bashTool: options.bashTool ?? false }),
    toolDeadlineMs: options.toolDeadlineMs,
    extra: [...setup.tools, ...(options.extraTools ?? [])],
    removed: removedTools(options),
    skills: discovery.skills,
    ...(options.loadReference === undefined ? {} : { loadReference: options.loadReference }),
    visible: () => view.visible(),
    listing,
    searcher: createSkillSearcher({
      ...(setup.searchIndexCache === undefined ? {} : { cache: setup.searchIndexCache }),
      ...(options.skillRetriever === undefined ? {} : { retriever: options.skillRetriever }),
      ...(options.onSearchIndexBuild === undefined ? {} : { onIndexBuild: options.onSearchIndexBuild }),
      usage: () => usage.load(),
      now,
    }),
  });
  const prompt = sessionPromptFrom(setup.promptFiles, {
    cwd: host.cwd,
    platform: process.platform,
    date: new Date(now()).toISOString().slice(0, 10),
    systemPrompt: options.systemPrompt,
    appendSystemPrompt: options.appendSystemPrompt,
    tools,
    mcpInstructions: setup.instructions,
    systemListing:
      (options.skillListing ?? options.skillCatalog) === "system"
        ? skillsInScope(view.visible(), MAIN_SCOPE)
        : undefined,
    filesystem: options.filesystem,
  });
  diagnostics.push(...toolDiagnostics, ...prompt.diagnostics);
  const skillSearch = skillSearchFor?.(MAIN_SCOPE);
  const store = options.store ?? setup.store();
  const resumed = options.resume === undefined ? undefined : await readResumed(store, options.resume);
  const id = options.resume ?? newSessionId();
  const context: SessionContext = {
    sessionId: id,
    cwd: host.cwd,
    projectDir: host.projectDir,
    home: host.home,
    env: host.env,
    fs: host.fs,
    // Capabilities are handed in, never found: no shell given, none used (inline shell and hooks say so).
    shell: shell ?? createNoShell(),
    client: options.client,
    model,
    ...(options.effort === undefined ? {} : { effort: options.effort }),
    skills: view,
    tools,
    ...(skillSearch === undefined ? {} : { skillSearch }),
    ...(options.askPermission === undefined ? {} : { askPermission: options.askPermission }),
    beforeToolRun: options.beforeToolRun,
    hooks: createHookRegistry(),
    transcript: (message, agentId) =>
      store.append(id, [
        { type: "message", message, ...(agentId === undefined ? {} : { agentId }), at: stamp(now) },
      ]),
    now,
  };
  const userDirs = [join(host.home, ".claude"), join(host.home, CONFIG_DIR_NAME)];
  const session = createSession({
    context,
    system: prompt.text,
    systemListingNames: prompt.systemListingNames,
    snapshot: live.current,
    // `/name args` naming a prompt template (and no skill, even one that appeared later) is its expansion.
    expandTemplate: (text) =>
      expandPromptTemplate(text, live.current().templates, (name) =>
        view.visible().some((s) => answersTo(s, name)),
      ),
    onClose: live.close,
    settled: live.settled,
    usage,
    ...approvalsOf(options.approvals ?? setup.approvals?.()),
    store,
    listingSettings: snapshot.listing,
    skillModelSwitch: options.skillModelSwitch ?? snapshot.skillModelSwitch,
    skillContext: options.skillContext ?? snapshot.skillContext,
    ...(options.transformContext === undefined ? {} : { transformContext: options.transformContext }),
    ...(skillSearchFor === undefined ? {} : { skillSearchFor }),
    ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
    ...(resumed === undefined ? {} : { resumed }),
    ...(options.hookFetch === undefined ? {} : { hookFetch: options.hookFetch }),
    ...(setup.startSkillServer === undefined ? {} : { startSkillServer: setup.startSkillServer }),
    instructionFiles: setup.promptFiles.contextFiles.map((file) => ({
      path: file.path,
      memoryType: userDirs.includes(dirname(file.path)) ? ("User" as const) : ("Project" as const),
    })),
  });
  if (resumed === undefined) {
    await store.append(id, [
      { type: "session", id, cwd: host.cwd, createdAt: new Date(now()).toISOString(), model },
    ]);
  }
  const toolNames = [
    ...tools.map((t) => t.name),
    "Skill",
    ...(skillSearch === undefined ? [] : [skillSearch.name]),
  ];
  return { session, diagnostics, model, tools: toolNames, transcripts: store };
}

/** An ISO timestamp for a transcript entry. */
function stamp(now: () => number): string {
  return new Date(now()).toISOString();
}

/** The session's `approvals` field: the store when there is one, nothing otherwise. */
function approvalsOf(approvals: SkillApprovals | undefined): { approvals?: SkillApprovals } {
  return approvals === undefined ? {} : { approvals };
}
