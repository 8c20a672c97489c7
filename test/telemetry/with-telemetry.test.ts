import { describe, expect, it } from "vitest";
import { type AgentEvent, emptyUsage } from "../../src/agent/events.js";
import type { Session } from "../../src/session/session-types.js";
import type { Telemetry, TurnInfo } from "../../src/telemetry/telemetry.js";
import { contextGauges } from "../../src/telemetry/turn-tracker.js";
import { withTelemetry } from "../../src/telemetry/with-telemetry.js";

/** A turn's events: one model request, then its end (an error when `failed`). */
async function* turnEvents(failed = false): AsyncGenerator<AgentEvent> {
  yield { type: "request_start", turn: 1, model: "m" };
  yield {
    type: "done",
    result: {
      text: "",
      cause: failed ? "error" : "end_turn",
      turns: 1,
      usage: emptyUsage(),
      toolsUsed: [],
      ...(failed ? { error: { kind: "api", message: "boom" } } : {}),
    },
  };
}

/** A telemetry that records each turn: what started it, the events it was told, how it ended. */
function recordingTelemetry() {
  const turns: { info: TurnInfo; events: string[]; ended?: { error: string | undefined } }[] = [];
  const telemetry: Telemetry = {
    turn(info) {
      const turn: (typeof turns)[number] = { info, events: [] };
      turns.push(turn);
      return {
        event: (event) => turn.events.push(event.type),
        end: (error) => {
          turn.ended = { error };
        },
      };
    },
    shutdown: async () => {},
  };
  return { telemetry, turns };
}

describe("withTelemetry", () => {
  it("traces each send and each drainBackground as a turn, ended with its error when it failed", async () => {
    const session = {
      id: "s1",
      send: () => turnEvents(),
      drainBackground: () => turnEvents(true),
    } as unknown as Session;
    const { telemetry, turns } = recordingTelemetry();
    const traced = withTelemetry(session, telemetry, "claude-x", { shutdownOnClose: false });
    const seen: string[] = [];
    for await (const event of traced.send("hello")) seen.push(event.type);
    for await (const event of traced.drainBackground()) seen.push(event.type);
    // The events pass unchanged.
    expect(seen).toEqual(["request_start", "done", "request_start", "done"]);
    expect(turns).toEqual([
      {
        info: { sessionId: "s1", prompt: "hello", model: "claude-x" },
        events: ["request_start", "done"],
        ended: { error: undefined },
      },
      {
        info: { sessionId: "s1", prompt: "", model: "claude-x" },
        events: ["request_start", "done"],
        ended: { error: "boom" },
      },
    ]);
  });

  it("after each turn, gives the telemetry the session's per-skill context usage", async () => {
    const usage = {
      skills: [
        {
          name: "greet",
          listing: 5,
          expansions: 12,
          reattached: 0,
          expiredStubs: 0,
          forks: 0,
          mainTotal: 17,
        },
      ],
      total: { listing: 5, expansions: 12, reattached: 0, expiredStubs: 0, forks: 0, mainTotal: 17 },
    };
    const session = {
      id: "s1",
      send: () => turnEvents(),
      contextUsage: async () => usage,
    } as unknown as Session;
    const { telemetry } = recordingTelemetry();
    const recorded: unknown[] = [];
    const traced = withTelemetry(
      session,
      { ...telemetry, contextUsage: (sessionId, u) => recorded.push({ sessionId, u }) },
      "claude-x",
      { shutdownOnClose: false },
    );
    for await (const _ of traced.send("hello")) {
      // every event
    }
    expect(recorded).toEqual([{ sessionId: "s1", u: usage }]);
    expect(contextGauges("s1", usage)).toEqual([
      { value: 5, attributes: { "session.id": "s1", "skill.name": "greet", "context.part": "listing" } },
      { value: 12, attributes: { "session.id": "s1", "skill.name": "greet", "context.part": "expansions" } },
    ]);
  });

  it("sets back to 0 a context gauge whose part the session no longer has", () => {
    const greet = { name: "greet", listing: 5, expansions: 12, reattached: 0, expiredStubs: 0, forks: 0 };
    const before = contextGauges("s1", {
      skills: [{ ...greet, mainTotal: 17 }],
      total: { ...greet, mainTotal: 17 },
    });
    // The expansion was compacted away and re-attached: expansions 0, reattached 14.
    const after = { ...greet, expansions: 0, reattached: 14 };
    const attributes = (part: string) => ({
      "session.id": "s1",
      "skill.name": "greet",
      "context.part": part,
    });
    expect(
      contextGauges(
        "s1",
        { skills: [{ ...after, mainTotal: 19 }], total: { ...after, mainTotal: 19 } },
        before,
      ),
    ).toEqual([
      { value: 5, attributes: attributes("listing") },
      { value: 14, attributes: attributes("reattached") },
      { value: 0, attributes: attributes("expansions") },
    ]);
    // A part already at 0 is not set again.
    expect(contextGauges("s1", { skills: [], total: { ...after, mainTotal: 0 } }, [])).toEqual([]);
  });
});
