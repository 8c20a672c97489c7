/**
 * Approvals pinned to content, through the shipped bin (`node dist/bin/main.js`) against the scripted model
 * server: an approved project skill that gains `allowed-tools: Bash` and an inline shell command is refused
 * headless with `skill-changed` naming both, runs after `skillwright approve`, and an edit that adds no
 * capability runs without asking.
 */
import { readFile, writeFile } from "node:fs/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import {
  lastUser,
  type RequestBody,
  resultText,
  skillMd,
  textBlocks,
  toolResults,
} from "../support/harness.js";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { cli, json } from "./run-cli.js";

const SKILL = "project/.claude/skills/deploy/SKILL.md";

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({
    "home/.keep": "",
    "managed/.keep": "",
    "bundled/.keep": "",
    "project/.git": { dir: true },
    [SKILL]: skillMd("description: Deploys the app\nallowed-tools: Read", "Deploy with care."),
  });
});
afterAll(() => tree.cleanup());

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

/** One `-p` run in which the model calls the deploy skill, then answers; returns the Skill call's result text. */
async function runDeploy(): Promise<{ code: number; result: string; stderr: string }> {
  const turns: ScriptTurnInput[] = [toolTurn("Skill", { skill: "deploy" }), textTurn("done")];
  model = await startTestModel(turns);
  const run = await cli(tree, ["-p", "deploy it"], "project", {
    ANTHROPIC_API_KEY: TEST_API_KEY,
    ANTHROPIC_BASE_URL: model.server.url,
  });
  const bodies = model.server.requests
    .filter((r) => r.path === "/v1/messages")
    .map((r) => r.body as RequestBody);
  const second = bodies[1];
  // The Skill call's result, then the expansion (a text block of its own beside it).
  const result =
    second === undefined
      ? ""
      : [
          ...toolResults(second).map(resultText),
          ...textBlocks(lastUser(second).content).filter((t) => !t.startsWith("<system-reminder>")),
        ].join("\n");
  await model.close();
  model = undefined;
  return { code: run.code, result, stderr: run.stderr };
}

async function editSkill(frontmatter: string, body: string): Promise<void> {
  await writeFile(tree.path(SKILL), skillMd(frontmatter, body));
}

describe("approvals pinned to content (node dist/bin/main.js)", () => {
  it("holds an approved skill that gained powers until `approve`; a harmless edit never asks", async () => {
    // Never approved: a project skill with allowed-tools is asked about, and headless means no.
    const before = await runDeploy();
    expect(before.result).toContain("Permission was not granted");

    const approved = await cli(tree, ["approve", "deploy"], "project");
    expect(approved.stderr).toBe("");
    expect(approved.code).toBe(0);
    expect(approved.stdout).toBe("Approved deploy [project]: allowed-tools Read\n");
    // The approval lives in the user's data root, never in the project.
    expect(await readFile(tree.path("home/.skillwright/approvals.json"), "utf8")).toContain(
      '"name": "deploy"',
    );

    const first = await runDeploy();
    expect(first.code).toBe(0);
    expect(first.result).toContain("Deploy with care.");

    // The skill gains a Bash grant and an inline shell command: held.
    await editSkill(
      "description: Deploys the app\nallowed-tools: Read Bash",
      "Deploy with care. !`echo echo hi | sh`",
    );
    const held = await runDeploy();
    expect(held.stderr).toBe(
      'skillwright: skill deploy is held (skill-changed: +allowed-tools Bash, +inline shell "echo echo hi | sh"); ' +
        "run `skillwright approve deploy` or see `skillwright doctor`\n",
    );
    expect(held.result).toBe(
      "<tool_use_error>skill-changed: Skill deploy changed since it was approved and gained: +allowed-tools Bash, " +
        '+inline shell "echo echo hi | sh". It runs again once approved: `skillwright approve deploy`.</tool_use_error>',
    );
    const doctor = json<{ diagnostics: Array<{ code: string; message: string; path?: string }> }>(
      await cli(tree, ["doctor", "--json"], "project"),
    );
    const changed = doctor.diagnostics.filter((d) => d.code === "skill-changed");
    expect(changed.map((d) => d.path)).toEqual([tree.path(SKILL)]);
    expect(changed[0]?.message).toContain('+allowed-tools Bash, +inline shell "echo echo hi | sh"');
    const list = json<Array<{ name?: string; held?: unknown }>>(
      await cli(tree, ["list", "--json"], "project"),
    );
    expect(list.find((e) => e.name === "deploy")?.held).toEqual({
      code: "skill-changed",
      gained: ["+allowed-tools Bash", '+inline shell "echo echo hi | sh"'],
    });

    const show = await cli(tree, ["show", "deploy"], "project");
    expect(show.stdout).toContain(
      '## Approval\nheld (skill-changed)\ngained since approved: +allowed-tools Bash, +inline shell "echo echo hi | sh"\n',
    );

    const again = await cli(tree, ["approve", "deploy"], "project");
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      'gained since the last approval: +allowed-tools Bash, +inline shell "echo echo hi | sh"',
    );
    const runs = await runDeploy();
    expect(runs.result).toContain("Deploy with care. hi");

    // Body text changed and a grant dropped: nothing gained, so it runs without asking.
    await editSkill(
      "description: Deploys the app, now faster\nallowed-tools: Bash",
      "Deploy quickly. !`echo echo hi | sh`",
    );
    const harmless = await runDeploy();
    expect(harmless.result).toContain("Deploy quickly. hi");
    const quiet = json<{ diagnostics: Array<{ code: string }> }>(
      await cli(tree, ["doctor", "--json"], "project"),
    );
    expect(quiet.diagnostics.filter((d) => d.code === "skill-changed")).toEqual([]);
  });

  it("approve --all takes every waiting skill; a user skill needs none; bad usage and unknown names fail", async () => {
    const all = await tmpTree({
      "home/.claude/skills/mine/SKILL.md": skillMd("description: Mine\nallowed-tools: Bash", "M"),
      "managed/.keep": "",
      "bundled/.keep": "",
      "project/.git": { dir: true },
      "project/.claude/skills/forky/SKILL.md": skillMd("description: F\ncontext: fork", "F"),
      "project/.claude/skills/plain/SKILL.md": skillMd("description: P", "P"),
    });
    try {
      expect((await cli(all, ["approve"], "project")).code).toBe(2);
      expect((await cli(all, ["approve", "--all", "forky"], "project")).code).toBe(2);
      const unknown = await cli(all, ["approve", "forkyy"], "project");
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain("Unknown skill: forkyy. Did you mean forky?");
      const mine = await cli(all, ["approve", "mine"], "project");
      expect(mine.stdout).toBe("mine [user] needs no approval: you put it there.\n");
      const done = await cli(all, ["approve", "--all"], "project");
      expect(done.code).toBe(0);
      expect(done.stdout).toBe("Approved forky [project]: context: fork (agent general-purpose)\n");
      expect((await cli(all, ["approve", "--all"], "project")).stdout).toBe("No skill waits for approval.\n");
    } finally {
      await all.cleanup();
    }
  });
});
