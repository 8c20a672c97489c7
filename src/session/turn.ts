import { randomUUID } from "node:crypto";
import { mentionedPaths } from "../activation/mentions.js";
import { type AgentResult, emptyUsage } from "../agent/events.js";
import { type AgentTool, executeAgent, type ToolGate } from "../agent/loop.js";
import type { ModelContentBlock, ModelMessage } from "../agent/model-types.js";
import { runWithStopChecks } from "../agent/stop-continuation.js";
import type { TurnState } from "../agent/turn-patch.js";
import type { RunContext } from "../context.js";
import type { RunHooks } from "../hooks/runner.js";
import type { AgentListings } from "./agent-listings.js";
import type { BackgroundForks } from "./background-forks.js";
import type { Compactor } from "./compaction/compactor.js";
import { messagesTokens } from "./compaction/tokens.js";
import { MAIN_AGENT } from "./listing-state.js";
import type { SessionState } from "./session-state.js";
import type { SessionDeps } from "./session-types.js";
import type { SkillRuntime } from "./skill-runtime.js";
import { DEFAULT_MAX_TOKENS } from "./skill-runtime.js";
import { handleSlash } from "./slash.js";
import { stopFailurePayload } from "./stop-failure.js";

/** What a user types to compact the conversation (SPEC §8). */
export const COMPACT_COMMAND = "/compact";

/** The parts of a session one user turn runs on. */
export interface TurnParts {
  deps: SessionDeps;
  state: SessionState;
  /** The main agent's model (resolved). */
  model: string;
  /** The main agent's context for a turn starting now: the snapshot in force, the turn's signal. */
  begin: (signal: AbortSignal | undefined) => RunContext;
  /** The tool gate for an agent on `context` (its rules). */
  gateOf: (context: RunContext) => ToolGate;
  runHooks: RunHooks;
  runtime: SkillRuntime;
  listings: AgentListings;
  compactor: Compactor;
  /** Restores a resumed conversation's listing and announcements (once). */
  restore: () => Promise<void>;
  /** Records paths a tool touched or the prompt mentioned (activation, nested discovery). */
  touch: (paths: readonly string[]) => Promise<void>;
  /** Appends messages to the conversation and the transcript. */
  record: (...messages: ModelMessage[]) => Promise<void>;
  /** Notes in the transcript the skills whose expansions expired (context accounting reads it). */
  expired: (names: readonly string[]) => Promise<void>;
  /** True once after a reload swapped in a new snapshot (settings, plugins, agent types): fire ConfigChange. */
  takeConfigChange: () => boolean;
  /** The session's background forks: their answers go into the main agent's next request. */
  backgroundForks: BackgroundForks;
}

/**
 * One user turn (SPEC §2, §10): SessionStart hooks on the first, `/compact`, UserPromptSubmit hooks, mentioned
 * paths, a slash command or the prompt (auto-compaction first when it would pass the threshold), then the agent
 * loop with Stop hooks, then auto-compaction. `typed` undefined: a turn with no prompt, whose user message is
 * only the reminders (the answers of background forks that finished). Its events go
 * to `parts.state.emit`, ending with `done`. Rejects only on a bug (the session reports it as an error event).
 */
