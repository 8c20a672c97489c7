/**
 * Background forks (issue #27 item 7) through the shipped bin (`node dist/bin/main.js -p …`) against the scripted
 * model server: the handle at once, the fork's tool set stated in its first request, its answer exactly once in
 * the main agent's next request (appended: `system`, `tools` and every earlier message unchanged), the headless
 * run waiting for it; and SIGINT ending a background fork the run waits on.
 */
import { writeFile } from "node:fs/promises";
import { execa } from "execa";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import {
  type BodyBlock,
  bodyOf,
  forkRequests,
  mainRequests,
  plainBlocks,
  type RequestBody,
  resultText,
  skillMd,
  textBlocks,
  toolResults,
} from "../support/harness.js";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { waitUntil } from "../support/processes.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { assertBuilt, BIN } from "./run-cli.js";

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({
    "home/.keep": "",
    "project/.git": { dir: true },
    "project/notes.txt": "alpha\n",
    "project/.claude/skills/survey/SKILL.md": skillMd(
      "description: Surveys the notes in the background\ncontext: fork\nbackground: true",
      "SURVEY-TASK",
    ),
    "project/.claude/skills/watch/SKILL.md": skillMd(
      "description: Watches, run as a background agent type\ncontext: fork\nagent: watcher",
      "WATCH-TASK",
    ),
    "project/.claude/agents/watcher.md":
      "---\nname: watcher\ndescription: Watches\nbackground: true\n---\nYou watch.\n",
  });
});
afterAll(() => tree.cleanup());

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

function spawnBin(m: TestModel, prompt: string, extra: string[] = []) {
  assertBuilt();
  return execa(
    process.execPath,
    [
      BIN,
      "-p",
      prompt,
      "--allowedTools",
      "Skill",
      "--cwd",
      tree.path("project"),
      "--home",
      tree.path("home"),
      ...extra,
    ],
    {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: tree.path("home"),
        ANTHROPIC_API_KEY: TEST_API_KEY,
        ANTHROPIC_BASE_URL: m.server.url,
        SKILLWRIGHT_MANAGED_DIR: tree.path("managed"),
      },
      extendEnv: false,
      reject: false,
      timeout: 30_000,
    },
  );
}

/** Every text of a message's content, tool results' texts included. */
function allTexts(content: string | BodyBlock[]): string[] {
  if (typeof content === "string") return [content];
  return content.flatMap((b) => (b.type === "tool_result" ? [resultText(b)] : textBlocks([b])));
}

/** How many user-message blocks of a request's conversation hold `needle`. */
function occurrences(body: RequestBody, needle: string): number {
  return body.messages
    .filter((m) => m.role === "user")
    .flatMap((m) => allTexts(m.content))
    .filter((t) => t.includes(needle)).length;
}

const ANSWER = "BG-ANSWER: notes.txt holds alpha.";

/**
 * The script of one background run: the main agent calls `skill`; the fork globs, then answers; the main
 * agent's request after the handle answers "Started." unless the answer is already in it. Whichever request
 * first holds the answer gets "Thanks: got it." (the answer may be ready before the main agent's next request
 * or only after its turn ended, when the headless run waits for it).
 */
function script(skill: string, task: string): ScriptTurnInput[] {
  return [
    toolTurn("Skill", { skill }, { match: { agentId: null, lastUserTextIncludes: "please" } }),
    toolTurn("Glob", { pattern: "*.txt" }, { match: { agentId: "*", lastUserTextIncludes: task } }),
    textTurn(ANSWER, { agentId: "*", hasToolResultFor: "Glob" }),
    textTurn("Thanks: got it.", { agentId: null, lastUserTextIncludes: "BG-ANSWER" }),
    textTurn("Started.", { agentId: null, hasToolResultFor: "Skill" }),
  ];
}

