import type { AgentEvent } from "../agent/events.js";
import { ESTIMATE_CHARS_PER_TOKEN } from "../session/compaction/tokens.js";
import type { SkillContextUsage } from "../session/skill-context/context-usage.js";
import type { TurnInfo, TurnTelemetry } from "./telemetry.js";

/** Attribute values a span or a counter takes. */
export type Attributes = Record<string, string | number | boolean>;

/** A started span: more attributes, then its end (at `endTime`, ms since the epoch, or now). */
export interface SpanHandle {
  set(attributes: Attributes): void;
  end(endTime?: number, error?: string): void;
}

/** What the tracker records through: spans (with a parent) and counters. The OpenTelemetry one is otel.ts's. */
export interface TelemetryPort {
  startSpan(
    name: string,
    attributes: Attributes,
    parent: SpanHandle | undefined,
    startTime?: number,
  ): SpanHandle;
  count(name: string, value: number, attributes: Attributes): void;
  /** Sets a gauge's current value for `attributes`. */
  gauge(name: string, value: number, attributes: Attributes): void;
}

/** The span names, one per kind of work. */
export const SPAN_NAMES = {
  turn: "skillwright.turn",
  request: "skillwright.model_request",
  skill: "skillwright.skill_invocation",
  fork: "skillwright.fork",
  hook: "skillwright.hook",
} as const;

/** The counter names. */
export const COUNTER_NAMES = {
  invocations: "skillwright.skill.invocations",
  searches: "skillwright.skill_search.calls",
  requests: "skillwright.model.requests",
  listing: "skillwright.listing.entries",
  /** A gauge: each skill's estimated tokens in the context by part (`listing`, `expansions`, …). */
  contextTokens: "skillwright.skill.context_tokens",
} as const;

/** One gauge value and the attributes it is set for. */
export interface GaugePoint {
  value: number;
  attributes: Attributes;
}

/**
 * A session's per-skill context usage as gauge values: one per skill and part with tokens (zeros left out, the
 * fork part included), with the session and the skill as attributes; then a 0 for each of `before` (the values
 * set after the previous turn) that has none now, so no gauge keeps a value the session no longer has (an
 * expansion that expired or was compacted away, say). Pure.
 */
export function contextGauges(
  sessionId: string,
  usage: SkillContextUsage,
  before: readonly GaugePoint[] = [],
): GaugePoint[] {
  const parts = ["listing", "expansions", "reattached", "expiredStubs", "forks"] as const;
  const now: GaugePoint[] = usage.skills.flatMap((s) =>
    parts.flatMap((part) =>
      s[part] === 0
        ? []
        : [
            {
              value: s[part],
              attributes: { "session.id": sessionId, "skill.name": s.name, "context.part": part },
            },
          ],
    ),
  );
  const key = (p: GaugePoint) => `${p.attributes["skill.name"]}\u0000${p.attributes["context.part"]}`;
  const set = new Set(now.map(key));
  const gone = before.filter((p) => !set.has(key(p)) && p.value !== 0).map((p) => ({ ...p, value: 0 }));
  return [...now, ...gone];
}

const MAIN = "main";

/**
 * A user turn's spans from its events: the turn's span; a model request span from each `request_start` to the
 * agent's `turn_end` (tokens), child of its agent's span (the turn's, or its fork's); a skill invocation span from
 * `skill_invoked` (name, source, trigger, inline or fork, estimated tokens of the expansion) to the end of that
 * agent's Skill call, child of the turn's span; a fork span from `fork_start` to `fork_end`, child of its skill's;
 * a hook span per `hook_run`, with its own times. Counters: invocations, SkillSearch calls, model requests, and the
 * entries of each listing sent by visibility (`full`, `cut`, `name-only`, `omitted`: one decision, the listing's). The
 * prompt's text is an attribute only with `logPrompts`; otherwise its length is.
 */
