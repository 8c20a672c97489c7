import { mentionedPaths } from "../activation/mentions.js";
import { createChannel } from "../agent/channel.js";
import { invocationEntry } from "../agent/compaction/reattach.js";
import { promptTokens, shouldAutoCompact } from "../agent/compaction/tokens.js";
import { type AgentEvent, type AgentResult, emptyUsage } from "../agent/events.js";
import { type AgentTool, executeAgent } from "../agent/loop.js";
import type { ModelContentBlock, ModelMessage, ModelUsage } from "../agent/model-client.js";
import { contextWindowFor, resolveModel } from "../agent/models.js";
import type { TranscriptEntry } from "../agent/session-store.js";
import { runWithStopChecks } from "../agent/stop-continuation.js";
import type { TurnState } from "../agent/turn.js";
import { listingLimits } from "../listing.js";
import type { InvokedSkill } from "../skill-tool/invoke.js";
import { createLoadedSkills } from "../skill-tool/reinvocation.js";
import { compactConversation } from "./compact.js";
import { createHooksRunner, type RunHooks } from "./hooks-runner.js";
import { createListingState, MAIN_AGENT } from "./listing-state.js";
import { permissionRequestVerdict } from "./permission-request.js";
import { restoreResumed } from "./restore.js";
import type { Session, SessionDeps } from "./session-types.js";
import { createSkillRuntime, DEFAULT_MAX_TOKENS } from "./skill-runtime.js";
import { handleSlash } from "./slash.js";
import { createToolGate } from "./tool-gate.js";

export type { Session, SessionDeps } from "./session-types.js";

/** What a user types to compact the conversation (SPEC §8). */
export const COMPACT_COMMAND = "/compact";

