import type { AgentEvent } from "../agent/events.js";
import type { SkillContextUsage } from "../session/skill-context/context-usage.js";

/** What starts a user turn's telemetry. */
export interface TurnInfo {
  sessionId: string;
  /** The text the user sent; recorded only when the telemetry was asked to log prompts. */
  prompt: string;
  model: string;
}

/** One user turn's telemetry: it is told each event of the turn, then that the turn ended. */
export interface TurnTelemetry {
  event(event: AgentEvent): void;
  /** Ends the turn (and any span still open in it); `error` when the turn failed. */
  end(error?: string): void;
}

/**
 * Where a session's telemetry goes: a span per user turn with child spans for its model requests, skill
 * invocations, forks and hooks, and counters. The CLI and `serve` load the OpenTelemetry one only when asked
 * (src/telemetry/otel.ts); without one, nothing is recorded and no telemetry module is loaded.
 */
export interface Telemetry {
  turn(info: TurnInfo): TurnTelemetry;
  /**
   * What each skill costs a session's context after a turn (`session.contextUsage()`, the numbers `/context`
   * shows): recorded as gauges, one value per skill and part. Absent: not recorded.
   */
  contextUsage?(sessionId: string, usage: SkillContextUsage): void;
  /** Sends what is still buffered and stops. Never rejects. */
  shutdown(): Promise<void>;
}