export function createTurnTracker(
  port: TelemetryPort,
  info: TurnInfo,
  options: { logPrompts: boolean },
): TurnTelemetry {
  const turn = port.startSpan(
    SPAN_NAMES.turn,
    {
      "session.id": info.sessionId,
      "gen_ai.request.model": info.model,
      ...(options.logPrompts ? { "user.prompt": info.prompt } : { "user.prompt_length": info.prompt.length }),
    },
    undefined,
  );
  /** Each agent's own span (main: the turn's; a fork: its fork span), its open request and its open skills. */
  const agentSpan = new Map<string, SpanHandle>([[MAIN, turn]]);
  const requests = new Map<string, SpanHandle>();
  const skills = new Map<string, SpanHandle[]>();
  const forks = new Map<string, SpanHandle>();
  const open = new Set<SpanHandle>();
  const start = (name: string, attributes: Attributes, parent: SpanHandle | undefined, at?: number) => {
    const span = port.startSpan(name, attributes, parent, at);
    open.add(span);
    return span;
  };
  const end = (span: SpanHandle | undefined, at?: number, error?: string) => {
    if (span === undefined || !open.has(span)) return;
    open.delete(span);
    span.end(at, error);
  };
  return {
    event(event: AgentEvent) {
      const agent = event.agentId ?? MAIN;
      switch (event.type) {
        case "request_start": {
          end(requests.get(agent));
          requests.set(
            agent,
            start(
              SPAN_NAMES.request,
              { "gen_ai.request.model": event.model, "agent.id": agent },
              agentSpan.get(agent) ?? turn,
            ),
          );
          port.count(COUNTER_NAMES.requests, 1, { model: event.model });
          return;
        }
        case "turn_end": {
          const span = requests.get(agent);
          span?.set({
            "gen_ai.usage.input_tokens": event.usage.input_tokens,
            "gen_ai.usage.output_tokens": event.usage.output_tokens,
            "gen_ai.usage.cache_read_input_tokens": event.usage.cache_read_input_tokens,
            "gen_ai.response.finish_reason": event.stopReason,
          });
          end(span);
          requests.delete(agent);
          return;
        }
        case "skill_invoked": {
          const trigger = event.trigger ?? "model";
          const span = start(
            SPAN_NAMES.skill,
            {
              "skill.name": event.name,
              "skill.source": event.source ?? "unknown",
              "skill.trigger": trigger,
              "skill.mode": event.mode,
              "skill.expansion_tokens": Math.ceil((event.expansionChars ?? 0) / ESTIMATE_CHARS_PER_TOKEN),
              "agent.id": agent,
            },
            turn,
          );
          skills.set(agent, [...(skills.get(agent) ?? []), span]);
          port.count(COUNTER_NAMES.invocations, 1, { skill: event.name, trigger, mode: event.mode });
          return;
        }
        case "fork_start": {
          const parentSkills = skills.get(event.parentAgentId ?? MAIN) ?? [];
          const span = start(
            SPAN_NAMES.fork,
            {
              "skill.name": event.skill,
              "fork.agent_type": event.agentType,
              "agent.id": event.agentId,
              "gen_ai.request.model": event.model,
            },
            parentSkills.at(-1) ?? turn,
          );
          forks.set(event.agentId, span);
          agentSpan.set(event.agentId, span);
          return;
        }
        case "fork_end": {
          end(requests.get(event.agentId));
          end(
            forks.get(event.agentId),
            undefined,
            event.result.cause === "error" ? (event.result.error?.message ?? "error") : undefined,
          );
          return;
        }
        case "listing_sent":
          for (const [visibility, value] of [
            ["full", event.full],
            ["cut", event.cut],
            ["name-only", event.nameOnly],
            ["omitted", event.omitted],
          ] as const) {
            if (value > 0) port.count(COUNTER_NAMES.listing, value, { visibility, "agent.id": agent });
          }
          return;
        case "tool_start":
          if (event.name === "SkillSearch") port.count(COUNTER_NAMES.searches, 1, {});
          return;
        case "tool_end": {
          if (event.name !== "Skill") return;
          const stack = skills.get(agent) ?? [];
          end(stack.shift(), undefined, event.result.isError ? "the skill call failed" : undefined);
          return;
        }
        case "hook_run": {
          const span = start(
            SPAN_NAMES.hook,
            { "hook.event": event.event, "hook.count": event.count, "hook.blocked": event.blocked },
            agentSpan.get(agent) ?? turn,
            event.startedAt,
          );
          end(span, event.endedAt);
          return;
        }
        default:
          return;
      }
    },
    end(error) {
      // Spans still open (a user's /skill with no Skill call, an aborted request) end with the turn.
      for (const span of [...open]) end(span);
      turn.end(undefined, error);
    },
  };
}