export async function runUserTurn(
  typed: string | undefined,
  interrupt: AbortSignal | undefined,
  parts: TurnParts,
): Promise<void> {
  const { deps, state, runHooks } = parts;
  const finish = (text: string, cause: AgentResult["cause"]) =>
    state.emit({ type: "done", result: { text, cause, turns: 0, usage: emptyUsage(), toolsUsed: [] } });
  state.compactFailedThisTurn = false;
  await parts.restore();
  // A reload in flight (settings hooks, rules, skills) lands before this turn's first hook or request.
  await deps.settled?.();
  // The turn runs on the snapshot in force now: a reload that lands later is the next turn's.
  const context = parts.begin(interrupt);
  const { signal } = context;
  if (typed === undefined) return runAnswersTurn(context, parts);
  const opening: ModelContentBlock[] = [];
  if (!state.started) {
    state.started = true;
    const start = await runHooks("SessionStart", { source: deps.resumed ? "resume" : "startup" }, signal);
    opening.push(...start.additionalContext.map((text) => ({ type: "text" as const, text })));
    for (const file of deps.instructionFiles ?? []) {
      const payload = { file_path: file.path, memory_type: file.memoryType, load_reason: "session_start" };
      await runHooks("InstructionsLoaded", payload, signal);
    }
  } else if (parts.takeConfigChange()) {
    // The engine reloads settings, plugins and agent types together: the reload already happened.
    await runHooks("ConfigChange", { source: "settings" }, signal);
  }
  if (typed.trim() === COMPACT_COMMAND) {
    const outcome = await parts.compactor.compact("manual", signal);
    return finish(
      outcome.ok ? "Conversation compacted." : outcome.message,
      outcome.ok ? "end_turn" : "error",
    );
  }
  // A prompt template (`/name args`) becomes its text before anything else sees the prompt.
  const prompt = deps.expandTemplate?.(typed) ?? typed;
  // The listing's focus is decided from the session's first prompt (issue #25 item 4).
  state.firstPrompt ??= prompt;
  const submit = await runHooks("UserPromptSubmit", { prompt }, signal);
  if (submit.blocked !== undefined) {
    const message = `UserPromptSubmit hook blocked the prompt: ${submit.blocked.reason}`;
    state.emit({ type: "error", kind: "blocked", message });
    return finish(message, "blocked");
  }
  opening.push(...submit.additionalContext.map((text) => ({ type: "text" as const, text })));
  // Expansions whose time is up leave the requests now, all at once: one change of the prefix per turn at most.
  const expired = state.skillContext.beginTurn(state.messages);
  if (expired.length > 0) await parts.expired(expired);
  await parts.touch(mentionedPaths(prompt, context.cwd));
  const turn: TurnState = {
    model: parts.model,
    ...(context.effort === undefined ? {} : { effort: context.effort }),
    grants: [],
    removedTools: [],
  };
  const slash = await handleSlash(prompt, {
    skills: context.skills.visible(),
    turn,
    signal,
    invoke: (request) => parts.runtime.invoke(context, request),
    disabled: (name) => context.skills.disabled(name),
  });
  if (slash.kind === "reply") {
    if (slash.record) {
      const user: ModelMessage = {
        role: "user",
        content: [...(await openingBlocks(parts)), ...opening, ...slash.userBlocks],
      };
      await parts.record(user, { role: "assistant", content: [{ type: "text", text: slash.text }] });
    }
    state.emit({ type: "text_delta", text: slash.text });
    return finish(slash.text, slash.ok ? "end_turn" : "blocked");
  }
  // A prompt that would take the next request past the threshold: compact what came before it first (SPEC §8).
  const pending = messagesTokens([{ role: "user", content: [...opening, ...slash.userBlocks] }]);
  await parts.compactor.autoCompact(state.messagesUsage.at(-1), parts.model, signal, pending);
  const first: ModelMessage = {
    role: "user",
    content: [...(await openingBlocks(parts)), ...opening, ...slash.userBlocks],
  };
  const result = await runAgentTurn(first, slash.kind === "expand" ? slash.turn : turn, context, parts);
  if (result.cause === "error") await runHooks("StopFailure", stopFailurePayload(result), signal);
  state.emit({ type: "done", result });
  await parts.compactor.autoCompact(state.messagesUsage.at(-1), parts.model, signal);
}

/**
 * A turn with no prompt (`Session.drainBackground`): the user message is the opening reminders, the answers of
 * the background forks that finished among them; then the loop as for a prompt.
 */
