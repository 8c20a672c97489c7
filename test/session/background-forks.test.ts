import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agent/events.js";
import type { AgentTool } from "../../src/agent/loop.js";
import {
  type Harness,
  plainBlocks,
  type RequestBody,
  skillMd,
  startHarness,
  textBlocks,
} from "../support/harness.js";
import { textTurn, toolTurn } from "../support/model-server.js";
import { waitUntil } from "../support/processes.js";

// Background forks for library users (issue #27 item 7): a fork still running when the main agent's turn ends
// brings its answer into the next user turn's first request, once; its events and a `background_result` event
// reach the library in the next stream; aborting the turn that started it ends it.

/** A read-only tool that holds until `release()` is called or its call's signal aborts. */
function gateTool(): { tool: AgentTool; release: () => void; entered: Promise<AbortSignal> } {
  let release = () => {};
  let enter: (signal: AbortSignal) => void = () => {};
  const opened = new Promise<void>((resolve) => {
    release = resolve;
  });
  const entered = new Promise<AbortSignal>((resolve) => {
    enter = resolve;
  });
  const tool: AgentTool = {
    name: "Gate",
    description: "Waits for the test.",
    inputSchema: { type: "object" },
    readOnly: true,
    subject: () => undefined,
    run: async (_input, ctx) => {
      enter(ctx.signal);
      const aborted = new Promise<string>((resolve) =>
        ctx.signal.addEventListener("abort", () => resolve("aborted"), { once: true }),
      );
      const text = await Promise.race([opened.then(() => "opened"), aborted]);
      return { content: [{ type: "text", text }], isError: false, touchedPaths: [] };
    },
  };
  return { tool, release, entered };
}

