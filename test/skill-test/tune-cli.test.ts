import { readFile } from "node:fs/promises";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { PROPOSAL_SYSTEM } from "../../src/skill-test/tune-prompt.js";
import { splitPrompts, type TunePrompt } from "../../src/skill-test/tune-split.js";
import { assertBuilt, BIN } from "../cli/run-cli.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

/** The skill tuned: a vague description; its frontmatter has more than the description, to be kept byte for byte. */
const CURRENT = "Helps with release things.";
const DEPLOY = `---
name: deploy
# how it ships
description: ${CURRENT}
allowed-tools: Bash(./ship.sh *)
---
Run ./ship.sh with the build's name.
`;
const SHOULD = ["ship build alpha", "ship build beta", "ship build gamma", "ship build delta"];
const SHOULD_NOT = ["what time is it", "tell me a joke"];
const DEPLOY_CASES = `cases:
  - name: shipping
    kind: trigger
    should: ${JSON.stringify(SHOULD)}
    should_not: ${JSON.stringify(SHOULD_NOT)}
    runs: 1
`;
/** A neighbour: it shares "release" with the tuned skill, so the offline search ranks it close. */
const NOTES = `---
name: notes
description: Writes release notes. Use when asked for release notes.
---
Write the notes.
`;
const NOTES_SHOULD = ["write release notes for alpha", "write release notes for beta"];
const NOTES_CASES = `cases:
  - name: notes
    kind: trigger
    should: ${JSON.stringify(NOTES_SHOULD)}
    runs: 1
`;

const SEED = 1;
/** The split tune makes with --seed 1: the prompts in the order it reads them. */
function expectedSplit() {
  const of = (owner: string, expected: TunePrompt["expected"]) => (prompt: string) => ({
    prompt,
    owner,
    expected,
    runs: 1,
  });
  return splitPrompts(
    [
      ...SHOULD.map(of("deploy", "trigger")),
      ...SHOULD_NOT.map(of("deploy", "no-trigger")),
      ...NOTES_SHOULD.map(of("notes", "trigger")),
    ],
    SEED,
  );
}

const call = (skill: string) => ({
  response: { content: [{ type: "tool_use" as const, name: "Skill", input: { skill } }] },
});
const text = (t: string) => ({ response: { content: [{ type: "text" as const, text: t }] } });

/**
 * The model: a proposal request gets `proposal`; a trigger run calls deploy when its listing shows one of the
 * descriptions in `triggers` and its prompt is one of that description's prompts, notes for notes' prompts,
 * and no skill otherwise.
 */
