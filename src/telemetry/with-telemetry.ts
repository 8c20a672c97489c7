import type { AgentEvent } from "../agent/events.js";
import type { Session } from "../session/session-types.js";
import type { Telemetry } from "./telemetry.js";

/**
 * `session` with telemetry: each `send` is a turn whose events the telemetry is told as they pass (unchanged),
 * ended when the turn's events end or its consumer stops; so is each `drainBackground` (the turn that brings
 * background forks' answers back, with an empty prompt: its model requests are counted too). With
 * `shutdownOnClose` (a host with one session), `close` closes the session, then shuts the telemetry down
 * (sending what it buffered); a host that opens several sessions shuts it down itself. After each turn the
 * telemetry is given the session's per-skill context usage (`contextUsage`). Without telemetry,
 * `session` itself.
 */
export function withTelemetry(
  session: Session,
  telemetry: Telemetry | undefined,
  model: string,
  options: { shutdownOnClose: boolean },
): Session {
  if (telemetry === undefined) return session;
  const sink = telemetry;
  async function* traced(prompt: string, events: AsyncIterable<AgentEvent>): AsyncGenerator<AgentEvent> {
    const turn = sink.turn({ sessionId: session.id, prompt, model });
    let error: string | undefined;
    try {
      for await (const event of events) {
        turn.event(event);
        if (event.type === "done" && event.agentId === undefined && event.result.cause === "error")
          error = event.result.error?.message ?? "error";
        yield event;
      }
    } finally {
      turn.end(error);
    }
    // After the turn (not when its consumer stopped early): what each skill costs the context now.
    if (sink.contextUsage !== undefined) {
      const usage = await session.contextUsage().catch(() => undefined);
      if (usage !== undefined) sink.contextUsage(session.id, usage);
    }
  }
  return {
    // Every member but the three below passes through unchanged.
    ...session,
    send: (prompt, sendOptions) => traced(prompt, session.send(prompt, sendOptions)),
    drainBackground: (drainOptions) => traced("", session.drainBackground(drainOptions)),
    async close() {
      try {
        await session.close();
      } finally {
        if (options.shutdownOnClose) await sink.shutdown();
      }
    },
  };
}
