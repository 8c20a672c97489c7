import type { Session } from "../session/session-types.js";
import type { Telemetry } from "./telemetry.js";

/**
 * `session` with telemetry: each `send` is a turn whose events the telemetry is told as they pass (unchanged),
 * ended when the turn's events end or its consumer stops. With `shutdownOnClose` (a host with one session),
 * `close` closes the session, then shuts the telemetry down (sending what it buffered); a host that opens several
 * sessions shuts it down itself. Without telemetry, `session` itself.
 */
export function withTelemetry(
  session: Session,
  telemetry: Telemetry | undefined,
  model: string,
  options: { shutdownOnClose: boolean },
): Session {
  if (telemetry === undefined) return session;
  return {
    // Every member but the two below passes through unchanged.
    ...session,
    async *send(prompt, options) {
      const turn = telemetry.turn({ sessionId: session.id, prompt, model });
      let error: string | undefined;
      try {
        for await (const event of session.send(prompt, options)) {
          turn.event(event);
          if (event.type === "done" && event.agentId === undefined && event.result.cause === "error")
            error = event.result.error?.message ?? "error";
          yield event;
        }
      } finally {
        turn.end(error);
      }
    },
    async close() {
      try {
        await session.close();
      } finally {
        if (options.shutdownOnClose) await telemetry.shutdown();
      }
    },
  };
}