function script(proposal: string, triggers: Record<string, string[]>): ScriptTurnInput[] {
  return [
    { match: { systemIncludes: PROPOSAL_SYSTEM.split("\n")[0] ?? "" }, ...text(proposal) },
    ...Object.entries(triggers).flatMap(([description, prompts]) =>
      prompts.map((prompt) => ({
        match: { lastUserTextIncludes: [`- deploy: ${description}`, prompt] },
        repeat: true,
        ...call("deploy"),
      })),
    ),
    { match: { lastUserTextIncludes: "write release notes" }, repeat: true, ...call("notes") },
    { repeat: true, ...text("No skill needed.") },
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

async function setUp(turns: ScriptTurnInput[]): Promise<TmpTree> {
  server = await startModelServer({ apiKey: "sk-test", script: { turns } });
  tree = await tmpTree({
    "home/repo/.git/HEAD": "ref: refs/heads/main\n",
    "home/repo/.claude/skills/deploy/SKILL.md": DEPLOY,
    "home/repo/.claude/skills/deploy/tests/trigger.yaml": DEPLOY_CASES,
    "home/repo/.claude/skills/notes/SKILL.md": NOTES,
    "home/repo/.claude/skills/notes/tests/trigger.yaml": NOTES_CASES,
  });
  return tree;
}

/** The bin with stdin not a terminal; a long timeout: every run opens a real session on a loaded machine. */
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

interface Scores {
  recall: number | null;
  score: number;
  neighbours: { name: string; precision?: number }[];
}
interface Report {
  skill: string;
  seed: number;
  split: { working: { prompt: string }[]; heldOut: { prompt: string }[] };
  neighbours: string[];
  current: { description: string; working: Scores; heldOut?: Scores };
  candidates: { description: string; working?: Scores; heldOut?: Scores }[];
  chosen?: number;
  verdict: { proposed: boolean; reason: string; description?: string };
  written: boolean;
}

const skillFile = (t: TmpTree) => t.path("home/repo/.claude/skills/deploy/SKILL.md");

describe("skillwright tune", () => {
  it("--help shows its usage, options and examples", async () => {
    const result = await execa(process.execPath, [BIN, "tune", "--help"], { reject: false });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Usage: skillwright tune <skill>/);
    for (const option of ["--candidates", "--seed", "--write", "--yes", "--json", "--model"]) {
      expect(result.stdout).toContain(option);
    }
    expect(result.stdout).toContain("skillwright tune deploy --yes --write");
  });

  it("keeps a description that does better held out, and --write writes only its description: line", async () => {
    const good = "Ships builds to production. Use when asked to ship a build.";
    const t = await setUp(script(good, { [good]: SHOULD }));
    const split = expectedSplit();
    const result = await bin(t, [
      "tune",
      "deploy",
      "--candidates",
      "1",
      "--seed",
      String(SEED),
      "--yes",
      "--json",
      "--write",
    ]);
    expect(result.code, result.stderr).toBe(0);
    // 1 proposal, 2 descriptions × 5 working runs, 2 × 3 held-out runs.
    expect(split.working).toHaveLength(5);
    expect(result.stderr).toContain("tune: up to 17 model calls");
    expect(result.stderr).toContain("working 5 prompt(s): 3 should, 1 should-not, 1 of neighbours");
    const report = JSON.parse(result.stdout) as Report;
    expect(report.split.heldOut.map((p) => p.prompt)).toEqual(split.heldOut.map((p) => p.prompt));
    expect(report.neighbours).toEqual(["notes"]);
    expect(report.current.working.recall).toBe(0);
    expect(report.candidates[0]?.working?.recall).toBe(1);
    expect(report.current.heldOut?.recall).toBe(0);
    expect(report.candidates[0]?.heldOut?.recall).toBe(1);
    expect(report.candidates[0]?.heldOut?.neighbours).toEqual([{ name: "notes", precision: 1 }]);
    expect(report.verdict).toMatchObject({ proposed: true, description: good });
    expect(report.verdict.reason).toContain("held-out recall rose (0% → 100%)");
    expect(report.written).toBe(true);
    expect(await readFile(skillFile(t), "utf8")).toBe(
      DEPLOY.replace(`description: ${CURRENT}`, `description: ${good}`),
    );

    const posts = server?.requests.filter((r) => r.path.startsWith("/v1/messages")) ?? [];
    expect(posts).toHaveLength(17);
    // The proposal request shows the working prompts and never a held-out one.
    const proposal = JSON.stringify(posts[0]?.body);
    expect(proposal).toContain(PROPOSAL_SYSTEM.split("\n")[0]);
    for (const p of split.working) expect(proposal).toContain(p.prompt);
    for (const p of split.heldOut) expect(proposal).not.toContain(p.prompt);
    // Each trigger run listed the description under test: the current one for 5 + 3 runs, the candidate's for the rest.
    const listing = (description: string) =>
      posts.filter((r) => JSON.stringify(r.body).includes(`- deploy: ${description}`)).length;
    expect(listing(CURRENT)).toBe(8);
    expect(listing(good)).toBe(8);
  });

  it("refuses a description that does better on the working part but worse held out, and writes nothing", async () => {
    const split = expectedSplit();
    const heldOutShould = split.heldOut.filter((p) => p.owner === "deploy" && p.expected === "trigger");
    const workingShould = split.working.filter((p) => p.owner === "deploy" && p.expected === "trigger");
    expect(heldOutShould).toHaveLength(1);
    // Not the prompts themselves: the matcher reads the listing and the prompt as one text.
    const overfit = "Ships the few builds it was shown, and no other.";
    const t = await setUp(
      script(overfit, {
        [CURRENT]: heldOutShould.map((p) => p.prompt),
        [overfit]: workingShould.map((p) => p.prompt),
      }),
    );
    const result = await bin(t, [
      "tune",
      "deploy",
      "--candidates",
      "1",
      "--seed",
      String(SEED),
      "--yes",
      "--json",
      "--write",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.current.working.recall).toBe(0);
    expect(report.candidates[0]?.working?.recall).toBe(1);
    expect(report.chosen).toBe(1);
    expect(report.current.heldOut?.recall).toBe(1);
    expect(report.candidates[0]?.heldOut?.recall).toBe(0);
    expect(report.verdict.proposed).toBe(false);
    expect(report.verdict.reason).toContain("held-out recall did not rise (100% → 0%)");
    expect(report.written).toBe(false);
    expect(result.stderr).toContain("nothing written");
    expect(await readFile(skillFile(t), "utf8")).toBe(DEPLOY);
  });

  it("prints the before/after table; without --yes and a terminal it says the count and runs nothing", async () => {
    const good = "Ships builds to production.";
    const t = await setUp(script(good, { [good]: SHOULD }));
    const refused = await bin(t, ["tune", "deploy", "--candidates", "1"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("model calls");
    expect(refused.stderr).toContain("Not run: pass --yes");
    expect(server?.requests.filter((r) => r.path.startsWith("/v1/messages"))).toHaveLength(0);

    const table = await bin(t, ["tune", "deploy", "--candidates", "1", "--yes"]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/description\s+part\s+recall\s+false\s+score\s+offline\s+notes/);
    expect(table.stdout).toMatch(/current\s+working\s+0%/);
    expect(table.stdout).toMatch(/candidate 1\s+held out\s+100%/);
    expect(table.stdout).toContain(`description: ${good}`);
    expect(table.stdout).toContain("run with --write to write it into");
    expect(await readFile(skillFile(t), "utf8")).toBe(DEPLOY);
  });

  it("an unknown skill is an error; a missing name is a usage error", async () => {
    const t = await setUp([]);
    const unknown = await bin(t, ["tune", "nope", "--yes"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no skill "nope"');
    const missing = await bin(t, ["tune"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("tune needs one skill name");
  });
});
