import type { BetaManagedAgentsAgent } from "@anthropic-ai/sdk/resources/beta/agents/agents";
import type { AskPermission } from "../../permissions/decision.js";
import type { OpenSessionOptions } from "../../session/open-options.js";
import { BUILTIN_TOOL_NAMES } from "../../tools/builtin.js";
import type { OutEvent } from "./agent-event-map.js";
import type { UserWaits } from "./await-action.js";
import {
  decisionFields,
  policyRules,
  type ResolvedToolPolicy,
  resolveToolPolicy,
  type ToolDecision,
  type ToolsetRef,
} from "./permission-policy.js";

/** A tool a served session offers that a toolset governs: its engine name, toolset, and name in the toolset. */
export interface ServedTool {
  /** The engine's name for it (`Write`, `mcp__docs__search`). */
  name: string;
  toolset: ToolsetRef;
  /** Its name in the toolset's `configs` when that differs (an MCP tool's name on its server). */
  configName?: string;
}

/** The built-in file and shell tools (`serve --host-tools`), which the agent toolset governs. */
export function hostServedTools(): ServedTool[] {
  return BUILTIN_TOOL_NAMES.map((name) => ({ name, toolset: { type: "agent_toolset_20260401" } }));
}

/** What the confirmations of one turn need. */
export interface ToolConfirmationOptions {
  /** The agent's `tools` (toolsets with their configs, custom tools). */
  tools: BetaManagedAgentsAgent["tools"];
  /** The toolset-governed tools the session offers (host tools, MCP tools). */
  served: readonly ServedTool[];
  /** The agent's custom tools: never asked (the application answers them). */
  customToolNames: readonly string[];
  /** The turn's waits for the user (shared with its custom tools). */
  waits: UserWaits;
  /** The engine asks the user about engine call `callId` (told before the wait stores anything); absent: no one is told. */
  asked?(callId: string): void;
}

/** The text the model gets when the user denies a call without a `deny_message`. */
export const DEFAULT_DENY_TEXT = "The user denied permission to run this tool.";

/** A turn's tool confirmations: the session options that apply the policies, and the runner's two hooks. */
export interface ToolConfirmation {
  /** Spread into `openSession`'s options: allow and ask rules, disabled tools removed, the `askPermission`. */
  readonly sessionOptions: Required<
    Pick<OpenSessionOptions, "allowedTools" | "askRules" | "disallowedTools" | "askPermission">
  >;
  /**
   * An `agent.tool_use` or `agent.mcp_tool_use` with the `evaluated_permission` and `evaluation` of the engine's
   * `decision` on it; others unchanged.
   */
  annotate(event: OutEvent, decision: ToolDecision): OutEvent;
  /** The runner stored the `agent.tool_use` of engine call `callId` as event `eventId`. */
  stored(callId: string, eventId: string): void;
  /**
   * The user allowed a call `name`/`input` that never ran (its server stopped): the next such call runs
   * without asking, once.
   */
  allowOnce(name: string, input: unknown): void;
}

/**
 * Tool confirmations for one turn, as the SDK describes them: each served tool's policy is resolved from the
 * agent's toolsets. always_allow calls run without asking; always_ask calls (and `auto` calls the engine's
 * rules would ask about) reach the engine's `askPermission` (after deny rules and PermissionRequest hooks,
 * which still win), which waits, with the session idle on `requires_action` naming the call's
 * `agent.tool_use`, for the `user.tool_confirmation` naming it: `allow` runs the tool, `deny` gives the model
 * an error result with the `deny_message` (else {@link DEFAULT_DENY_TEXT}). Asks about anything else (the
 * Skill tool, a skill's inline shell) stay headless, as before.
 */
export function createToolConfirmation(options: ToolConfirmationOptions): ToolConfirmation {
  const policies = new Map<string, ResolvedToolPolicy>();
  for (const tool of options.served) {
    const resolved = resolveToolPolicy(options.tools, tool.configName ?? tool.name, tool.toolset);
    if (resolved !== undefined) policies.set(tool.name, resolved);
  }
  const rules = policyRules(policies);
  // An `agent.mcp_tool_use` names the server and the tool as the server calls it, not the engine's name.
  const mcpNames = new Map<string, string>();
  for (const tool of options.served) {
    if (tool.toolset.type === "mcp_toolset")
      mcpNames.set(`${tool.toolset.mcpServerName}\u0000${tool.configName ?? tool.name}`, tool.name);
  }
  const eventIds = new Map<string, string>();
  const waiting = new Map<string, (eventId: string) => void>();

  /** The stored id of the engine call's `agent.tool_use` (the runner may store it after the ask starts). */
  const eventIdFor = (callId: string, signal: AbortSignal): Promise<string> => {
    const known = eventIds.get(callId);
    if (known !== undefined) return Promise.resolve(known);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        waiting.delete(callId);
        reject(new Error("interrupted before the tool call was stored"));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      waiting.set(callId, (eventId) => {
        signal.removeEventListener("abort", onAbort);
        resolve(eventId);
      });
    });
  };

  const allowedOnce: string[] = [];
  const callKey = (name: string, input: unknown) => `${name}\u0000${JSON.stringify(input)}`;

  const askPermission: AskPermission = async ({ tool, toolUseId, signal, input }) => {
    const resolved = policies.get(tool);
    if (resolved === undefined || toolUseId === undefined) return undefined;
    if (resolved.policy === "always_allow") return true;
    const once = allowedOnce.indexOf(callKey(tool, input));
    if (once !== -1) {
      allowedOnce.splice(once, 1);
      return true;
    }
    options.asked?.(toolUseId);
    const turn = signal ?? new AbortController().signal;
    const answer = await options.waits.wait(
      {
        blockOn: () => eventIdFor(toolUseId, turn),
        answers: (event, id) => event.type === "user.tool_confirmation" && event.tool_use_id === id,
      },
      turn,
    );
    if (answer === undefined) return { deny: "interrupted before the tool call was confirmed" };
    if (answer.result === "allow") return true;
    const message = answer.deny_message;
    return { deny: typeof message === "string" && message.trim() !== "" ? message : DEFAULT_DENY_TEXT };
  };

  return {
    sessionOptions: {
      allowedTools: [...options.customToolNames, ...rules.allow],
      askRules: rules.ask,
      disallowedTools: rules.removed,
      askPermission,
    },
    annotate(event, decision) {
      if (typeof event.name !== "string") return event;
      if (event.type === "agent.tool_use")
        return { ...event, ...decisionFields(policies.get(event.name), decision) };
      if (event.type === "agent.mcp_tool_use" && typeof event.mcp_server_name === "string") {
        const name = mcpNames.get(`${event.mcp_server_name}\u0000${event.name}`);
        return { ...event, ...decisionFields(name === undefined ? undefined : policies.get(name), decision) };
      }
      return event;
    },
    allowOnce(name, input) {
      allowedOnce.push(callKey(name, input));
    },
    stored(callId, eventId) {
      eventIds.set(callId, eventId);
      waiting.get(callId)?.(eventId);
      waiting.delete(callId);
    },
  };
}
