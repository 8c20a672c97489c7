import type { OutEvent } from "./agent-event-map.js";
import type { ToolDecision } from "./permission-policy.js";

/** How held tool uses are written once decided. */
export interface HeldToolUsesIo {
  /** Writes engine call `callId`'s use event with the decision's fields; resolves nothing, returns its id. */
  write(event: OutEvent, decision: ToolDecision, callId: string): string | undefined;
  /** The use event of engine call `callId` was written as event `eventId`. */
  stored(callId: string, eventId: string): void;
}

/**
 * One turn's `agent.tool_use` / `agent.mcp_tool_use` events, each held until the engine decides on its call
 * (allow or deny from the agent loop, ask from the tool confirmations), then written with that decision, so
 * every stored use carries its `evaluated_permission`. The first decision on a call wins (an asked call's later
 * allow or deny is the user's answer, not the engine's); a decision may come before the use is held.
 */
export interface HeldToolUses {
  /** Holds the use event of engine call `callId` (written at once when its decision is known). */
  hold(callId: string, event: OutEvent): void;
  /** The engine's decision on call `callId`. */
  decide(callId: string, decision: ToolDecision): void;
  /**
   * The call ended: its use is written now if it is still held (with `deny`, as the call did not run: its
   * permission check failed).
   */
  end(callId: string): void;
}

/** Held tool uses for one turn, over `io`. */
export function createHeldToolUses(io: HeldToolUsesIo): HeldToolUses {
  const held = new Map<string, OutEvent>();
  const decided = new Map<string, ToolDecision>();
  const written = new Set<string>();
  const write = (callId: string, event: OutEvent, decision: ToolDecision) => {
    held.delete(callId);
    decided.delete(callId);
    written.add(callId);
    const id = io.write(event, decision, callId);
    if (id !== undefined) io.stored(callId, id);
  };
  return {
    hold(callId, event) {
      const decision = decided.get(callId);
      if (decision === undefined) held.set(callId, event);
      else write(callId, event, decision);
    },
    decide(callId, decision) {
      if (written.has(callId) || decided.has(callId)) return;
      const event = held.get(callId);
      if (event === undefined) decided.set(callId, decision);
      else write(callId, event, decision);
    },
    end(callId) {
      const event = held.get(callId);
      if (event !== undefined) write(callId, event, { behavior: "deny" });
    },
  };
}
