import { readFile } from "node:fs/promises";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { assertBuilt, BIN } from "../cli/run-cli.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

/** A skill that knows the answer the case checks for. */
const ANSWER_KEY = `---
name: answer-key
description: The answer to the project's question. Use when asked for the answer.
---
The answer is 42. Write exactly 42 into answer.txt.
`;

/** A skill that changes nothing about the work. */
const CHATTER = `---
name: chatter
description: Friendly tone. Use for any writing task.
---
Be friendly.
`;

const ANSWER_CASE = `cases:
  - name: writes the answer
    kind: session
    prompt: What is the answer? Put it in answer.txt.
    allowed_tools: [Write]
    turns:
      - response: { content: [{ type: text, text: offline runs are not part of this test }] }
    expect:
      files: [{ path: answer.txt, exact: "42" }]
    baseline: { passRate: "+0.2" }
`;

const chatterCase = (pin: string) => `${pin}cases:
  - name: lists the colours
    kind: session
    prompt: List the colours in colours.txt.
    allowed_tools: [Write]
    turns:
      - response: { content: [{ type: text, text: offline runs are not part of this test }] }
    expect:
      files: [{ path: colours.txt, contains: red }]
`;

const write = (path: string, content: string) => ({
  response: { content: [{ type: "tool_use" as const, name: "Write", input: { file_path: path, content } }] },
});

/**
 * The model: asked for the answer, it calls answer-key; what it writes then depends on what the Skill call
 * gave it, and differs between runs (turns are used up in order: run 1, 2, 3 of each side). With answer-key's
 * body it writes 42, 41 (a slip), 42; without (an unknown skill) it guesses 7, 42 (luck), 9. Asked for colours,
 * it calls chatter and writes the same thing either way: right, right, wrong.
 */
function script(): ScriptTurnInput[] {
  const withKey = { match: { lastUserTextIncludes: "The answer is 42" } };
  const noKey = { match: { toolResultIncludes: "Unknown skill: answer-key" } };
  const withChatter = { match: { lastUserTextIncludes: "Be friendly" } };
  const noChatter = { match: { toolResultIncludes: "Unknown skill: chatter" } };
  return [
    {
      match: { hasToolResultFor: "Write" },
      repeat: true,
      response: { content: [{ type: "text", text: "Done." }] },
    },
    { ...withKey, ...write("answer.txt", "42") },
    { ...withKey, ...write("answer.txt", "41") },
    { ...withKey, ...write("answer.txt", "42") },
    { ...noKey, ...write("answer.txt", "7") },
    { ...noKey, ...write("answer.txt", "42") },
    { ...noKey, ...write("answer.txt", "9") },
    { ...withChatter, ...write("colours.txt", "red, green") },
    { ...withChatter, ...write("colours.txt", "red, green") },
    { ...withChatter, ...write("colours.txt", "none") },
    { ...noChatter, ...write("colours.txt", "red, green") },
    { ...noChatter, ...write("colours.txt", "red, green") },
    { ...noChatter, ...write("colours.txt", "none") },
    {
      match: { lastUserTextIncludes: "answer.txt" },
      repeat: true,
      response: { content: [{ type: "tool_use", name: "Skill", input: { skill: "answer-key" } }] },
    },
    {
      match: { lastUserTextIncludes: "colours.txt" },
      repeat: true,
      response: { content: [{ type: "tool_use", name: "Skill", input: { skill: "chatter" } }] },
    },
  ];
}

let tree: TmpTree | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  await tree?.cleanup();
  server = undefined;
  tree = undefined;
});

async function setUp(chatterPin = ""): Promise<TmpTree> {
  server = await startModelServer({ apiKey: "sk-test", script: { turns: script() } });
  tree = await tmpTree({
    "home/repo/.git/HEAD": "ref: refs/heads/main\n",
    "home/repo/.claude/skills/answer-key/SKILL.md": ANSWER_KEY,
    "home/repo/.claude/skills/answer-key/tests/answer.yaml": ANSWER_CASE,
    "home/repo/.claude/skills/chatter/SKILL.md": CHATTER,
    "home/repo/.claude/skills/chatter/tests/colours.yaml": chatterCase(chatterPin),
  });
  return tree;
}

