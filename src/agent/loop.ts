import pLimit from "p-limit";
import { ABORTED_TEXT, type Tool, type ToolContent, type ToolResult } from "../tools/define-tool.js";
import { createChannel } from "./channel.js";
import { type AgentEvent, type AgentResult, addUsage, emptyUsage } from "./events.js";
import type { ModelClient } from "./model-client.js";
import { ModelError } from "./model-error.js";
import type {
  AssistantMessage,
  ModelContentBlock,
  ModelMessage,
  ModelToolUseBlock,
  ModelUsage,
} from "./model-types.js";
import { applyPatch, removedToolRefusal, type TurnPatch, type TurnState } from "./turn-patch.js";

/** Default cap on model requests in one user turn. */
export const DEFAULT_MAX_TURNS = 100;
/** Default number of tool calls from one assistant message that run at once. */
export const DEFAULT_TOOL_CONCURRENCY = 8;

/** A tool result that may also change the rest of the turn and add blocks after the tool results. */
export type AgentToolResult = ToolResult & {
  patch?: TurnPatch;
  /** Blocks placed after all tool_result blocks in the same user message (e.g. a skill's expansion). */
  followUp?: ModelContentBlock[];
};

/** What the loop passes to a tool: the tool context plus the turn's current state. */
export type AgentToolContext = Parameters<Tool["run"]>[1] & { turn: TurnState };

/** A tool as the loop runs it: every `Tool` is one; engine-level tools (Skill) may return more. */
export type AgentTool = Omit<Tool, "run"> & {
  run(rawInput: unknown, ctx: AgentToolContext): Promise<AgentToolResult>;
};

export interface ToolCall {
  id: string;
  tool: AgentTool;
  input: unknown;
  turn: TurnState;
  signal: AbortSignal;
  /** The sub-agent making the call; undefined for the main agent. */
  agentId?: string;
}

/** One call of a resolved batch: what it was and the `tool_result` content the model gets for it. */
export interface BatchedCall {
  id: string;
  name: string;
  input: unknown;
  response: unknown;
}

/** Permission checks and hooks around every tool call: the loop's only door to policy. */
export interface ToolGate {
  before(call: ToolCall): Promise<{ behavior: "allow" } | { behavior: "deny"; message: string }>;
  /** May return text to add to the conversation after the results (PostToolUse context). */
  after?(call: ToolCall, result: AgentToolResult): Promise<string[]>;
  /**
   * Once every call of a batch has resolved, before the next request (PostToolBatch): text to add after the
   * results, and a `stop` reason when the loop must end here (it joins the conversation, and the run ends
   * `blocked`).
   */
  afterBatch?(
    calls: readonly BatchedCall[],
    signal: AbortSignal,
    agentId?: string,
  ): Promise<{ context: string[]; stop?: string }>;
  /**
   * Awaited after an allowed call's `tool_decision` is emitted and before the tool runs (a host records the
   * call here first); a rejection fails the call without running it.
   */
  ready?(call: ToolCall): Promise<void>;
}

/**
 * What a request's messages become just before they are sent (pi's `transformContext`): a pure function of the
 * conversation, which it must not change; the conversation and the transcript keep the original. For the
 * prompt cache, give the same output for the same input, and let a request's output begin with the previous
 * request's unless something really changed (see docs/behaviour.md, "Expiring skill context").
 */
export type TransformContext = (messages: readonly ModelMessage[]) => readonly ModelMessage[];

export interface AgentRunOptions {
  client: ModelClient;
  system: string;
  tools: readonly AgentTool[];
  /** The transcript so far, ending with the new user message (already persisted by the caller). */
  messages: readonly ModelMessage[];
  /** Model, effort, grants and removed tools at the start of the turn. */
  turn: TurnState;
  maxTokens: number;
  cwd: string;
  signal: AbortSignal;
  /** Set for sub-agents: sent as a header and stamped on every event. */
  agentId?: string;
  maxTurns?: number;
  toolConcurrency?: number;
  /** Applied to the messages of each request before it is sent (see {@link TransformContext}). */
  transformContext?: TransformContext;
  gate?: ToolGate;
  /** Reminder texts (listing deltas) to add to each new tool-result message before it is sent. */
  reminders?: () => Promise<string[]>;
  /** Called with each message the loop adds, as soon as it exists (persist it here). */
  onMessage?: (message: ModelMessage) => Promise<void>;
  /** Called with the absolute paths each tool call touched. */
  onTouchedPaths?: (paths: string[]) => Promise<void>;
  /**
   * Called after each round of tool results, before the next request, with the last response's usage and
   * model: may compact the conversation in the middle of a turn and return the messages to go on from
   * (undefined: go on unchanged).
   */
  compact?: (
    lastUsage: ModelUsage,
    model: string,
    signal: AbortSignal,
  ) => Promise<ModelMessage[] | undefined>;
}

