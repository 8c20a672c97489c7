import type { RunContext } from "../context.js";
import type { SessionSnapshot } from "./session-snapshot.js";
import type { SessionContext } from "./session-types.js";

/**
 * The main agent's context for one user turn: the session's, at depth 0, with the rules and agent types of the
 * snapshot in force when the turn started (a reload mid-turn is seen by the next turn) and the turn's own signal
 * (the host's interrupt for that turn and the session's close; without one, a signal nothing aborts).
 * Everything the turn starts (tool calls, forks, hooks) runs on this context or a `childContext` of it. Pure.
 */
export function turnContext(
  session: SessionContext,
  snapshot: SessionSnapshot,
  signal: AbortSignal | undefined,
): RunContext {
  return {
    ...session,
    rules: snapshot.rules,
    agents: snapshot.agents,
    signal: signal ?? AbortSignal.any([]),
    depth: 0,
  };
}
