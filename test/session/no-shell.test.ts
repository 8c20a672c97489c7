import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agent/events.js";
import { createEngine } from "../../src/engine/engine.js";
import { createMemoryFs } from "../../src/io/memory-fs.js";
import { NO_SHELL_GIVEN } from "../../src/io/no-shell.js";
import { createNodeShell } from "../../src/io/shell.js";
import { openSession } from "../../src/session/open.js";
import { createMemorySource } from "../../src/sources/memory-source.js";
import { startTestModel, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

// Capabilities are given, never found: a library session handed a memory file system and no shell starts no
// process and writes nothing to the host's disk, and says why; handed the host's shell, the same skill runs.

let tree: TmpTree | undefined;
let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  await tree?.cleanup();
});

async function run(withShell: boolean) {
  tree = await tmpTree({ "marks/.keep": "", "home/.keep": "" });
  const marks = tree.path("marks");
  model = await startTestModel([
    toolTurn("Skill", { skill: "shelly" }, { match: { lastUserTextIncludes: "go" } }),
    toolTurn("Skill", { skill: "plain" }, { match: { lastUserTextIncludes: "SHELLY-BODY" } }),
    textTurn("done"),
  ]);
  const skills = createMemorySource({
    skills: [
      {
        name: "shelly",
        description: "Runs shell and registers a hook",
        body: `SHELLY-BODY !\`touch ${marks}/inline; echo INLINE-RAN\``,
        frontmatter: {
          "allowed-tools": "Bash",
          hooks: {
            PreToolUse: [{ matcher: "Skill", hooks: [{ type: "command", command: `touch ${marks}/hook` }] }],
          },
        },
      },
      { name: "plain", description: "Plain", body: "PLAIN-BODY" },
    ],
  });
  // The cwd exists on the host too, so a shell handed in has somewhere to run.
  const engine = createEngine({
    cwd: marks,
    home: tree.path("home"),
    fs: createMemoryFs(),
    sources: [skills],
  });
  const { session, tools } = await openSession(engine, {
    client: model.client,
    ...(withShell ? { shell: createNodeShell() } : {}),
  });
  const events: AgentEvent[] = [];
  for await (const event of session.send("go")) events.push(event);
  await session.close();
  await engine.close();
  return { marks, tools, events, home: tree.path("home") };
}

describe("a library session over a memory file system", () => {
  it("without a shell: no Bash tool, inline shell refused with the reason, hooks not registered, nothing on disk", async () => {
    const { marks, tools, events, home } = await run(false);
    expect(tools).not.toContain("Bash");
    const first = events.find((e) => e.type === "tool_end");
    expect(first?.type === "tool_end" ? first.result.content[0] : undefined).toMatchObject({
      text: expect.stringContaining(`Shell command not run for pattern`),
    });
    expect(JSON.stringify(events)).toContain(NO_SHELL_GIVEN);
    expect(existsSync(`${marks}/inline`)).toBe(false);
    expect(existsSync(`${marks}/hook`)).toBe(false);
    // Transcripts stayed in memory: nothing under the real home.
    expect(existsSync(`${home}/.skillwright`)).toBe(false);
  });

  it("with the host's shell: the same skill's inline shell and hook run", async () => {
    const { marks, tools } = await run(true);
    expect(tools).toContain("Bash");
    expect(existsSync(`${marks}/inline`)).toBe(true);
    expect(existsSync(`${marks}/hook`)).toBe(true);
  });
});
