/**
 * Issue #44's wire differences through the shipped bin (`node dist/bin/main.js -p …`) against the scripted
 * model server: each test checks the exact text or order Claude Code sends in the same case.
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AGENT_ID_HEADER } from "../../src/agent/model-types.js";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import type { RequestBody } from "../support/harness.js";
import { lastUser, resultText, skillMd, textBlocks, toolResults } from "../support/harness.js";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { cli } from "./run-cli.js";

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({
    "home/.keep": "",
    "project/.git": { dir: true },
    "project/src/app.ts": "export {};\n",
    "project/.claude/skills/loose.md": skillMd("description: A loose file", "Not a skill."),
    "project/.claude/skills/casey/skill.md": skillMd("description: Wrong case", "Not a skill either."),
    "project/.claude/skills/toucher/SKILL.md": skillMd(
      "description: Touches a file",
      "!`touch made.txt && echo done`",
    ),
    "project/.claude/skills/greet/SKILL.md": skillMd("description: Greets", "Say hello."),
    "project/.claude/skills/survey/SKILL.md": skillMd("description: Surveys\ncontext: fork", "SURVEY-TASK"),
    "project/.claude/skills/ts-root/SKILL.md": skillMd("description: Root TS rules\npaths: src/**", "Root."),
    "project/src/.claude/skills/ts-nested/SKILL.md": skillMd(
      "description: Nested TS rules\npaths: '**/*.ts'",
      "Nested.",
    ),
  });
  // Binary garbage: runs of text between control characters, a form feed and a vertical tab among them.
  await mkdir(tree.path("project/.claude/skills/garbage"), { recursive: true });
  await writeFile(
    tree.path("project/.claude/skills/garbage/SKILL.md"),
    Buffer.from([0x61, 0x62, 0x0c, 0x63, 0x64, 0x0b, 0x00, 0x01, 0x65, 0x66, 0x1b, 0x0a, 0x00, 0x0a]),
  );
});
afterAll(() => tree.cleanup());

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

/** Runs `-p prompt` through the shipped bin in `project/` against the scripted model playing `turns`. */
async function runBin(turns: ScriptTurnInput[], prompt: string, extra: string[] = []) {
  await model?.close();
  model = await startTestModel(turns);
  const run = await cli(tree, ["-p", prompt, ...extra], "project", {
    ANTHROPIC_API_KEY: TEST_API_KEY,
    ANTHROPIC_BASE_URL: model.server.url,
  });
  const requests = model.server.requests.filter((r) => r.path === "/v1/messages");
  return {
    run: { exitCode: run.code, stderr: run.stderr },
    requests,
    bodies: requests.map((r) => r.body as RequestBody),
  };
}

/** The text of the one tool result in request `index`'s last user message. */
function resultOf(bodies: RequestBody[], index: number): string {
  const body = bodies[index];
  if (body === undefined) throw new Error(`no request #${index}`);
  const [result] = toolResults(body);
  if (result === undefined) throw new Error(`request #${index} holds no tool result`);
  return resultText(result);
}

/** The `<system-reminder>` text blocks of request `index`'s last user message. */
function remindersOf(bodies: RequestBody[], index: number): string[] {
  const body = bodies[index];
  if (body === undefined) throw new Error(`no request #${index}`);
  return textBlocks(lastUser(body).content).filter((t) => t.startsWith("<system-reminder>"));
}

describe("issue #44 wire differences, through dist/bin", () => {
  it("a markdown file found in a skills folder but not loaded answers 'Unknown skill: NAME.' with the period", async () => {
    const { run, bodies } = await runBin(
      [
        toolTurn("Skill", { skill: "loose" }),
        toolTurn("Skill", { skill: "casey" }),
        toolTurn("Skill", { skill: "nowhere-at-all" }),
        textTurn("ok"),
      ],
      "go",
      ["--allowedTools", "Skill"],
    );
    expect(run.exitCode).toBe(0);
    expect(resultOf(bodies, 1)).toBe("<tool_use_error>Unknown skill: loose.</tool_use_error>");
    expect(resultOf(bodies, 2)).toBe("<tool_use_error>Unknown skill: casey.</tool_use_error>");
    // Found nowhere: no period, as before.
    expect(resultOf(bodies, 3)).toBe("<tool_use_error>Unknown skill: nowhere-at-all</tool_use_error>");
  });

  it("inline shell that writes a file is refused naming the path, before the compound-command reason", async () => {
    const { run, bodies } = await runBin(
      [toolTurn("Skill", { skill: "toucher" }), textTurn("ok")],
      "touch it",
      ["--allowedTools", "Skill"],
    );
    expect(run.exitCode).toBe(0);
    const project = tree.path("project");
    expect(resultOf(bodies, 1)).toBe(
      'Shell command permission check failed for pattern "!`touch made.txt && echo done`": ' +
        `touch in '${project}/made.txt' needs approval. The path is inside the working directories for this ` +
        `session ('${project}'), and skillwright asks before a shell command creates, changes or removes files there.`,
    );
    expect(existsSync(tree.path("project/made.txt"))).toBe(false);
  });

  it("conditional skills activated by one read come in one reminder, the nested folder's skill first", async () => {
    const { run, bodies } = await runBin(
      [toolTurn("Read", { file_path: "src/app.ts" }), textTurn("ok")],
      "read the app",
      ["--allowedTools", "Read"],
    );
    expect(run.exitCode).toBe(0);
    expect(remindersOf(bodies, 1)).toEqual([
      "<system-reminder>\nThe following skills are available for use with the Skill tool:\n\n" +
        "- ts-nested: Nested TS rules\n- ts-root: Root TS rules\n</system-reminder>",
    ]);
  });

  it("a typed /skill with no arguments: the command block ends at </command-name>, no line break", async () => {
    for (const typed of ["/greet", "/greet   "]) {
      const { run, bodies } = await runBin([textTurn("hello")], typed);
      expect(run.exitCode).toBe(0);
      const texts = textBlocks(lastUser(bodies[0] as RequestBody).content).filter(
        (t) => !t.startsWith("<system-reminder>"),
      );
      expect(texts).toEqual([
        "<command-message>greet</command-message>\n<command-name>/greet</command-name>",
        `Base directory for this skill: ${tree.path("project/.claude/skills/greet")}\n\nSay hello.`,
      ]);
    }
  });

  it("with no model configured, the main agent and its forks use the recorded default, Sonnet", async () => {
    const { run, requests } = await runBin(
      [
        toolTurn("Skill", { skill: "survey" }, { match: { agentId: null, lastUserTextIncludes: "survey" } }),
        textTurn("Surveyed.", { agentId: "*" }),
        textTurn("Done.", { agentId: null, hasToolResultFor: "Skill" }),
      ],
      "survey please",
      ["--allowedTools", "Skill"],
    );
    expect(run.exitCode).toBe(0);
    const models = requests.map((r) => [
      r.headers[AGENT_ID_HEADER] === undefined ? "main" : "fork",
      (r.body as RequestBody).model,
    ]);
    expect(models).toEqual([
      ["main", "claude-sonnet-5-5"],
      ["fork", "claude-sonnet-5-5"],
      ["main", "claude-sonnet-5-5"],
    ]);
  });

  it("a binary skill's description keeps a space where a form feed or vertical tab separated its runs", async () => {
    const { run, bodies } = await runBin([textTurn("ok")], "hi");
    expect(run.exitCode).toBe(0);
    const [listing] = remindersOf(bodies, 0);
    expect(listing?.split("\n").filter((l) => l.startsWith("- garbage"))).toEqual(["- garbage: ab cd ef"]);
  });
});
