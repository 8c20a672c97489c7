/**
 * Audit of SPEC §12 "MCP servers from `.mcp.json`": the project's own `.mcp.json` (not a `--mcp-config`, not a
 * plugin) had only a `loadMcpConfigs` unit test; here an engine whose cwd is below the git root picks it up
 * and the session offers its tools and its prompt as a user command.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createEngine, type Engine } from "../../src/engine/engine.js";
import { openSession } from "../../src/session/open.js";
import { SERVER_SCRIPT } from "../mcp/support.js";
import { sendOn } from "../support/harness.js";
import { startTestModel, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree | undefined;
let model: TestModel | undefined;
let engine: Engine | undefined;
afterEach(async () => {
  await engine?.close();
  await model?.close();
  await tree?.cleanup();
  engine = undefined;
  model = undefined;
  tree = undefined;
});

describe("the project's .mcp.json (SPEC §12)", () => {
  it("is read from the project dir (git root) even when the cwd is below it; its tools reach the model", async () => {
    tree = await tmpTree({
      // The user approved the project's server (issue 16.1: a project's .mcp.json needs approval).
      "home/.claude/settings.json": JSON.stringify({ enabledMcpjsonServers: ["tst"] }),
      "project/.git": { dir: true },
      "project/pkg/.keep": "",
      "project/.mcp.json": JSON.stringify({
        mcpServers: { tst: { command: process.execPath, args: [SERVER_SCRIPT] } },
      }),
    });
    model = await startTestModel([
      toolTurn("mcp__tst__add", { a: 1, b: 2 }),
      textTurn("3", { hasToolResultFor: "mcp__tst__add" }),
    ]);
    engine = createEngine({
      cwd: tree.path("project/pkg"),
      home: tree.path("home"),
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", SKILLWRIGHT_MANAGED_DIR: tree.path("managed") },
    });
    const opened = await openSession(engine, { client: model.client });
    expect(opened.tools).toContain("mcp__tst__add");
    await sendOn(opened, "add");
    const second = model.server.requests[1]?.body as { messages: { content: unknown }[] };
    expect(JSON.stringify(second.messages.at(-1)?.content)).toContain('"text":"3"');
    const { skills } = await engine.discover();
    expect(skills.some((s) => s.name.startsWith("mcp__tst__") && s.source === "mcp")).toBe(true);
  });
});