/** Runs one user turn and streams its events; the last event is always `done` (which `executeAgent` leaves out). */
export function runAgent(options: AgentRunOptions): AsyncIterable<AgentEvent> {
  const channel = createChannel<AgentEvent>();
  executeAgent(options, (event) => channel.push(event)).then(
    (result) => {
      channel.push({
        type: "done",
        ...(options.agentId === undefined ? {} : { agentId: options.agentId }),
        result,
      });
      channel.close();
    },
    (error: unknown) => channel.close(error),
  );
  return channel;
}

function toResultContent(
  content: ToolContent[],
): Extract<ModelContentBlock, { type: "tool_result" }>["content"] {
  return content.map((block) => (block.type === "text" ? { type: "text", text: block.text } : block));
}

/** The text of an assistant message's text blocks. */
export function messageText(message: AssistantMessage): string {
  return message.content
    .filter((b) => b.type === "text")
    .map((b) => (b.type === "text" ? b.text : ""))
    .join("");
}

/**
 * The loop (DESIGN key contracts): request, stream, run the tool calls of the assistant message in parallel
 * (p-limit) through the gate, send the results, until the model stops calling tools, the turn cap is hit, the
 * signal aborts or the model fails. Emits events through `emit` and resolves with the result (never rejects
 * for model or tool failures: those are `error` events and an `error` cause).
 */
export async function executeAgent(
  options: AgentRunOptions,
  emit: (event: AgentEvent) => void,
): Promise<AgentResult> {
  const stamp = options.agentId === undefined ? {} : { agentId: options.agentId };
  const messages: ModelMessage[] = [...options.messages];
  const usage = emptyUsage();
  const toolsUsed: string[] = [];
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  const limit = pLimit(options.toolConcurrency ?? DEFAULT_TOOL_CONCURRENCY);
  let turn = options.turn;
  let turns = 0;
  let lastText = "";

  const finish = (cause: AgentResult["cause"], error?: { kind: string; message: string }): AgentResult => {
    const result: AgentResult = { text: lastText, cause, turns, usage, toolsUsed };
    if (error !== undefined) result.error = error;
    return result;
  };
  const addMessage = async (message: ModelMessage) => {
    messages.push(message);
    emit({ type: "message", ...stamp, message });
    await options.onMessage?.(message);
  };

  for (;;) {
    if (options.signal.aborted) return finish("aborted");
    if (turns >= maxTurns) return finish("max_turns");
    turns += 1;
    // The same tools array on every request (a fixed prompt prefix): removed tools are refused at dispatch.
    const tools = options.tools;
    emit({ type: "request_start", ...stamp, turn: turns, model: turn.model });
    let message: AssistantMessage;
    try {
      message = await options.client.stream(
        {
          model: turn.model,
          system: options.system,
          messages: options.transformContext === undefined ? messages : options.transformContext(messages),
          tools: tools.map((t) => ({
            name: t.name,
            description: t.description,
            input_schema: t.inputSchema,
            ...(t.deferLoading === true ? { defer_loading: true } : {}),
          })),
          maxTokens: options.maxTokens,
          ...(turn.effort === undefined ? {} : { effort: turn.effort }),
        },
        {
          signal: options.signal,
          ...stamp,
          onEvent: (event) => {
            if (event.type === "text_delta") emit({ type: "text_delta", ...stamp, text: event.text });
          },
        },
      );
    } catch (error) {
      const kind = error instanceof ModelError ? error.kind : "unknown";
      const text = error instanceof Error ? error.message : String(error);
      if (kind === "aborted" || options.signal.aborted) return finish("aborted");
      emit({ type: "error", ...stamp, kind, message: text });
      return finish("error", { kind, message: text });
    }
    addUsage(usage, message.usage);
    lastText = messageText(message);
    emit({ type: "assistant_message", ...stamp, message });
    await addMessage({ role: "assistant", content: message.content });
    emit({ type: "turn_end", ...stamp, turn: turns, stopReason: message.stop_reason, usage: message.usage });

    const calls = message.content.filter((b): b is ModelToolUseBlock => b.type === "tool_use");
    if (calls.length === 0) return finish("end_turn");

    const outcomes = await Promise.all(
      calls.map((call) => limit(() => runCall(call, tools, turn, options, emit, stamp))),
    );
    const content: ModelContentBlock[] = [];
    const followUps: ModelContentBlock[] = [];
    const batch: BatchedCall[] = [];
    for (const [i, outcome] of outcomes.entries()) {
      const call = calls[i] as ModelToolUseBlock;
      if (!toolsUsed.includes(call.name)) toolsUsed.push(call.name);
      const { result } = outcome;
      const response = toResultContent(result.content);
      batch.push({ id: call.id, name: call.name, input: call.input, response });
      content.push({
        type: "tool_result",
        tool_use_id: call.id,
        content: response,
        ...(result.isError ? { is_error: true } : {}),
      });
      followUps.push(...(result.followUp ?? []));
      if (result.patch !== undefined) turn = applyPatch(turn, result.patch);
      for (const text of outcome.context) followUps.push({ type: "text", text });
      if (result.touchedPaths.length > 0) await options.onTouchedPaths?.(result.touchedPaths);
    }
    const after = options.signal.aborted
      ? undefined
      : await options.gate?.afterBatch?.(batch, options.signal, options.agentId);
    for (const text of after?.context ?? []) followUps.push({ type: "text", text });
    if (after?.stop !== undefined) {
      // The reason stays in the conversation, so the model sees it when the conversation goes on.
      emit({ type: "warning", ...stamp, message: after.stop });
      await addMessage({
        role: "user",
        content: [...content, ...followUps, { type: "text", text: after.stop }],
      });
      return finish("blocked");
    }
    const reminders = options.signal.aborted ? [] : ((await options.reminders?.()) ?? []);
    for (const text of reminders) followUps.push({ type: "text", text });
    await addMessage({ role: "user", content: [...content, ...followUps] });
    if (options.signal.aborted) continue;
    const compacted = await options.compact?.(message.usage, turn.model, options.signal);
    if (compacted !== undefined) messages.splice(0, messages.length, ...compacted);
  }
}

