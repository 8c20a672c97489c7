import { describe, expect, it } from "vitest";
import { createModelClient } from "../src/agent/model-client.js";
import type { ModelMessage } from "../src/agent/model-types.js";
import { childContext, type RunContext } from "../src/context.js";
import { createHookRegistry } from "../src/hooks/registry.js";
import { createNodeFs } from "../src/io/fs.js";
import { createNodeShell } from "../src/io/shell.js";
import { createSkillView } from "../src/session/view.js";
import { createReadTool } from "../src/tools/read.js";

/** A session's root context, with a transcript sink that records what it was given. */
function rootContext(controller = new AbortController()) {
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
    client: createModelClient({ apiKey: "sk-test", baseURL: "http://127.0.0.1:9" }),
    model: "sonnet",
    effort: "low",
    skills: createSkillView({ cwd: "/repo", skills: [] }),
    agents: () => [],
    tools: [createReadTool({ fs })],
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
