import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import { bodyOf, resultText, toolResultsOf } from "../support/harness.js";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, type TreeEntry, tmpTree } from "../support/tmp-tree.js";

/** What users run: the bundled bin (`npm run build` first). */
const BIN = fileURLToPath(new URL("../../dist/bin/main.js", import.meta.url));
const SPAWN_TIMEOUT_MS = 30_000;

/** The Bash input every Claude model sends: a command and a description (issue 11.6). */
const bashCall = (command: string, description = "run a command") => ({ command, description });

beforeAll(() => {
  expect(existsSync(BIN), `${BIN} is missing: run \`npm run build\` before the tests`).toBe(true);
});

let tree: TmpTree | undefined;
let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
  await tree?.cleanup();
  tree = undefined;
});

/**
 * A fresh project (a git repo), home and `outside` dir, plus `files`; and the scripted model playing `turns`
 * (given as is, or built from the tree when they need its paths).
 */
async function setup(
  turns: ScriptTurnInput[] | ((t: TmpTree) => ScriptTurnInput[]),
  files: Record<string, TreeEntry> = {},
) {
  tree = await tmpTree({
    "home/.keep": "",
    "tmp/.keep": "",
    "repo/.git": { dir: true },
    "outside/.keep": "",
    ...files,
  });
  model = await startTestModel(typeof turns === "function" ? turns(tree) : turns);
  return { tree, model };
}

/** Runs `skillwright --cwd repo --home home …` headless against the scripted model. */
async function skillwright(t: TmpTree, m: TestModel, args: string[]) {
  return execa(process.execPath, [BIN, "--cwd", t.path("repo"), "--home", t.path("home"), ...args], {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      // The temp home, so a shell that reads the home's startup files finds none.
      HOME: t.path("home"),
      TMPDIR: t.path("tmp"),
      SKILLWRIGHT_MANAGED_DIR: t.path("managed"),
      ANTHROPIC_BASE_URL: m.server.url,
      ANTHROPIC_API_KEY: TEST_API_KEY,
    },
    extendEnv: false,
    reject: false,
    timeout: SPAWN_TIMEOUT_MS,
  });
}

/** The text and error flag of the only tool result the model got back in request `index`. */
function onlyResult(m: TestModel, index: number): { text: string; isError: boolean } {
  const results = toolResultsOf(m.server.requests[index]);
  expect(results).toHaveLength(1);
  return { text: resultText(results[0]), isError: results[0]?.is_error === true };
}

const oneBashCall = (command: string): ScriptTurnInput[] => [
  toolTurn("Bash", bashCall(command)),
  textTurn("done", { hasToolResultFor: "Bash" }),
];

describe("Bash permissions through the bin (issue 11.6)", () => {
  it("--allowedTools 'Bash(echo:*)' allows the call Claude sends: {command, description}", async () => {
    const { tree: t, model: m } = await setup([
      toolTurn("Bash", { command: "echo hi > said.txt", description: "say hi" }),
      textTurn("done", { hasToolResultFor: "Bash" }),
    ]);
    const run = await skillwright(t, m, ["-p", "go", "--allowedTools", "Bash(echo:*)"]);
    expect(run.exitCode).toBe(0);
    expect(onlyResult(m, 1)).toEqual({ text: "(Bash completed with no output)", isError: false });
    expect(await readFile(t.path("repo/said.txt"), "utf8")).toBe("hi\n");
  });

  it("the exact issue call {command: 'echo hi', description: 'say hi'} runs with Bash(echo:*)", async () => {
    const { tree: t, model: m } = await setup([
      toolTurn("Bash", { command: "echo hi", description: "say hi" }),
      textTurn("done", { hasToolResultFor: "Bash" }),
    ]);
    const run = await skillwright(t, m, ["-p", "go", "--allowedTools", "Bash(echo:*)"]);
    expect(run.exitCode).toBe(0);
    expect(onlyResult(m, 1)).toEqual({ text: "hi", isError: false });
  });

  it("a scoped rule for another command does not allow it", async () => {
    const { tree: t, model: m } = await setup(oneBashCall("touch made.txt"));
    expect((await skillwright(t, m, ["-p", "go", "--allowedTools", "Bash(echo:*)"])).exitCode).toBe(0);
    const result = onlyResult(m, 1);
    expect(result.isError).toBe(true);
    // Claude Code's headless text, with our name (issue #27).
    expect(result.text).toBe(
      `touch in '${t.path("repo/made.txt")}' needs approval. The path is inside the working directories for this ` +
        `session ('${t.path("repo")}'), and skillwright asks before a shell command creates, changes or removes ` +
        "files there.",
    );
    expect(existsSync(t.path("repo/made.txt"))).toBe(false);
  });

  it("bare --allowedTools Bash accepts description and runs the command", async () => {
    const { tree: t, model: m } = await setup(oneBashCall("touch made.txt"));
    expect((await skillwright(t, m, ["-p", "go", "--allowedTools", "Bash"])).exitCode).toBe(0);
    expect(onlyResult(m, 1)).toEqual({ text: "(Bash completed with no output)", isError: false });
    expect(existsSync(t.path("repo/made.txt"))).toBe(true);
  });

  it("a read-only command runs without any grant (SPEC §14.8)", async () => {
    const { tree: t, model: m } = await setup(oneBashCall("echo a && pwd"));
    expect((await skillwright(t, m, ["-p", "go"])).exitCode).toBe(0);
    expect(onlyResult(m, 1)).toEqual({ text: `a\n${t.path("repo")}`, isError: false });
  });

  it("a chain names the path its writing part needs approval for (SPEC §14.9, issue #44)", async () => {
    const { tree: t, model: m } = await setup(oneBashCall("echo a; touch made.txt"));
    expect((await skillwright(t, m, ["-p", "go"])).exitCode).toBe(0);
    const result = onlyResult(m, 1);
    expect(result.isError).toBe(true);
    expect(result.text).toContain(`touch in '${t.path("repo/made.txt")}' needs approval.`);
    expect(existsSync(t.path("repo/made.txt"))).toBe(false);
  });

  it("a chain whose part writes no known path names the part (SPEC §14.9)", async () => {
    const { tree: t, model: m } = await setup(oneBashCall("echo a; npm run nothing-here"));
    expect((await skillwright(t, m, ["-p", "go"])).exitCode).toBe(0);
    const result = onlyResult(m, 1);
    expect(result.isError).toBe(true);
    expect(result.text).toContain(
      "This Bash command contains multiple operations. The following part requires approval: npm run nothing-here",
    );
  });
});

