import { createChannel } from "../agent/channel.js";
import type { AgentEvent } from "../agent/events.js";
import type { ModelMessage } from "../agent/model-types.js";
import type { RunContext } from "../context.js";
import { createBackgroundHooks, createHooksRunner, type RunHooks } from "../hooks/runner.js";
import { listedChars, listingBlockChars } from "../listing/read-blocks.js";
import { resolveModel } from "../models.js";
import type { PermissionPolicy } from "../permissions/policy.js";
import { loadReferenceFilesRead } from "../tools/load-reference.js";
import { agentHookJudge } from "./agent-hook-judge.js";
import { createAgentListings } from "./agent-listings.js";
import { type BackgroundForks, createBackgroundForks } from "./background-forks.js";
import { createCompactor } from "./compaction/compactor.js";
import { createForkCompaction } from "./compaction/fork-compaction.js";
import { invocationEntry } from "./compaction/reattach.js";
import { MAIN_AGENT } from "./listing-state.js";
import { mcpToolHookCaller } from "./mcp-tool-hook-caller.js";
import { permissionNotification } from "./permission-notification.js";
import { permissionRequestVerdict } from "./permission-request.js";
import { promptHookJudge } from "./prompt-hook-judge.js";
import { restoreResumed } from "./restore.js";
import type { SessionSnapshot } from "./session-snapshot.js";
import { createSessionState } from "./session-state.js";
import type { Session, SessionDeps } from "./session-types.js";
import { skillContextUsage } from "./skill-context/context-usage.js";
import { createSkillRuntime } from "./skill-runtime.js";
import { applySnapshotHooks } from "./snapshot-hooks.js";
import { createToolGate } from "./tool-gate.js";
import type { TranscriptEntry } from "./transcript-store.js";
import { runUserTurn } from "./turn.js";
import { turnContext } from "./turn-context.js";

/**
 * Builds a session over its explicit state (session-state.ts): the hooks runner, the tool gate, the skill
 * runtime (Skill tool, forks), the agents' listings and compaction, wired once; each `send` runs one user turn
 * (turn.ts) and streams its events.
 */
