import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../src/agent/events.js";
import type { AgentTool } from "../src/agent/loop.js";
import { createModelClient, type ModelClient } from "../src/agent/model-client.js";
import type { ModelMessage } from "../src/agent/model-types.js";
import { BUILTIN_AGENTS } from "../src/agent-types/agent-types.js";
import { childContext, type RunContext } from "../src/context.js";
import { type ForkDeps, runFork } from "../src/fork/fork.js";
import type { ForkOutcome } from "../src/fork/fork-request.js";
import { createHookRegistry } from "../src/hooks/registry.js";
import { createHooksRunner } from "../src/hooks/runner.js";
import { createNodeFs } from "../src/io/fs.js";
import { createNodeShell } from "../src/io/shell.js";
import { createSkillView } from "../src/session/view.js";
import { createSkillTool } from "../src/skill-tool/skill-tool.js";
import { createReadTool } from "../src/tools/read.js";
import { abortWaitingTool } from "./support/abort-waiting-tool.js";
import { makeSkill } from "./support/make-skill.js";
import { startTestModel, type TestModel, textTurn, toolTurn } from "./support/model-server.js";

/** A session's root context, with a transcript sink that records what it was given. */
function rootContext(
  controller = new AbortController(),
  client: ModelClient = createModelClient({ apiKey: "sk-test", baseURL: "http://127.0.0.1:9" }),
  tools: AgentTool[] = [],
) {
  const written: { message: ModelMessage; agentId?: string }[] = [];
  const fs = createNodeFs();
  const context: RunContext = {
    sessionId: "s-1",
    cwd: "/repo",
    projectDir: "/repo",
    home: "/home/u",
    env: {},
    fs,
    shell: createNodeShell(),
    client,
    model: "sonnet",
    effort: "low",
    skills: createSkillView({ cwd: "/repo", skills: [] }),
    agents: BUILTIN_AGENTS,
    tools: [createReadTool({ fs }), ...tools],
    rules: { allow: [], deny: [], ask: [], additionalDirectories: [] },
    hooks: createHookRegistry(),
    signal: controller.signal,
    transcript: async (message, agentId) => {
      written.push(agentId === undefined ? { message } : { message, agentId });
    },
    depth: 0,
    now: () => 0,
  };
  return { context, written, controller };
}

const hello: ModelMessage = { role: "user", content: "hello" };

describe("childContext: a fork is a narrowed copy of its parent (STYLE §7)", () => {
  it("goes one level deeper under its own agent id, and keeps the parent's I/O, catalog, rules and hooks", () => {
    const { context } = rootContext();
    const child = childContext(context, { agentId: "fork-1" });
    expect(child.depth).toBe(1);
    expect(child.agentId).toBe("fork-1");
    expect(childContext(child, { agentId: "fork-2" }).depth).toBe(2);
    for (const key of [
      "sessionId",
      "cwd",
      "fs",
      "shell",
      "client",
      "skills",
      "rules",
      "hooks",
      "tools",
    ] as const)
      expect(child[key]).toBe(context[key]);
    expect(context.depth).toBe(0);
    expect(context.agentId).toBeUndefined();
  });

  it("tags what it writes to the transcript with its agent id; the parent's own writes stay untagged", async () => {
    const { context, written } = rootContext();
    const child = childContext(context, { agentId: "fork-1" });
    await child.transcript(hello);
    await context.transcript(hello);
    await childContext(child, { agentId: "fork-2" }).transcript(hello);
    expect(written).toEqual([
      { message: hello, agentId: "fork-1" },
      { message: hello },
      { message: hello, agentId: "fork-2" },
    ]);
  });

  it("keeps the parent's askPermission, unless it is a noAsk child (a background fork), and then its children too", () => {
    const { context } = rootContext();
    const ask = async () => true;
    const asking: RunContext = { ...context, askPermission: ask };
    expect(childContext(asking, { agentId: "fork-1" }).askPermission).toBe(ask);
    const quiet = childContext(asking, { agentId: "fork-2", noAsk: true });
    expect(quiet.askPermission).toBeUndefined();
    expect(childContext(quiet, { agentId: "fork-3" }).askPermission).toBeUndefined();
  });

  it("is aborted by its parent's signal and by its own, and its own does not abort the parent", () => {
    const parent = rootContext();
    const own = new AbortController();
    const child = childContext(parent.context, { agentId: "fork-1", signal: own.signal });
    own.abort();
    expect(child.signal.aborted).toBe(true);
    expect(parent.context.signal.aborted).toBe(false);

    const second = rootContext();
    const other = childContext(second.context, { agentId: "fork-2", signal: new AbortController().signal });
    expect(other.signal.aborted).toBe(false);
    second.controller.abort();
    expect(other.signal.aborted).toBe(true);
  });

  it("takes the model, effort and tools it is given, else the parent's", () => {
    const { context } = rootContext();
    const inherited = childContext(context, { agentId: "fork-1" });
    expect([inherited.model, inherited.effort]).toEqual(["sonnet", "low"]);
    const narrowed = childContext(context, { agentId: "fork-2", model: "haiku", effort: "high", tools: [] });
    expect([narrowed.model, narrowed.effort, narrowed.tools]).toEqual(["haiku", "high", []]);
    expect(context.model).toBe("sonnet");
  });
});

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