/** The bin with stdin not a terminal, a long timeout: 12 sessions, each a fresh engine on a loaded machine. */
async function bin(t: TmpTree, argv: string[]) {
  assertBuilt();
  const result = await execa(process.execPath, [BIN, ...argv], {
    cwd: t.path("home/repo"),
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: t.path("home"),
      SKILLWRIGHT_HOME: t.path("home"),
      SKILLWRIGHT_MANAGED_DIR: t.path("managed"),
      SKILLWRIGHT_BUNDLED_DIR: t.path("bundled"),
      ANTHROPIC_API_KEY: "sk-test",
      ANTHROPIC_BASE_URL: server?.url ?? "",
    },
    extendEnv: false,
    reject: false,
    stdin: "ignore",
    timeout: 240_000,
  });
  return { code: result.exitCode ?? 1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

interface Side {
  runs: number;
  passed: number;
  passRate: { mean: number; sd: number };
  requests: { mean: number; sd: number };
  inputTokens: { mean: number; sd: number };
  outputTokens: { mean: number; sd: number };
  wallMs: { mean: number; sd: number };
  results: { passed: boolean; failures: string[] }[];
}
interface Report {
  ok: boolean;
  cases: {
    skill: string;
    name: string;
    passed: boolean;
    failures: string[];
    baseline?: {
      runs: number;
      with: Side;
      without: Side;
      delta: Record<string, number>;
      pinHeld?: boolean;
    };
  }[];
  baseline: { runs: number; cases: number; with: Side; without: Side; delta: Record<string, number> };
}

function caseOf(report: Report, skill: string) {
  const found = report.cases.find((c) => c.skill === skill);
  if (found?.baseline === undefined) throw new Error(`no baseline for ${skill}: ${JSON.stringify(report)}`);
  return { ...found, baseline: found.baseline };
}

describe("skillwright test --baseline", () => {
  it("says the help documents --baseline and --runs", async () => {
    const t = await tmpTree({ "home/repo/.git/HEAD": "ref: refs/heads/main\n" });
    tree = t;
    const result = await execa(process.execPath, [BIN, "test", "--help"], { reject: false });
    expect(result.stdout).toContain("--baseline");
    expect(result.stdout).toContain("--runs");
    expect(result.stdout).toContain("--yes");
  });

  it("measures each case with and without its skill over N runs: the helping skill's lead, the useless one's none, with their spread, in JSON and JUnit", async () => {
    const t = await setUp();
    const result = await bin(t, [
      "test",
      "--baseline",
      "--runs",
      "3",
      "--yes",
      "--json",
      "--junit",
      "report.xml",
    ]);
    expect(result.stderr).toContain(
      "baseline: 12 sessions (2 case(s) × 3 run(s) × with and without the skill)",
    );
    const report = JSON.parse(result.stdout) as Report;
    expect(result.code, result.stdout).toBe(0);

    const answer = caseOf(report, "answer-key");
    expect(answer.baseline.runs).toBe(3);
    expect(answer.baseline.with.results.map((r) => r.passed)).toEqual([true, false, true]);
    expect(answer.baseline.without.results.map((r) => r.passed)).toEqual([false, true, false]);
    expect(answer.baseline.with.passRate).toEqual({ mean: 0.6667, sd: 0.5774 });
    expect(answer.baseline.without.passRate).toEqual({ mean: 0.3333, sd: 0.5774 });
    expect(answer.baseline.delta.passRate).toBe(0.3333);
    expect(answer.baseline.pinHeld).toBe(true);
    expect(answer.passed).toBe(true);
    // Skill call, Write, closing text: three requests a run on either side; the skill's body costs tokens.
    expect(answer.baseline.with.requests).toEqual({ mean: 3, sd: 0 });
    expect(answer.baseline.without.requests).toEqual({ mean: 3, sd: 0 });
    expect(answer.baseline.with.inputTokens.mean).toBeGreaterThan(0);
    expect(answer.baseline.with.outputTokens.mean).toBeGreaterThan(0);
    expect(answer.baseline.with.wallMs.mean).toBeGreaterThan(0);

    const chatter = caseOf(report, "chatter");
    expect(chatter.baseline.with.passRate).toEqual({ mean: 0.6667, sd: 0.5774 });
    expect(chatter.baseline.without.passRate).toEqual({ mean: 0.6667, sd: 0.5774 });
    expect(chatter.baseline.delta.passRate).toBe(0);
    expect(chatter.passed).toBe(true);

    expect(report.baseline.runs).toBe(3);
    expect(report.baseline.cases).toBe(2);
    // Per run index, the share of cases that passed: with 1, 0.5, 0.5; without 0.5, 1, 0.
    expect(report.baseline.with.passRate).toEqual({ mean: 0.6667, sd: 0.2887 });
    expect(report.baseline.without.passRate).toEqual({ mean: 0.5, sd: 0.5 });

    const xml = await readFile(t.path("home/repo/report.xml"), "utf8");
    expect(xml).toContain('<property name="baseline.runs" value="3"/>');
    expect(xml).toContain('<property name="baseline.with.passRate.mean" value="0.6667"/>');
    expect(xml).toContain('<property name="baseline.with.passRate.sd" value="0.5774"/>');
    expect(xml).toContain('<property name="baseline.delta.passRate" value="0.3333"/>');
    expect(xml).toContain('<property name="baseline.delta.passRate" value="0"/>');
    expect(xml).toContain('failures="0"');
  }, 300_000);

  it("fails the run where a pinned baseline is not beaten, and says by how much", async () => {
    const t = await setUp('baseline: { passRate: "+0.2" }\n');
    const result = await bin(t, ["test", "--baseline", "--runs", "3", "--yes"]);
    expect(result.code, result.stdout).toBe(1);
    expect(result.stdout).toMatch(
      /✓ answer-key › writes the answer \(session, .*\) baseline, 3 run\(s\) per side/,
    );
    expect(result.stdout).toMatch(
      /✗ chatter › lists the colours \(session, .*\) baseline, 3 run\(s\) per side/,
    );
    expect(result.stdout).toContain(
      "the with-skill pass rate (0.6667) must beat the without-skill one (0.6667) by at least 0.2, it leads by 0",
    );
    expect(result.stdout).toMatch(/pass rate\s+0\.6667 ± 0\.5774\s+0\.3333 ± 0\.5774\s+\+0\.3333/);
  }, 300_000);

  it("says the count and runs nothing without --yes when stdin is not a terminal", async () => {
    const t = await setUp();
    const result = await bin(t, ["test", "--baseline", "--runs", "2"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "baseline: 8 sessions (2 case(s) × 2 run(s) × with and without the skill)",
    );
    expect(result.stderr).toContain("pass --yes");
    expect(server?.requests.length).toBe(0);
  }, 120_000);

  it("needs a model", async () => {
    const t = await setUp();
    const result = await execa(process.execPath, [BIN, "test", "--baseline", "--yes"], {
      cwd: t.path("home/repo"),
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: t.path("home"),
        SKILLWRIGHT_HOME: t.path("home"),
      },
      extendEnv: false,
      reject: false,
      stdin: "ignore",
    });
    expect(result.exitCode).toBe(2);
    expect(String(result.stderr)).toContain("set ANTHROPIC_API_KEY");
  }, 120_000);
});
