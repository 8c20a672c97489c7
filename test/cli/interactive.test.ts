import { PassThrough } from "node:stream";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agent/events.js";
import { parseCliArgs } from "../../src/cli/args.js";
import { completeSlash, eventLine, interactiveCommand, slashNames } from "../../src/cli/interactive.js";
import type { CliIo } from "../../src/cli/io.js";
import { createEngine } from "../../src/engine/engine.js";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({
    "home/.keep": "",
    "repo/.git": { dir: true },
    "repo/.claude/skills/greet/SKILL.md": "---\ndescription: Greets people\n---\nGREET-BODY for $ARGUMENTS\n",
    "repo/.claude/skills/grep-helper/SKILL.md": "---\ndescription: Helps grep\n---\nbody\n",
  });
});
afterAll(() => tree.cleanup());

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

function args(argv: string[] = []) {
  const parsed = parseCliArgs(argv);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.args;
}

/** Runs the interactive mode with `lines` typed (then Ctrl-D: end of input) and returns what it printed. */
async function runInteractive(lines: string[], env: Record<string, string>, argv: string[] = []) {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: { ...env, SKILLWRIGHT_MANAGED_DIR: tree.path("managed") },
    cwd: tree.path("repo"),
    home: tree.path("home"),
    bundledDir: tree.path("no-bundled"),
  };
  const engine = createEngine({ cwd: io.cwd, home: io.home, env: io.env });
  const input = new PassThrough();
  const output = new PassThrough();
  output.resume();
  const done = interactiveCommand(engine, io, args(argv), { input, output });
  // Feed one line at a time, after the previous turn has printed its answer.
  for (const line of lines) {
    input.write(`${line}\n`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  input.end();
  const code = await done;
  await engine.close();
  return { code, stdout, stderr };
}

describe("interactive mode", () => {
  it("without an API key says so and exits 1", async () => {
    const result = await runInteractive([], {});
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("ANTHROPIC_API_KEY");
  });

  it("--resume of an unknown id says where the sessions are and exits 1, before any request", async () => {
    model = await startTestModel([]);
    const env = { ANTHROPIC_BASE_URL: model.server.url, ANTHROPIC_API_KEY: TEST_API_KEY };
    const result = await runInteractive([], env, ["--resume", "0f0e0d0c-no-such-session"]);
    expect(result.stderr).toBe(
      `No session 0f0e0d0c-no-such-session. Sessions: ${tree.path("home/.skillwright/sessions")}\n`,
    );
    expect(result.code).toBe(1);
    expect(model.server.requests).toHaveLength(0);
  });

  it("streams the answer, shows tool and skill lines, and exits 0 at end of input (Ctrl-D)", async () => {
    model = await startTestModel([
      toolTurn("Skill", { skill: "greet", args: "Ada" }, { match: { lastUserTextIncludes: "say hi" } }),
      textTurn("Bonjour Ada!", { toolResultIncludes: "Launching skill" }),
    ]);
    const result = await runInteractive(["say hi to Ada"], {
      ANTHROPIC_BASE_URL: model.server.url,
      ANTHROPIC_API_KEY: TEST_API_KEY,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("session ");
    expect(result.stdout).toContain('⏺ Skill({"skill":"greet","args":"Ada"})');
    expect(result.stdout).toContain("⚡ skill greet (inline) Ada");
    expect(result.stdout).toContain("Bonjour Ada!");
    expect(model.server.requests).toHaveLength(2);
  });
});

describe("completeSlash", () => {
  it.each([
    ["/gr", ["/greet", "/grep-helper"]],
    ["/gre", ["/greet", "/grep-helper"]],
    ["/greet", ["/greet"]],
    ["/x", []],
    ["hello", []],
    ["/greet Bob", []],
  ])("%s → %j", (line, hits) => {
    expect(completeSlash(line, ["greet", "grep-helper", "compact"])).toEqual([hits, line]);
  });
});

describe("slashNames", () => {
  it("completes user-invocable skills and prompt templates; a template a skill shadows is left out", async () => {
    const t = await tmpTree({
      "repo/.git": { dir: true },
      "repo/.claude/skills/greet/SKILL.md": "---\ndescription: Greets\n---\nHi\n",
      "repo/.claude/skills/hidden/SKILL.md": "---\ndescription: Hidden\nuser-invocable: false\n---\nH\n",
      "repo/.skillwright/prompts/review.md": "Review $1.",
      "repo/.skillwright/prompts/greet.md": "Shadowed.",
      "home/.skillwright/prompts/ship.md": "Ship $1.",
    });
    try {
      const engine = createEngine({
        cwd: t.path("repo"),
        home: t.path("home"),
        env: { SKILLWRIGHT_MANAGED_DIR: t.path("managed") },
      });
      const names = await slashNames(engine, (await engine.discover()).skills);
      await engine.close();
      expect(names.filter((n) => ["greet", "hidden", "review", "ship"].includes(n))).toEqual([
        "greet",
        "review",
        "ship",
      ]);
    } finally {
      await t.cleanup();
    }
  });
});

describe("eventLine", () => {
  it("shows main-agent tool calls, skills, fork progress, warnings and errors; not sub-agent tool calls", () => {
    const events: [AgentEvent, string | undefined][] = [
      [{ type: "tool_start", id: "t1", name: "Read", input: { path: "a.ts" } }, '\n⏺ Read({"path":"a.ts"})'],
      [{ type: "tool_start", agentId: "fork-1", id: "t2", name: "Read", input: {} }, undefined],
      [{ type: "skill_invoked", name: "greet", args: "", mode: "fork" }, "⚡ skill greet (fork)"],
      [
        {
          type: "fork_progress",
          agentId: "fork-1",
          skill: "review",
          turn: 2,
          toolCalls: 3,
          lastTool: "Grep",
        },
        "⠋ review: turn 2, 3 tool call(s), last Grep",
      ],
      [
        { type: "background_result", agentId: "fork-2-ab", skill: "survey", ok: true, text: "done" },
        "⚑ background fork fork-2-ab (survey) finished",
      ],
      [{ type: "warning", message: "careful" }, "warning: careful"],
      [{ type: "error", agentId: "fork-1", kind: "server", message: "boom" }, "[fork-1] error: boom"],
      [{ type: "text_delta", text: "x" }, undefined],
    ];
    for (const [event, line] of events) expect(eventLine(event, 0)).toBe(line);
  });
});
