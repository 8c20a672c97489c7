import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agent/events.js";
import { createEngine } from "../../src/engine/engine.js";
import { createMemoryFs } from "../../src/io/memory-fs.js";
import { createNoShell } from "../../src/io/no-shell.js";
import { createNoSandbox } from "../../src/sandbox/no-sandbox.js";
import { createSimulatedSandbox, type SimulatedSandbox } from "../../src/sandbox/simulated-sandbox.js";
import { openSession } from "../../src/session/open.js";
import { createMemorySource } from "../../src/sources/memory-source.js";
import { createBuiltinTools } from "../../src/tools/builtin.js";
import { startTestModel, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

// A library session handed a sandbox runs its Bash, a skill's inline shell and its command hooks there: in the
// simulated tier, over the session's memory file system, and nothing reaches the host.

let tree: TmpTree | undefined;
let model: TestModel | undefined;
let sandbox: SimulatedSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  await model?.close();
  await tree?.cleanup();
});

describe("openSession({ sandbox })", () => {
  it("runs Bash, inline shell and hooks in the sandbox, over its file system, nothing on the host", {
    timeout: 120_000,
  }, async () => {
    tree = await tmpTree({ "marks/.keep": "", "home/.keep": "" });
    const marks = tree.path("marks");
    model = await startTestModel([
      toolTurn("Skill", { skill: "shelly" }),
      toolTurn("Bash", {
        command: "python3 -c 'print(6 * 7)' > /work/answer.txt; cat /work/inline.txt; hostname",
      }),
      textTurn("done"),
    ]);
    const skills = createMemorySource({
      skills: [
        {
          name: "shelly",
          description: "Runs shell and registers a hook",
          body: `SHELLY-BODY !\`echo inline > /work/inline.txt; touch ${marks}/inline; echo INLINE-RAN\``,
          frontmatter: {
            "allowed-tools": "Bash",
            hooks: {
              PreToolUse: [
                {
                  matcher: "Bash",
                  hooks: [{ type: "command", command: `echo hook >> /work/hook.txt; touch ${marks}/hook` }],
                },
              ],
            },
          },
        },
      ],
    });
    const fs = createMemoryFs({ "/work/.keep": "" });
    sandbox = createSimulatedSandbox({ fs });
    const engine = createEngine({
      cwd: "/work",
      home: tree.path("home"),
      fs: createMemoryFs(),
      sources: [skills],
    });
    const { session, tools } = await openSession(engine, { client: model.client, sandbox });
    const events: AgentEvent[] = [];
    for await (const event of session.send("go")) events.push(event);
    await session.close();
    await engine.close();

    expect(tools).toContain("Bash");
    expect(JSON.stringify(events)).toContain("INLINE-RAN");
    const bash = events.find((e) => e.type === "tool_end" && e.name === "Bash");
    expect(JSON.stringify(bash)).toContain("inline\\nsandbox");
    expect(await fs.readFile("/work/answer.txt")).toBe("42\n");
    expect(await fs.readFile("/work/hook.txt")).toBe("hook\n");
    expect(existsSync(`${marks}/inline`)).toBe(false);
    expect(existsSync(`${marks}/hook`)).toBe(false);
  });

  it("offers no Bash in a sandbox of tier none; a refusing shell handed in alone keeps a Bash that refuses", async () => {
    const test = await startTestModel([]);
    model = test;
    const engine = createEngine({ cwd: "/work", home: "/home", fs: createMemoryFs() });
    const toolsOf = async (options: Omit<Parameters<typeof openSession>[1], "client">) => {
      const opened = await openSession(engine, { client: test.client, ...options });
      await opened.session.close();
      return opened.tools;
    };
    const fs = createMemoryFs({ "/work/.keep": "" });
    expect(
      await toolsOf({ sandbox: createNoSandbox({ fs, reason: "this sandbox runs nothing" }) }),
    ).not.toContain("Bash");
    expect(await toolsOf({ shell: createNoShell("the OS sandbox needs bubblewrap") })).toContain("Bash");
    expect(createBuiltinTools({ fs }).map((tool) => tool.name)).not.toContain("Bash");
    await engine.close();
  });
});