async function runCall(
  call: ModelToolUseBlock,
  tools: readonly AgentTool[],
  turn: TurnState,
  options: AgentRunOptions,
  emit: (event: AgentEvent) => void,
  stamp: { agentId?: string },
): Promise<{ result: AgentToolResult; context: string[] }> {
  emit({ type: "tool_start", ...stamp, id: call.id, name: call.name, input: call.input });
  const done = (result: AgentToolResult, context: string[] = []) => {
    emit({ type: "tool_end", ...stamp, id: call.id, name: call.name, result });
    return { result, context };
  };
  const decide = (behavior: "allow" | "deny", refused = false) =>
    emit({
      type: "tool_decision",
      ...stamp,
      id: call.id,
      name: call.name,
      behavior,
      ...(refused ? { refused: true as const } : {}),
    });
  const tool = tools.find((t) => t.name === call.name);
  if (tool === undefined) {
    const names = tools.map((t) => t.name).join(", ");
    decide("deny", true);
    return done(errorOf(`No such tool available: ${call.name}. Available tools: ${names}`));
  }
  const refusal = removedToolRefusal(turn, tool.name);
  if (refusal !== undefined) {
    decide("deny", true);
    return done(errorOf(refusal));
  }
  const toolCall: ToolCall = {
    id: call.id,
    tool,
    input: call.input,
    turn,
    signal: options.signal,
    ...(options.agentId === undefined ? {} : { agentId: options.agentId }),
  };
  // Tools not built with defineTool (and gates) may throw: that is a failed call, never a failed turn.
  try {
    const verdict =
      options.gate === undefined ? { behavior: "allow" as const } : await options.gate.before(toolCall);
    decide(verdict.behavior);
    if (verdict.behavior === "deny") return done(errorOf(verdict.message));
    await options.gate?.ready?.(toolCall);
    const result = await tool.run(call.input, {
      cwd: options.cwd,
      signal: options.signal,
      toolUseId: call.id,
      turn,
      onUpdate: (text) => emit({ type: "tool_update", ...stamp, id: call.id, text }),
    });
    const context = (await options.gate?.after?.(toolCall, result)) ?? [];
    return done(result, context);
  } catch (error) {
    if (options.signal.aborted) return done(errorOf(ABORTED_TEXT));
    return done(errorOf(`${call.name} failed: ${error instanceof Error ? error.message : String(error)}`));
  }
}

function errorOf(text: string): AgentToolResult {
  return { content: [{ type: "text", text }], isError: true, touchedPaths: [] };
}