export function createSession(deps: SessionDeps): Session {
  const { context } = deps;
  const state = createSessionState(deps);
  const stamp = () => new Date(context.now()).toISOString();
  const append = (entries: TranscriptEntry[]) => deps.store.append(context.sessionId, entries);
  const model = resolveModel(context.model);
  const background = createBackgroundHooks();
  const runHooks: RunHooks = createHooksRunner(
    context.hooks,
    {
      shell: context.shell,
      sessionId: context.sessionId,
      cwd: context.cwd,
      projectDir: context.projectDir,
      transcriptPath: deps.store.location(context.sessionId),
      skillAlias: (name) => context.skills.visible().find((s) => s.name === name)?.alias,
      ...(deps.hookFetch === undefined ? {} : { fetch: deps.hookFetch }),
      variables: context.env,
      judge: promptHookJudge(context.client, model),
      agentJudge: agentHookJudge(context.client, model, {
        fs: context.fs,
        cwd: context.cwd,
        home: context.home,
        rules: () => deps.snapshot().rules,
      }),
      callMcpTool: mcpToolHookCaller(() => context.tools, context.cwd, model),
    },
    (message) => state.emit({ type: "warning", message }),
    (keys) => append(keys.map((key) => ({ type: "hook_fired", key, at: stamp() }))),
    background.track,
    (run) => state.emit({ type: "hook_run", ...run }),
  );
  // The snapshot whose settings and plugin hooks the registry holds: each turn brings it up to the one in force.
  let applied: SessionSnapshot | undefined;
  // A reload swapped in a new snapshot since the last turn began: the next turn fires ConfigChange.
  let configChanged = false;
  const sync = (): SessionSnapshot => {
    const snapshot = deps.snapshot();
    if (snapshot !== applied) {
      if (applied !== undefined) configChanged = true;
      applySnapshotHooks(context.hooks, applied, snapshot);
    }
    applied = snapshot;
    return snapshot;
  };
  sync();
  // The policy of an agent on `caller`: its rules, and its ask (none for a background fork: nobody answers).
  const policyOf = (
    caller: Pick<RunContext, "rules" | "askPermission" | "beforeToolRun">,
  ): PermissionPolicy => ({
    rules: caller.rules,
    cwd: context.cwd,
    home: context.home,
    ...(caller.askPermission === undefined ? {} : { askPermission: caller.askPermission }),
    beforeRun: caller.beforeToolRun,
    permissionRequest: (tool: string, input: unknown, signal?: AbortSignal) =>
      permissionRequestVerdict(runHooks, tool, input, signal),
    filesRead: loadReferenceFilesRead(() => context.skills.visible()),
    notifyAsk: async (tool: string, signal?: AbortSignal) => {
      await runHooks("Notification", permissionNotification(tool), signal);
    },
  });
  const gateOf = (caller: RunContext) =>
    createToolGate(policyOf(caller), runHooks, (agentId, skill) => state.loaded.has(agentId, skill));
  const record = async (...entries: ModelMessage[]) => {
    for (const message of entries) {
      state.messages.push(message);
      await context.transcript(message);
    }
  };
  const touch = async (paths: readonly string[]) => {
    const found = await context.skills.touch(paths);
    state.pendingAnnouncements.push(...found.announcements);
    const chars = found.announcements.reduce((sum, text) => sum + listingBlockChars(text), 0);
    state.listing.markSent(MAIN_AGENT, found.announced, chars);
  };
  // A resumed conversation already holds a listing and announcements: keep those skills, send them once.
  const restore = () => {
    state.restored ??= (async () => {
      const { resumed } = deps;
      if (resumed === undefined) return;
      const { listed, warnings } = await restoreResumed({
        history: resumed.history,
        invocations: state.invocations,
        skills: context.skills,
        hooks: context.hooks,
        firedOnce: resumed.firedOnce,
      });
      state.listing.markSent(MAIN_AGENT, listed, listedChars(resumed.history));
      for (const message of warnings) state.emit({ type: "warning", message });
    })();
    return state.restored;
  };
  const listings = createAgentListings(deps, state);
  // Between turns, what background forks tell (their events, their answers being ready) waits for the next
  // stream; during a turn it goes to that turn's stream at once.
  let turnOpen = false;
  const held: AgentEvent[] = [];
  const backgroundForks = createBackgroundForks((event) => state.emit(event));
  const runtime = createSkillRuntime({
    session: deps,
    touch,
    policy: (caller) => policyOf(caller),
    runHooks,
    gate: gateOf,
    emit: (event) => state.emit(event),
    listing: listings.openingListing,
    record: async (invocation) => {
      state.invocations.push(invocation);
      await append([invocationEntry(invocation)]);
    },
    loaded: state.loaded,
    inlineSent: (skill, outcome) =>
      state.skillContext.sent({
        name: skill.name,
        ttl: skill.ttlTurns ?? deps.skillContext?.expireAfterUserTurns,
        ...(outcome.note === undefined ? {} : { note: outcome.note }),
        text: outcome.text,
      }),
    forkCompaction: createForkCompaction({
      invocations: () => state.invocations,
      fullListing: (agentId, forkModel, scope) => {
        state.listing.reset(agentId);
        return listings.openingListing(agentId, forkModel, scope);
      },
      compacted: (agentId) => state.loaded.resetAgent(agentId),
      runHooks,
      emit: (event) => state.emit(event),
    }),
    backgroundForks,
  });
  const compactor = createCompactor({ deps, state, model, listings, runHooks, restore, append, record });
  // Aborted by `close`: whatever turn or compaction is running then stops.
  const closing = new AbortController();
  const withClose = (signal: AbortSignal | undefined) =>
    signal === undefined ? closing.signal : AbortSignal.any([signal, closing.signal]);
  const parts = {
    deps,
    state,
    model,
    gateOf,
    begin: (signal: AbortSignal | undefined) => turnContext(context, sync(), withClose(signal)),
    takeConfigChange: () => {
      const changed = configChanged;
      configChanged = false;
      return changed;
    },
    runHooks,
    runtime,
    listings,
    compactor,
    restore,
    touch,
    record,
    expired: (names: readonly string[]) =>
      append(names.map((name) => ({ type: "skill_expired" as const, name, at: stamp() }))),
    backgroundForks,
  };
  // One stream of events for `run` (a user turn, or the background answers): held events first, then the turn's.
  const stream = (run: () => Promise<void>): AsyncIterable<AgentEvent> => {
    const channel = createChannel<AgentEvent>();
    for (const event of held.splice(0)) channel.push(event);
    turnOpen = true;
    state.emit = (event) => {
      if (event.type === "turn_end" && event.agentId === undefined) state.messagesUsage.push(event.usage);
      channel.push(event);
    };
    const end = () => {
      turnOpen = false;
      state.emit = (event) => {
        if (!turnOpen && backgroundOwned(event, backgroundForks.running())) held.push(event);
      };
      channel.close();
    };
    run().then(end, (error: unknown) => {
      state.emit({
        type: "error",
        kind: "internal",
        message: error instanceof Error ? error.message : String(error),
      });
      end();
    });
    return channel;
  };

  return {
    id: context.sessionId,
    messages: () => state.messages,
    invoked: () => state.invocations,
    contextUsage: async () => skillContextUsage(await deps.store.read(context.sessionId).catch(() => [])),
    send(prompt, options = {}) {
      return stream(() => runUserTurn(prompt, options.signal, parts));
    },
    drainBackground(options = {}) {
      return stream(async () => {
        const signal = withClose(options.signal);
        for (;;) {
          if (backgroundForks.running() > 0) await untilSettledOrAborted(backgroundForks, signal);
          if (signal.aborted || !backgroundForks.waiting()) return;
          await runUserTurn(undefined, options.signal, parts);
        }
      });
    },
    backgroundRunning: () => backgroundForks.running(),
    compact: async (signal) => {
      sync();
      const outcome = await compactor.compact("manual", withClose(signal));
      return outcome.ok ? { ok: true } : { ok: false, message: outcome.message };
    },
    async close() {
      closing.abort();
      // Aborted with the session: they end before SessionEnd runs.
      await backgroundForks.settled();
      deps.onClose?.();
      sync();
      await runHooks("SessionEnd", { reason: "exit" });
      await background.settled();
    },
  };
}

/**
 * True for an event a background fork made (or its answer) while no turn runs: it is held for the next stream.
 * Any fork's event then is a background fork's (foreground forks end with their turn). Pure.
 */
function backgroundOwned(event: AgentEvent, running: number): boolean {
  return event.type === "background_result" || (running > 0 && event.agentId !== undefined);
}

/** Resolves when no background fork runs, or when `signal` aborts. */
function untilSettledOrAborted(forks: BackgroundForks, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      signal.removeEventListener("abort", done);
      resolve();
    };
    signal.addEventListener("abort", done, { once: true });
    void forks.settled().then(done);
  });
}