const FILES = {
  "project/.claude/skills/survey/SKILL.md": skillMd(
    "description: Surveys\ncontext: fork\nbackground: true",
    "SURVEY-TASK",
  ),
};

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function collect(stream: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function userTexts(body: RequestBody): string[] {
  return body.messages.filter((m) => m.role === "user").flatMap((m) => textBlocks(m.content));
}

describe("background forks (library)", () => {
  it("an answer ready after the turn ended opens the next user turn's first request, once", async () => {
    const gate = gateTool();
    h = await startHarness({
      files: FILES,
      turns: [
        toolTurn("Skill", { skill: "survey" }, { match: { agentId: null, lastUserTextIncludes: "first" } }),
        toolTurn("Gate", {}, { match: { agentId: "*", lastUserTextIncludes: "SURVEY-TASK" } }),
        textTurn("Started.", { agentId: null, hasToolResultFor: "Skill" }),
        textTurn("LATE-ANSWER", { agentId: "*", hasToolResultFor: "Gate" }),
        textTurn("Second reply.", { agentId: null, lastUserTextIncludes: "second" }),
        textTurn("Third reply.", { agentId: null, lastUserTextIncludes: "third" }),
      ],
      session: { extraTools: [gate.tool] },
      // The user says yes to the project skill (the fork itself is asked nothing: it runs in the background).
      askPermission: async () => true,
    });
    const session = h.opened.session;
    const first = await collect(session.send("first"));
    await gate.entered;
    const start = first.find((e) => e.type === "fork_start");
    expect(start).toMatchObject({ type: "fork_start", skill: "survey", background: true });
    expect(first.some((e) => e.type === "background_result")).toBe(false);
    expect(session.backgroundRunning()).toBe(1);
    const handle = start?.type === "fork_start" ? start.agentId : "";

    gate.release();
    expect(await waitUntil(() => session.backgroundRunning() === 0, 20_000)).toBe(true);
    const second = await collect(session.send("second"));
    // What the fork did between the turns comes first in the next stream, then its answer as an event.
    const result = second.find((e) => e.type === "background_result");
    expect(result).toMatchObject({ agentId: handle, skill: "survey", ok: true });
    expect(second.findIndex((e) => e.type === "fork_end")).toBeLessThan(
      second.findIndex((e) => e.type === "request_start" && e.agentId === undefined),
    );
    await collect(session.send("third"));

    const bodies = h.bodies();
    expect(bodies).toHaveLength(4);
    const reminder = `<system-reminder>The background fork ${handle} finished.\n\n<tools-used-before-summary>Gate</tools-used-before-summary>\nSkill "survey" completed (forked execution).\n\nResult:\nLATE-ANSWER</system-reminder>`;
    // Turn 2's first request: the answer is in its new user message, among the reminders before the prompt.
    const secondFirst = bodies[2] as RequestBody;
    const opening = textBlocks(secondFirst.messages.at(-1)?.content ?? []);
    expect(opening.indexOf(reminder)).toBeGreaterThanOrEqual(0);
    expect(opening.indexOf(reminder)).toBeLessThan(opening.indexOf("second"));
    // Appended: the request before it is a prefix of it.
    const before = bodies[1] as RequestBody;
    expect(secondFirst.messages.slice(0, before.messages.length).map((m) => plainBlocks(m.content))).toEqual(
      before.messages.map((m) => plainBlocks(m.content)),
    );
    expect(secondFirst.system).toEqual(before.system);
    expect(secondFirst.tools).toEqual(before.tools);
    // Not in any earlier request, and once in every later one.
    expect(userTexts(bodies[1] as RequestBody).filter((t) => t.includes("LATE-ANSWER"))).toEqual([]);
    for (const body of bodies.slice(2)) expect(userTexts(body).filter((t) => t === reminder)).toHaveLength(1);
  });

  it("aborting the turn that started it ends the background fork; its answer says so", async () => {
    const gate = gateTool();
    h = await startHarness({
      files: FILES,
      turns: [
        toolTurn("Skill", { skill: "survey" }, { match: { agentId: null, lastUserTextIncludes: "first" } }),
        toolTurn("Gate", {}, { match: { agentId: "*", lastUserTextIncludes: "SURVEY-TASK" } }),
        textTurn("Started.", { agentId: null, hasToolResultFor: "Skill" }),
        textTurn("After.", { agentId: null, lastUserTextIncludes: "next" }),
      ],
      session: { extraTools: [gate.tool] },
      // The user says yes to the project skill (the fork itself is asked nothing: it runs in the background).
      askPermission: async () => true,
    });
    const session = h.opened.session;
    const controller = new AbortController();
    await collect(session.send("first", { signal: controller.signal }));
    const signal = await gate.entered;
    expect(signal.aborted).toBe(false);
    controller.abort();
    expect(signal.aborted).toBe(true);
    expect(await waitUntil(() => session.backgroundRunning() === 0, 20_000)).toBe(true);
    const next = await collect(session.send("next"));
    expect(next.find((e) => e.type === "background_result")).toMatchObject({
      ok: false,
      text: 'Skill "survey" was aborted (forked execution).',
    });
    // The fork made no request after its tool call was stopped.
    expect(h.forkRequests()).toHaveLength(1);
  });

  it("closing the session ends a background fork, and close waits for it", async () => {
    const gate = gateTool();
    h = await startHarness({
      files: FILES,
      turns: [
        toolTurn("Skill", { skill: "survey" }, { match: { agentId: null, lastUserTextIncludes: "first" } }),
        toolTurn("Gate", {}, { match: { agentId: "*", lastUserTextIncludes: "SURVEY-TASK" } }),
        textTurn("Started.", { agentId: null, hasToolResultFor: "Skill" }),
      ],
      session: { extraTools: [gate.tool] },
      askPermission: async () => true,
    });
    const session = h.opened.session;
    await collect(session.send("first"));
    const signal = await gate.entered;
    expect(session.backgroundRunning()).toBe(1);
    await session.close();
    expect(signal.aborted).toBe(true);
    expect(session.backgroundRunning()).toBe(0);
    expect(h.forkRequests()).toHaveLength(1);
  });

  it("drainBackground runs no turn when no background fork ran", async () => {
    h = await startHarness({ files: FILES, turns: [textTurn("Hi.")] });
    await collect(h.opened.session.send("hello"));
    expect(await collect(h.opened.session.drainBackground())).toEqual([]);
    expect(h.bodies()).toHaveLength(1);
  });

  it("a fork's own call of a background skill runs in the foreground (its conversation ends with its answer)", async () => {
    h = await startHarness({
      files: {
        ...FILES,
        "project/.claude/skills/outer/SKILL.md": skillMd("description: Outer\ncontext: fork", "OUTER-TASK"),
      },
      turns: [
        toolTurn("Skill", { skill: "outer" }, { match: { agentId: null, lastUserTextIncludes: "first" } }),
        toolTurn(
          "Skill",
          { skill: "survey" },
          { match: { agentId: "*", lastUserTextIncludes: "OUTER-TASK" } },
        ),
        textTurn("INNER-ANSWER", { agentId: "*", lastUserTextIncludes: "SURVEY-TASK" }),
        textTurn("OUTER-ANSWER", { agentId: "*", hasToolResultFor: "Skill" }),
        textTurn("Done.", { agentId: null, hasToolResultFor: "Skill" }),
      ],
      askPermission: async () => true,
    });
    const events = await collect(h.opened.session.send("first"));
    expect(events.filter((e) => e.type === "fork_start").map((e) => "background" in e)).toEqual([
      false,
      false,
    ]);
    expect(h.opened.session.backgroundRunning()).toBe(0);
    const outerLast = h.forkRequests().at(-1)?.body as RequestBody;
    const results = outerLast.messages.at(-1)?.content;
    expect(JSON.stringify(results)).toContain('Skill \\"survey\\" completed (forked execution).');
  });
});