describe("redirection out of the project needs its own approval (issue 16.6)", () => {
  it("Bash(echo:*) allows echo hi and a write inside the project, not a write elsewhere", async () => {
    const outside = (t: TmpTree) => t.path("outside/file");
    const { tree: t, model: m } = await setup((t) => [
      toolTurn("Bash", bashCall(`echo x > ${outside(t)}`)),
      toolTurn("Bash", bashCall("echo y > inside.txt"), { match: { hasToolResultFor: "Bash" } }),
      textTurn("done"),
    ]);
    const run = await skillwright(t, m, ["-p", "go", "--allowedTools", "Bash(echo:*)"]);
    expect(run.exitCode).toBe(0);
    const refused = onlyResult(m, 1);
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain(
      `echo in '${outside(t)}' needs approval. For security, commands may only write to files in the allowed ` +
        `working directories for this session without asking: '${t.path("repo")}'.`,
    );
    expect(existsSync(outside(t))).toBe(false);
    expect(onlyResult(m, 2).isError).toBe(false);
    expect(await readFile(t.path("repo/inside.txt"), "utf8")).toBe("y\n");
  });

  it("a tee to a path outside is refused the same way; /dev/null is fine", async () => {
    const { tree: t, model: m } = await setup((t) => [
      toolTurn("Bash", bashCall(`echo x | tee ${t.path("outside/teed")}`)),
      toolTurn("Bash", bashCall("echo gone > /dev/null"), { match: { hasToolResultFor: "Bash" } }),
      textTurn("done"),
    ]);
    const target = t.path("outside/teed");
    await skillwright(t, m, ["-p", "go", "--allowedTools", "Bash(echo:*),Bash(tee:*)"]);
    expect(onlyResult(m, 1).text).toContain(`tee in '${target}' needs approval.`);
    expect(existsSync(target)).toBe(false);
    expect(onlyResult(m, 2)).toEqual({ text: "(Bash completed with no output)", isError: false });
  });

  it("--add-dir and settings additionalDirectories make a directory writable", async () => {
    const { tree: t, model: m } = await setup((t) => oneBashCall(`echo x > ${t.path("outside/file")}`));
    await skillwright(t, m, ["-p", "go", "--allowedTools", "Bash(echo:*)", "--add-dir", t.path("outside")]);
    expect(onlyResult(m, 1).isError).toBe(false);
    expect(await readFile(t.path("outside/file"), "utf8")).toBe("x\n");
  });

  it("settings permissions.additionalDirectories counts too (relative to the project)", async () => {
    const settings = { permissions: { additionalDirectories: ["../outside"] } };
    const { tree: t, model: m } = await setup((t) => oneBashCall(`echo x > ${t.path("outside/file")}`), {
      "repo/.claude/settings.local.json": JSON.stringify(settings),
    });
    await skillwright(t, m, ["-p", "go", "--allowedTools", "Bash(echo:*)"]);
    expect(onlyResult(m, 1).isError).toBe(false);
    expect(await readFile(t.path("outside/file"), "utf8")).toBe("x\n");
  });
});