/** Builds a session: tools, gate, Skill tool, forks, listing deltas, hooks and persistence wired together. */
export function createSession(deps: SessionDeps): Session {
  const now = deps.now ?? Date.now;
  const stamp = () => new Date(now()).toISOString();
  const append = (entries: TranscriptEntry[]) => deps.store.append(deps.id, entries);
  const messages: ModelMessage[] = [...(deps.history ?? [])];
  const invocations: InvokedSkill[] = [...(deps.priorInvocations ?? [])];
  const loaded = createLoadedSkills(deps.priorLoaded ?? []);
  const listing = createListingState();
  // A resumed conversation already holds a listing and announcements: keep those skills, send them once.
  let restored: Promise<void> | undefined;
  const restore = () => {
    restored ??= (async () => {
      if (deps.history === undefined) return;
      const { listed, warnings } = await restoreResumed({
        history: deps.history,
        invocations,
        skills: deps.skills,
        hooks: deps.hooks,
        firedOnce: deps.priorFiredOnce ?? [],
      });
      listing.markSent(MAIN_AGENT, listed);
      for (const message of warnings) emit({ type: "warning", message });
    })();
    return restored;
  };
  let emit: (event: AgentEvent) => void = () => {};
  let started = false;
  let compactFailedThisTurn = false;
  const policy = {
    rules: deps.rules,
    cwd: deps.cwd,
    home: deps.home,
    ...(deps.askPermission === undefined ? {} : { askPermission: deps.askPermission }),
    permissionRequest: (tool: string, input: unknown, signal?: AbortSignal) =>
      permissionRequestVerdict(runHooks, tool, input, signal),
  };
  const runHooks: RunHooks = createHooksRunner(
    deps.hooks,
    {
      shell: deps.shell,
      sessionId: deps.id,
      cwd: deps.cwd,
      projectDir: deps.projectDir,
      transcriptPath: deps.store.location(deps.id),
      skillAlias: (name) => deps.skills.visible().find((s) => s.name === name)?.alias,
    },
    (message) => emit({ type: "warning", message }),
    (keys) => append(keys.map((key) => ({ type: "hook_fired", key, at: stamp() }))),
  );
  const gate = createToolGate(policy, runHooks);
  const persist = (message: ModelMessage, agentId?: string) =>
    append([{ type: "message", message, ...(agentId === undefined ? {} : { agentId }), at: stamp() }]);
  const pack = (model: string) => ({
    ...listingLimits({
      env: deps.env,
      settings: deps.listingSettings,
      contextWindowTokens: contextWindowFor(model),
    }),
    searchable: deps.skillSearch !== undefined,
  });
  /**
   * The main agent's first full listing (the names it listed or left out) and how it was packed. Kept after
   * compaction too: forks, and the main agent after a compaction, open with it as long as it names only visible
   * skills, so their opening stays byte-identical all session.
   */
  let mainFullListing: { text: string; names: string[]; pack: string } | undefined;
  const listingFor = async (agent: string, model: string) => {
    await deps.settled?.();
    const full = listing.sent(agent).size === 0;
    const sent = await listing.next(
      agent,
      deps.skills.visible(),
      pack(model),
      () => deps.usage.load(),
      now(),
    );
    if (agent === MAIN_AGENT && full && sent.text !== "" && mainFullListing === undefined) {
      const names = [...sent.entries.map((e) => e.name), ...sent.omitted];
      mainFullListing = { text: sent.text, names, pack: JSON.stringify(pack(model)) };
    }
    return sent.text;
  };
  /**
   * The opening listing blocks of an agent that has been sent none (a fork, or the main agent after compaction):
   * the main agent's first full listing as it was sent, then one delta block with what became visible since (an
   * activated conditional skill). Each so opens with the same bytes, which a prompt cache serves; an agent
   * packed otherwise (a model with another budget) gets a listing of its own.
   */
  const openingListing = async (agentId: string, model: string): Promise<string[]> => {
    const base = mainFullListing;
    const visible = new Set(deps.skills.visible().map((s) => s.name));
    if (
      base === undefined ||
      base.pack !== JSON.stringify(pack(model)) ||
      base.names.some((n) => !visible.has(n))
    ) {
      const own = await listingFor(agentId, model);
      return own === "" ? [] : [own];
    }
    listing.markSent(agentId, base.names);
    const delta = await listingFor(agentId, model);
    return delta === "" ? [base.text] : [base.text, delta];
  };

  const runtime = createSkillRuntime({
    session: deps,
    touch: (paths) => touch(paths),
    policy,
    runHooks,
    gate,
    now,
    emit: (event) => emit(event),
    listing: (agentId, model) => openingListing(agentId, model),
    persist,
    record: async (invocation) => {
      invocations.push(invocation);
      await append([invocationEntry(invocation)]);
    },
    loaded,
  });
  const currentModel = resolveModel(deps.model);
  const tools: AgentTool[] = [
    ...deps.tools,
    runtime.skillTool(0),
    ...(deps.skillSearch === undefined ? [] : [deps.skillSearch]),
  ];
  const pendingAnnouncements: string[] = [];
  const messagesUsage: ModelUsage[] = [];
  const touch = async (paths: readonly string[]) => {
    const found = await deps.skills.touch(paths);
    pendingAnnouncements.push(...found.announcements);
    listing.markSent(MAIN_AGENT, found.announced);
  };

  const runTurn = async (first: ModelMessage, turn: TurnState, signal: AbortSignal): Promise<AgentResult> => {
    messages.push(first);
    await persist(first);
    return runWithStopChecks({
      run: () =>
        executeAgent(
          {
            client: deps.client,
            system: deps.system,
            tools,
            messages,
            turn,
            maxTokens: deps.maxTokens ?? DEFAULT_MAX_TOKENS,
            cwd: deps.cwd,
            signal,
            gate,
            ...(deps.maxTurns === undefined ? {} : { maxTurns: deps.maxTurns }),
            reminders: async () => {
              const delta = await listingFor(MAIN_AGENT, currentModel);
              const out = pendingAnnouncements.splice(0);
              return delta === "" ? out : [...out, delta];
            },
            onMessage: async (message) => {
              messages.push(message);
              await persist(message);
            },
            onTouchedPaths: touch,
            compact: autoCompact,
          },
          (event) => emit(event),
        ),
      stopCheck: async (round) =>
        (await runHooks("Stop", { stop_hook_active: round > 0 }, signal)).blocked?.reason,
      continueWith: (reason) => record({ role: "user", content: [{ type: "text", text: reason }] }),
    });
  };

  const finish = (text: string, cause: AgentResult["cause"]) =>
    emit({ type: "done", result: { text, cause, turns: 0, usage: emptyUsage(), toolsUsed: [] } });
  const record = async (...entries: ModelMessage[]) => {
    for (const m of entries) {
      messages.push(m);
      await persist(m);
    }
  };
  const compact = async (trigger: "manual" | "auto", signal: AbortSignal) => {
    await restore();
    const outcome = await compactConversation({
      client: deps.client,
      model: currentModel,
      messages,
      invocations,
      fullListing: async () => {
        listing.reset(MAIN_AGENT);
        return openingListing(MAIN_AGENT, currentModel);
      },
      runHooks,
      trigger,
      signal,
    });
    if (!outcome.ok) return outcome;
    messages.splice(0, messages.length);
    // The re-attached skills are history, not loaded instructions: the next call sends the full text again.
    loaded.resetMain();
    // The usage seen so far measured the old conversation; the next auto-compaction waits for a new one.
    messagesUsage.splice(0, messagesUsage.length);
    await append([{ type: "compaction", summary: outcome.summary, at: stamp() }]);
    await record(...outcome.messages);
    return outcome;
  };
  /**
   * Compacts when `usage` (the last response's) passed the auto-compaction share of `model`'s window (SPEC
   * §8), after a turn or between two requests of one; resolves to the messages to go on from, else undefined.
   */
  const autoCompact = async (usage: ModelUsage | undefined, model: string, signal: AbortSignal) => {
    const window = contextWindowFor(model);
    if (window === undefined || usage === undefined || compactFailedThisTurn) return undefined;
    if (!shouldAutoCompact({ inputTokens: promptTokens(usage), contextWindow: window })) return undefined;
    const outcome = await compact("auto", signal);
    if (outcome.ok) return [...messages];
    // One failed attempt per user turn: not a summary request after every round of tool results.
    compactFailedThisTurn = true;
    emit({ type: "warning", message: outcome.message });
    return undefined;
  };
  /** The reminders that open a user message: nested-discovery announcements, then the listing (delta). */
  const openingBlocks = async (): Promise<ModelContentBlock[]> => {
    const blocks: ModelContentBlock[] = pendingAnnouncements
      .splice(0)
      .map((text) => ({ type: "text", text }));
    const reminder = await listingFor(MAIN_AGENT, currentModel);
    if (reminder !== "") blocks.push({ type: "text", text: reminder });
    return blocks;
  };

  const handle = async (prompt: string, signal: AbortSignal): Promise<void> => {
    compactFailedThisTurn = false;
    await restore();
    // A reload in flight (settings hooks, rules, skills) lands before this turn's first hook or request.
    await deps.settled?.();
    const context: ModelContentBlock[] = [];
    if (!started) {
      started = true;
      const start = await runHooks("SessionStart", { source: deps.history ? "resume" : "startup" }, signal);
      context.push(...start.additionalContext.map((text) => ({ type: "text" as const, text })));
    }
    if (prompt.trim() === COMPACT_COMMAND) {
      const outcome = await compact("manual", signal);
      return finish(
        outcome.ok ? "Conversation compacted." : outcome.message,
        outcome.ok ? "end_turn" : "error",
      );
    }
    const submit = await runHooks("UserPromptSubmit", { prompt }, signal);
    if (submit.blocked !== undefined) {
      const message = `UserPromptSubmit hook blocked the prompt: ${submit.blocked.reason}`;
      emit({ type: "error", kind: "blocked", message });
      return finish(message, "blocked");
    }
    context.push(...submit.additionalContext.map((text) => ({ type: "text" as const, text })));
    await touch(mentionedPaths(prompt, deps.cwd));
    const turn: TurnState = {
      model: currentModel,
      ...(deps.effort === undefined ? {} : { effort: deps.effort }),
      grants: [],
      removedTools: [],
    };
    const slash = await handleSlash(prompt, {
      skills: deps.skills.visible(),
      turn,
      signal,
      invoke: runtime.invoke,
      disabled: (name) => deps.skills.disabled(name),
    });
    if (slash.kind === "reply") {
      if (slash.record) {
        const user: ModelMessage = {
          role: "user",
          content: [...(await openingBlocks()), ...context, ...slash.userBlocks],
        };
        await record(user, { role: "assistant", content: [{ type: "text", text: slash.text }] });
      }
      emit({ type: "text_delta", text: slash.text });
      return finish(slash.text, slash.ok ? "end_turn" : "blocked");
    }
    const first: ModelMessage = {
      role: "user",
      content: [...(await openingBlocks()), ...context, ...slash.userBlocks],
    };
    const result = await runTurn(first, slash.kind === "expand" ? slash.turn : turn, signal);
    emit({ type: "done", result });
    await autoCompact(messagesUsage.at(-1), currentModel, signal);
  };

  return {
    id: deps.id,
    messages: () => messages,
    invoked: () => invocations,
    send(prompt, options = {}) {
      const channel = createChannel<AgentEvent>();
      emit = (event) => {
        if (event.type === "turn_end" && event.agentId === undefined) messagesUsage.push(event.usage);
        channel.push(event);
      };
      handle(prompt, options.signal ?? new AbortController().signal).then(
        () => channel.close(),
        (error: unknown) => {
          emit({
            type: "error",
            kind: "internal",
            message: error instanceof Error ? error.message : String(error),
          });
          channel.close();
        },
      );
      return channel;
    },
    compact: async (signal) => {
      const outcome = await compact("manual", signal ?? new AbortController().signal);
      return outcome.ok ? { ok: true } : { ok: false, message: outcome.message };
    },
    async close() {
      deps.onClose?.();
      await runHooks("SessionEnd", { reason: "exit" });
    },
  };
}
