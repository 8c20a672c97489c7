/**
 * Approvals pinned to content in the interactive mode: the user's yes records the approval (no question the
 * next time), and a skill that gained a capability is asked about again, the question naming what it gained.
 */
import { readFile, writeFile } from "node:fs/promises";
import { PassThrough } from "node:stream";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseCliArgs } from "../../src/cli/args.js";
import { interactiveCommand } from "../../src/cli/interactive.js";
import type { CliIo } from "../../src/cli/io.js";
import { createEngine } from "../../src/engine/engine.js";
import { skillMd } from "../support/harness.js";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

const SKILL = "repo/.claude/skills/deploy/SKILL.md";

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({
    "home/.keep": "",
    "repo/.git": { dir: true },
    [SKILL]: skillMd("description: Deploys\nallowed-tools: Read", "DEPLOY-BODY"),
  });
});
afterAll(() => tree.cleanup());

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

describe("interactive approvals", () => {
  it("a yes is recorded; a gained capability is asked about again, naming it", async () => {
    model = await startTestModel([
      toolTurn("Skill", { skill: "deploy" }),
      textTurn("first-done"),
      toolTurn("Skill", { skill: "deploy" }),
      textTurn("second-done"),
      toolTurn("Skill", { skill: "deploy" }),
      textTurn("third-done"),
    ]);
    let stdout = "";
    const waiters: Array<() => void> = [];
    const io: CliIo = {
      stdout: (text) => {
        stdout += text;
        for (const wake of waiters.splice(0)) wake();
      },
      stderr: () => undefined,
      env: {
        ANTHROPIC_API_KEY: TEST_API_KEY,
        ANTHROPIC_BASE_URL: model.server.url,
        SKILLWRIGHT_MANAGED_DIR: tree.path("managed"),
      },
      cwd: tree.path("repo"),
      home: tree.path("home"),
      bundledDir: tree.path("no-bundled"),
    };
    /** Resolves once stdout holds `text` `times` times. */
    const printed = async (text: string, times = 1) => {
      while (stdout.split(text).length - 1 < times) await new Promise<void>((wake) => waiters.push(wake));
    };
    const parsed = parseCliArgs([]);
    if (!parsed.ok) throw new Error(parsed.message);
    const engine = createEngine({ cwd: io.cwd, home: io.home, env: io.env });
    const input = new PassThrough();
    const output = new PassThrough();
    output.resume();
    const done = interactiveCommand(engine, io, parsed.args, { input, output });

    await printed("\n> ");
    input.write("deploy it\n");
    await printed("settings.local.json] ");
    // "Always" is offered for a skill too (issue #42 item 4); `y` allows once and records the approval.
    expect(stdout).toContain(
      "Allow Skill(deploy)? The skill grants tools without asking. [y/N, a = always allow Skill(deploy);",
    );
    input.write("y\n");
    await printed("first-done");
    const file = JSON.parse(await readFile(tree.path("home/.skillwright/approvals.json"), "utf8"));
    expect(Object.values(file.skills).map((r) => (r as { name: string }).name)).toEqual(["deploy"]);

    // Unchanged: no question.
    await printed("\n> ", 2);
    input.write("deploy again\n");
    await printed("second-done");
    expect(stdout.split("Allow Skill(deploy)?").length - 1).toBe(1);

    await writeFile(
      tree.path(SKILL),
      skillMd("description: Deploys\nallowed-tools: Read Bash", "DEPLOY-BODY"),
    );
    await printed("\n> ", 3);
    input.write("/reload\n");
    await printed("Reloaded:");
    await printed("\n> ", 4);
    input.write("and once more\n");
    // A held skill is offered no rule: only `approve` lifts the hold.
    await printed("[y/N] ");
    expect(stdout).toContain(
      "skill-changed: Skill deploy changed since it was approved and gained: +allowed-tools Bash.",
    );
    input.write("n\n");
    await printed("third-done");
    input.end();
    expect(await done).toBe(0);
    await engine.close();
  });
});