describe("deny beats every grant (SPEC §14.1)", () => {
  const SKILL = {
    "repo/.claude/skills/toucher/SKILL.md":
      "---\ndescription: Touches a marker\nallowed-tools: Bash(touch:*)\n---\nBefore\n!`touch marker`\nAfter\n",
  };
  const turns = (): ScriptTurnInput[] => [
    toolTurn("Skill", { skill: "toucher" }),
    textTurn("done", { hasToolResultFor: "Skill" }),
  ];
  const DENIED =
    'Shell command permission check failed for pattern "!`touch marker`": Permission to use Bash has been denied.';

  it("without a deny rule the skill's own grant runs its inline shell", async () => {
    const { tree: t, model: m } = await setup(turns(), SKILL);
    expect((await skillwright(t, m, ["-p", "go", "--allowedTools", "Skill"])).exitCode).toBe(0);
    expect(onlyResult(m, 1)).toEqual({ text: "Launching skill: toucher", isError: false });
    expect(existsSync(t.path("repo/marker"))).toBe(true);
  });

  it("--disallowedTools Bash wins over the skill's allowed-tools: nothing runs", async () => {
    const { tree: t, model: m } = await setup(turns(), SKILL);
    const run = await skillwright(t, m, ["-p", "go", "--allowedTools", "Skill", "--disallowedTools", "Bash"]);
    expect(run.exitCode).toBe(0);
    const result = onlyResult(m, 1);
    expect(result.isError).toBe(true);
    expect(result.text).toContain(DENIED);
    expect(existsSync(t.path("repo/marker"))).toBe(false);
    expect(bodyOf(m.server.requests[0]).tools?.map((tool) => tool.name)).not.toContain("Bash");
  });

  it("a settings deny rule wins the same way", async () => {
    const { tree: t, model: m } = await setup(turns(), {
      ...SKILL,
      "repo/.claude/settings.local.json": JSON.stringify({ permissions: { deny: ["Bash"] } }),
    });
    expect((await skillwright(t, m, ["-p", "go", "--allowedTools", "Skill"])).exitCode).toBe(0);
    expect(onlyResult(m, 1).text).toContain(DENIED);
    expect(existsSync(t.path("repo/marker"))).toBe(false);
  });
});

describe("hooks get Claude Code's tool_input (SPEC §14.12)", () => {
  it("a PreToolUse command hook reads tool_input.file_path and tool_input.command", async () => {
    const hook = {
      type: "command",
      command: 'cat >> "$CLAUDE_PROJECT_DIR/hook-log.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/hook-log.jsonl"',
    };
    const settings = { hooks: { PreToolUse: [{ matcher: "Read|Bash", hooks: [hook] }] } };
    const { tree: t, model: m } = await setup(
      (t) => [
        toolTurn("Read", { file_path: t.path("repo/notes.txt") }),
        toolTurn("Bash", bashCall("echo hooked", "print a word"), { match: { hasToolResultFor: "Read" } }),
        textTurn("done", { hasToolResultFor: "Bash" }),
      ],
      {
        "repo/notes.txt": "alpha\nbeta\n",
        "repo/.claude/settings.local.json": JSON.stringify(settings),
      },
    );
    const run = await skillwright(t, m, ["-p", "go"]);
    expect(run.exitCode).toBe(0);
    expect(onlyResult(m, 1)).toEqual({ text: "1\talpha\n2\tbeta", isError: false });
    const events = (await readFile(t.path("repo/hook-log.jsonl"), "utf8"))
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as { tool_name: string; tool_input: Record<string, unknown> });
    expect(events.map((e) => [e.tool_name, e.tool_input])).toEqual([
      ["Read", { file_path: t.path("repo/notes.txt") }],
      ["Bash", { command: "echo hooked", description: "print a word" }],
    ]);
  });
});

describe("a cut Bash output through the bin (issue #31 item 4)", () => {
  it("names a file in the temp dir that holds the whole output, and the model can Read it", async () => {
    const { tree: t, model: m } = await setup(oneBashCall("seq 1 3000"));
    const run = await skillwright(t, m, ["-p", "go", "--allowedTools", "Bash(seq:*)"]);
    expect(run.exitCode, run.stderr).toBe(0);
    const { text, isError } = onlyResult(m, 1);
    expect(isError).toBe(false);
    const named =
      /^\[Earlier output cut: showing the last 2000 of 3000 lines [^\]]*Full output: (\S+)\]\n1001\n/.exec(
        text,
      );
    expect(named, text.slice(0, 200)).not.toBeNull();
    const kept = named?.[1] ?? "";
    expect(kept.startsWith(`${t.path("tmp")}/skillwright-bash/`)).toBe(true);
    expect((await readFile(kept, "utf8")).split("\n")).toHaveLength(3000);
  });
});
