import type { RunContext } from "../context.js";
import type { SessionContext } from "./session-types.js";

/**
 * The main agent's context for one user turn: the session's, at depth 0, with the turn's own signal (the host's
 * interrupt for that turn; without one, a signal nothing aborts). Everything the turn starts (tool calls, forks,
 * hooks) runs on this context or a `childContext` of it. Pure.
 */
export function turnContext(session: SessionContext, signal: AbortSignal | undefined): RunContext {
  return { ...session, signal: signal ?? AbortSignal.any([]), depth: 0 };
}
