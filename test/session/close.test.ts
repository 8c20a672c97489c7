import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agent/events.js";
import { abortWaitingTool } from "../support/abort-waiting-tool.js";
import { type Harness, startHarness } from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";

// Closing a session stops the turn it is running: the turn's signal aborts, so a tool waiting on it returns and
// the turn's stream ends, instead of running on after its session is gone.

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("Session.close", () => {
  it("aborts the running turn's signal: a waiting tool returns and the turn's events end", async () => {
    const { tool: wait, running } = abortWaitingTool("Wait");
    h = await startHarness({
      turns: [toolTurn("Wait", {}, { match: { lastUserTextIncludes: "wait" } }), textTurn("never reached")],
      session: { extraTools: [wait] },
    });
    const session = h.opened.session;
    const events: AgentEvent[] = [];
    const turn = (async () => {
      for await (const event of session.send("wait for it")) events.push(event);
    })();
    const signal = await running;
    expect(signal.aborted).toBe(false);
    await session.close();
    expect(signal.aborted).toBe(true);
    await turn;
    // The model was asked once: the stopped turn made no request after the tool returned.
    expect(h.bodies()).toHaveLength(1);
    expect(events.some((e) => e.type === "tool_start")).toBe(true);
  });
});
