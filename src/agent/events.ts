import type { SkillTrigger } from "../skill/skill.js";
import type { ToolResult } from "../tools/define-tool.js";
import type { AssistantMessage, ModelMessage, ModelUsage } from "./model-types.js";

/** Why a run of the loop ended. */
export type StopCause = "end_turn" | "max_turns" | "aborted" | "error" | "blocked";

/** Everything the loop tells its host, as a discriminated union (DESIGN key contracts). */
export type AgentEvent =
  | { type: "request_start"; agentId?: string; turn: number; model: string }
  | { type: "text_delta"; agentId?: string; text: string }
  | { type: "assistant_message"; agentId?: string; message: AssistantMessage }
  | { type: "tool_start"; agentId?: string; id: string; name: string; input: unknown }
  | {
      /**
       * The permission decision on a tool call, before it runs or is refused: `refused` when it was refused
       * before any permission check (no such tool, a tool removed this turn).
       */
      type: "tool_decision";
      agentId?: string;
      id: string;
      name: string;
      behavior: "allow" | "deny";
      refused?: true;
    }
  | { type: "tool_update"; agentId?: string; id: string; text: string }
  | { type: "tool_end"; agentId?: string; id: string; name: string; result: ToolResult }
  | { type: "message"; agentId?: string; message: ModelMessage }
  | {
      type: "skill_invoked";
      agentId?: string;
      name: string;
      args: string;
      mode: "inline" | "fork";
      /** Where the skill came from (its tier). */
      source?: string;
      /** Who asked: a person typing `/name`, the main agent's model, or a sub-agent's. */
      trigger?: SkillTrigger;
      /** Characters of the text the skill put into the conversation (a fork's task). */
      expansionChars?: number;
    }
  | {
      /**
       * A listing (or delta) went to an agent: how many skills it shows whole, cut, by name only, and how many it
       * left out for the budget (found with `SkillSearch`).
       */
      type: "listing_sent";
      agentId?: string;
      full: number;
      cut: number;
      nameOnly: number;
      omitted: number;
    }
  | {
      /** The hooks of one event ran (`count` of them), from `startedAt` to `endedAt` (ms since the epoch). */
      type: "hook_run";
      agentId?: string;
      event: string;
      count: number;
      startedAt: number;
      endedAt: number;
      blocked: boolean;
    }
  | {
      type: "fork_progress";
      agentId: string;
      skill: string;
      turn: number;
      toolCalls: number;
      lastTool?: string;
    }
  | {
      /** A forked skill's sub-agent starts (before its first model request); `parentAgentId` absent: main. */
      type: "fork_start";
      agentId: string;
      parentAgentId?: string;
      skill: string;
      /** The agent type it runs as. */
      agentType: string;
      model: string;
      /** True for a background fork: its caller got a handle (this `agentId`) and goes on. */
      background?: true;
    }
  | {
      /** A forked skill's sub-agent ended: how (its result, or `cause: "error"` when it threw). */
      type: "fork_end";
      agentId: string;
      skill: string;
      result: AgentResult;
    }
  | {
      /**
       * A background fork's answer is ready (after its `fork_end`): `text` is what the caller's next request
       * brings, in a `<system-reminder>` naming the handle (`agentId`); `ok` false when the fork failed.
       */
      type: "background_result";
      agentId: string;
      skill: string;
      ok: boolean;
      text: string;
    }
  | { type: "turn_end"; agentId?: string; turn: number; stopReason: string; usage: ModelUsage }
  | { type: "warning"; agentId?: string; message: string }
  /**
   * What a host shows in place of the main agent's assistant message just completed: a MessageDisplay hook's
   * `displayContent`. The conversation, the transcript and the model keep the original text.
   */
  | { type: "message_display"; agentId?: string; text: string }
  | { type: "error"; agentId?: string; kind: string; message: string }
  | { type: "done"; agentId?: string; result: AgentResult };

/** The outcome of one run of the loop (one user turn). */
export interface AgentResult {
  /** The text of the last assistant message. */
  text: string;
  cause: StopCause;
  /** Model requests made. */
  turns: number;
  usage: ModelUsage;
  /** Names of the tools called, in first-use order. */
  toolsUsed: string[];
  error?: { kind: string; message: string };
}

/** Usage with every count at zero. */
export function emptyUsage(): ModelUsage {
  return { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
}

/** Adds `b` into `a` (mutates `a`). */
export function addUsage(a: ModelUsage, b: ModelUsage): void {
  a.input_tokens += b.input_tokens;
  a.output_tokens += b.output_tokens;
  a.cache_read_input_tokens += b.cache_read_input_tokens;
  a.cache_creation_input_tokens += b.cache_creation_input_tokens;
}