describe("a fork-of-fork derives each context from its real caller", () => {
  it("skill A forks, its sub-agent calls skill B which forks: depths 1 and 2, and aborting A aborts B, not the root", async () => {
    model = await startTestModel([
      toolTurn(
        "Skill",
        { skill: "inner" },
        { match: { agentId: "fork-1", lastUserTextIncludes: "MIDDLE-TASK" } },
      ),
      toolTurn("Probe", {}, { match: { agentId: "fork-2", lastUserTextIncludes: "INNER-TASK" } }),
      textTurn("never reached", { agentId: "*" }),
    ]);
    // The inner fork's Probe call says it is running, then holds until its signal aborts.
    const { tool: probe, running: probed } = abortWaitingTool("Probe");
    const root = rootContext(new AbortController(), model.client, [probe]);
    const inner = makeSkill({ name: "inner", context: "fork", body: "INNER-TASK" });
    const middle = makeSkill({ name: "middle", context: "fork", body: "MIDDLE-TASK" });
    const events: AgentEvent[] = [];
    // Each fork asks for its Skill tool with its own context: the contexts the fork path built, in order.
    const contexts: RunContext[] = [];
    const innerOutcomes: ForkOutcome[] = [];
    let agents = 0;
    const deps = (caller: RunContext): ForkDeps => ({
      context: caller,
      tools: root.context.tools,
      skillTool: (context) => {
        contexts.push(context);
        return createSkillTool({
          skills: () => [inner],
          pluginSkillNames: () => [],
          depth: context.depth,
          ...(context.agentId === undefined ? {} : { agentId: context.agentId }),
          invoke: async (request) => {
            const outcome = await runFork(
              {
                ...request,
                name: "inner",
                task: "INNER-TASK",
                signal: request.signal,
                sessionModel: "sonnet",
              },
              deps(context),
            );
            innerOutcomes.push(outcome);
            return { kind: "fork", outcome };
          },
        });
      },
      gate: { before: async () => ({ behavior: "allow" }) },
      runHooks: createHooksRunner(
        root.context.hooks,
        { shell: root.context.shell, sessionId: "s-1", cwd: "/repo" },
        () => {},
      ),
      emit: (event) => events.push(event),
      listing: async () => [],
      maxTokens: 1024,
      newAgentId: () => `fork-${++agents}`,
    });
    const own = new AbortController();
    const running = runFork(
      {
        skill: middle,
        name: "middle",
        args: "",
        task: "MIDDLE-TASK",
        signal: own.signal,
        depth: 0,
        sessionModel: "sonnet",
      },
      deps(root.context),
    );

    const innerSignal = await probed;
    const [middleContext, innerContext] = contexts;
    expect(contexts.map((c) => [c.depth, c.agentId])).toEqual([
      [1, "fork-1"],
      [2, "fork-2"],
    ]);
    expect(events.filter((e) => e.type === "fork_start")).toEqual([
      expect.objectContaining({ agentId: "fork-1", skill: "middle" }),
      expect.objectContaining({ agentId: "fork-2", parentAgentId: "fork-1", skill: "inner" }),
    ]);
    // The inner fork's transcript goes through the middle one's to the root's sink, under its own id.
    expect(root.written.filter((w) => w.agentId === "fork-2").length).toBeGreaterThan(0);
    expect(innerSignal.aborted).toBe(false);

    own.abort();
    expect(middleContext?.signal.aborted).toBe(true);
    expect(innerContext?.signal.aborted).toBe(true);
    expect(innerSignal.aborted).toBe(true);
    expect(root.context.signal.aborted).toBe(false);
    expect(await running).toEqual({ ok: false, text: 'Skill "middle" was aborted (forked execution).' });
    expect(innerOutcomes).toEqual([{ ok: false, text: 'Skill "inner" was aborted (forked execution).' }]);
  });
});