async function runAnswersTurn(context: RunContext, parts: TurnParts): Promise<void> {
  const { state } = parts;
  const turn: TurnState = {
    model: parts.model,
    ...(context.effort === undefined ? {} : { effort: context.effort }),
    grants: [],
    removedTools: [],
  };
  const first: ModelMessage = { role: "user", content: await openingBlocks(parts) };
  const result = await runAgentTurn(first, turn, context, parts);
  if (result.cause === "error")
    await parts.runHooks("StopFailure", stopFailurePayload(result), context.signal);
  state.emit({ type: "done", result });
  await parts.compactor.autoCompact(state.messagesUsage.at(-1), parts.model, context.signal);
}

/**
 * The reminders that open a user message: nested-discovery announcements, the listing (delta), then the
 * answers of background forks that finished since the main agent's last request (each given once).
 */
async function openingBlocks(parts: TurnParts): Promise<ModelContentBlock[]> {
  const blocks: ModelContentBlock[] = parts.state.pendingAnnouncements
    .splice(0)
    .map((text) => ({ type: "text", text }));
  const reminder = await parts.listings.listingFor(MAIN_AGENT, parts.model);
  if (reminder !== "") blocks.push({ type: "text", text: reminder });
  for (const text of parts.backgroundForks.take()) blocks.push({ type: "text", text });
  return blocks;
}

/** The main agent's loop for one user message, with Stop hooks that may make it go on. */
async function runAgentTurn(
  first: ModelMessage,
  turn: TurnState,
  context: RunContext,
  parts: TurnParts,
): Promise<AgentResult> {
  const { deps, state } = parts;
  const { signal } = context;
  // The main agent's tools: the session's, its Skill tool (bound to this turn's context), and `SkillSearch`.
  const tools: AgentTool[] = [
    ...context.tools,
    parts.runtime.skillTool(context),
    ...(context.skillSearch === undefined ? [] : [context.skillSearch]),
  ];
  await parts.record(first);
  const turnId = randomUUID();
  // MessageDisplay: once per main-agent message with text, when it is complete (Claude Code's non-interactive
  // rule); the conversation keeps the original, a host shows the hook's replacement.
  const display = async (message: ModelMessage) => {
    if (message.role !== "assistant" || typeof message.content === "string") return;
    const text = message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
    if (text === "") return;
    const shown = await parts.runHooks(
      "MessageDisplay",
      { turn_id: turnId, message_id: randomUUID(), index: 0, final: true, delta: text },
      signal,
    );
    if (shown.displayContent !== undefined)
      state.emit({ type: "message_display", text: shown.displayContent });
  };
  return runWithStopChecks({
    run: () =>
      executeAgent(
        {
          client: context.client,
          system: deps.system,
          tools,
          messages: state.messages,
          turn,
          maxTokens: deps.maxTokens ?? DEFAULT_MAX_TOKENS,
          cwd: context.cwd,
          signal,
          gate: parts.gateOf(context),
          ...(deps.maxTurns === undefined ? {} : { maxTurns: deps.maxTurns }),
          transformContext: (messages) => {
            const view = state.skillContext.view(messages);
            return deps.transformContext === undefined ? view : deps.transformContext(view);
          },
          reminders: async () => {
            const delta = await parts.listings.listingFor(MAIN_AGENT, parts.model);
            const out = state.pendingAnnouncements.splice(0);
            // Background answers last: appended to the new message, nothing sent before changes (the cache).
            return [...out, ...(delta === "" ? [] : [delta]), ...parts.backgroundForks.take()];
          },
          onMessage: async (message) => {
            state.messages.push(message);
            await context.transcript(message);
            await display(message);
          },
          onTouchedPaths: parts.touch,
          compact: parts.compactor.autoCompact,
        },
        (event) => state.emit(event),
      ),
    stopCheck: async (round) =>
      (await parts.runHooks("Stop", { stop_hook_active: round > 0 }, signal)).blocked?.reason,
    continueWith: (reason) => parts.record({ role: "user", content: [{ type: "text", text: reason }] }),
  });
}