describe("background forks through node dist/bin/main.js -p", () => {
  it("a background skill returns a handle, states its tools, and its answer arrives once, appended", async () => {
    model = await startTestModel(script("survey", "SURVEY-TASK"));
    const run = await spawnBin(model, "please survey the notes");
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    // The headless run ends with the main agent's answer to the fork's answer.
    expect(run.stdout.trim()).toBe("Thanks: got it.");

    const main = mainRequests(model).map((r) => bodyOf(r));
    const forks = forkRequests(model);
    expect(forks).toHaveLength(2);
    const handle = forks[0]?.agentId;
    expect(handle).toMatch(/^fork-1-/);

    // The handle, at once: the tool result names it, the tools left out and when the answer comes.
    const [started] = toolResults(main[1] as RequestBody);
    expect(resultText(started)).toBe(
      `Skill "survey" started in the background (forked execution, handle ${handle}). It runs without ` +
        "Write, Edit: in the background nobody can answer the permission question each call of them would " +
        `need. Its answer will arrive later in a <system-reminder> naming ${handle}; go on without waiting for it.`,
    );

    // The fork's first request states its tools (and those it has not), and its tools array agrees.
    const first = bodyOf(forks[0]);
    const opening = textBlocks(first.messages[0]?.content ?? []);
    const note = opening.find((t) => t.includes("You run in the background"));
    expect(note).toBeDefined();
    const names = (first.tools ?? []).map((t) => t.name);
    expect(names).not.toContain("Write");
    expect(names).not.toContain("Edit");
    expect(names).toEqual(expect.arrayContaining(["Read", "Glob", "Bash", "Skill"]));
    expect(note).toContain(`You have these tools: ${names.join(", ")}.`);
    expect(note).toContain("You do not have Write, Edit: each call would need a permission question.");
    expect(opening.at(-1)).toContain("SURVEY-TASK");

    // Exactly once: the first main request that holds the answer holds it in one block, and so does the last.
    const firstWith = main.findIndex((b) => occurrences(b, "BG-ANSWER") > 0);
    expect(firstWith).toBeGreaterThan(0);
    const reminder =
      `<system-reminder>The background fork ${handle} finished.\n\n` +
      "<tools-used-before-summary>Glob</tools-used-before-summary>\n" +
      `Skill "survey" completed (forked execution).\n\nResult:\n${ANSWER}</system-reminder>`;
    for (const body of main.slice(firstWith)) {
      expect(occurrences(body, "BG-ANSWER")).toBe(1);
      expect(body.messages.flatMap((m) => allTexts(m.content)).filter((t) => t === reminder)).toHaveLength(1);
    }
    // It is the last block of the newest user message of the request that brought it.
    const brought = main[firstWith] as RequestBody;
    const newest = brought.messages.at(-1);
    expect(newest?.role).toBe("user");
    expect(allTexts(newest?.content ?? []).at(-1)).toContain(ANSWER);

    // The prompt cache: system and tools never change, and each request extends the one before it.
    for (const [i, body] of main.entries()) {
      expect(body.system).toEqual(main[0]?.system);
      expect(body.tools).toEqual(main[0]?.tools);
      const before = main[i - 1];
      if (before === undefined) continue;
      const prefix = body.messages.slice(0, before.messages.length).map((m) => plainBlocks(m.content));
      expect(prefix).toEqual(before.messages.map((m) => plainBlocks(m.content)));
    }
  });

  it("an answer ready only after the turn ended: the run waits, and one more request brings only the answer", async () => {
    // The fork's Bash reads a FIFO that the test writes once the main agent's turn has ended: a real order.
    const fifo = tree.path("project/gate.fifo");
    await execa("mkfifo", [fifo]);
    model = await startTestModel([
      toolTurn("Skill", { skill: "survey" }, { match: { agentId: null, lastUserTextIncludes: "please" } }),
      toolTurn(
        "Bash",
        { command: "cat gate.fifo" },
        { match: { agentId: "*", lastUserTextIncludes: "SURVEY-TASK" } },
      ),
      textTurn(ANSWER, { agentId: "*", hasToolResultFor: "Bash" }),
      textTurn("Thanks: got it.", { agentId: null, lastUserTextIncludes: "BG-ANSWER" }),
      textTurn("Started.", { agentId: null, hasToolResultFor: "Skill" }),
    ]);
    const m = model;
    const child = spawnBin(m, "please survey the notes", ["--allowedTools", "Bash"]);
    // The main agent's second request (answered "Started.", no tool call: the last of its turn) has arrived, so
    // it was built without the answer, which cannot be ready before the FIFO is written.
    expect(await waitUntil(() => mainRequests(m).length === 2, 20_000)).toBe(true);
    await writeFile(fifo, "opened\n");
    const run = await child;
    expect(run.exitCode).toBe(0);
    expect(run.stdout.trim()).toBe("Thanks: got it.");
    const main = mainRequests(m).map((r) => bodyOf(r));
    expect(main).toHaveLength(3);
    expect(occurrences(main[1] as RequestBody, "BG-ANSWER")).toBe(0);
    // The third request's new message is the answer alone, after the assistant's "Started.".
    const third = main[2] as RequestBody;
    expect(third.messages.at(-2)?.role).toBe("assistant");
    const newest = third.messages.at(-1);
    expect(newest?.role).toBe("user");
    const texts = allTexts(newest?.content ?? []);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatch(/^<system-reminder>The background fork fork-1-\w+ finished\.\n\n/);
    expect(texts[0]).toContain(ANSWER);
  });

  it("an agent type with background: true makes its forks background forks", async () => {
    model = await startTestModel(script("watch", "WATCH-TASK"));
    const run = await spawnBin(model, "please watch");
    expect(run.exitCode).toBe(0);
    expect(run.stdout.trim()).toBe("Thanks: got it.");
    const [started] = toolResults(bodyOf(mainRequests(model)[1]));
    expect(resultText(started)).toMatch(
      /^Skill "watch" started in the background \(forked execution, handle fork-1-/,
    );
    const last = bodyOf(mainRequests(model).at(-1));
    expect(occurrences(last, "BG-ANSWER")).toBe(1);
  });

  it("--output-format stream-json prints the background_result event and one result, the last turn's", async () => {
    model = await startTestModel(script("survey", "SURVEY-TASK"));
    const run = await spawnBin(model, "please survey the notes", ["--output-format", "stream-json"]);
    expect(run.exitCode).toBe(0);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map(
        (l) => JSON.parse(l) as { type: string; event?: { type: string; agentId?: string }; result?: string },
      );
    const handle = forkRequests(model)[0]?.agentId;
    expect(lines.filter((l) => l.event?.type === "background_result").map((l) => l.event?.agentId)).toEqual([
      handle,
    ]);
    const results = lines.filter((l) => l.type === "result");
    expect(results).toHaveLength(1);
    expect(results[0]?.result).toBe("Thanks: got it.");
  });

  it("SIGINT while the run waits on a background fork ends the fork and the run", async () => {
    model = await startTestModel([
      toolTurn("Skill", { skill: "survey" }, { match: { agentId: null, lastUserTextIncludes: "please" } }),
      {
        match: { agentId: "*", lastUserTextIncludes: "SURVEY-TASK" },
        response: { content: [{ type: "text", text: "never" }] },
        fault: { kind: "stall", afterEvents: 0 },
      },
      textTurn("Started.", { agentId: null, hasToolResultFor: "Skill" }),
    ]);
    const m = model;
    const child = spawnBin(m, "please survey the notes");
    // The main agent's turn ended ("Started.") and the fork's request is held: the run waits on the fork.
    const waiting = await waitUntil(
      () =>
        m.server.requests.some((r) => r.stalled === true) &&
        mainRequests(m).some((r) => toolResults(bodyOf(r)).length > 0),
      20_000,
    );
    expect(waiting).toBe(true);
    child.kill("SIGINT");
    const run = await child;
    expect(run.timedOut).toBe(false);
    // No further main request: the answer never came, nothing was made up.
    expect(mainRequests(m)).toHaveLength(2);
    expect(run.stdout).not.toContain("never");
  });
});
