/**
 * SPEC §14 Skill tool rules through the shipped bin (`node dist/bin/main.js -p …`) against the scripted model
 * server: default effort, re-invocation, the name as called, the fork result and a typed model-only command.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AGENT_ID_HEADER } from "../../src/agent/model-types.js";
import type { ScriptTurnInput } from "../../src/dev/model-script.js";
import type { RequestBody } from "../support/harness.js";
import { lastUser, resultText, skillMd, textBlocks, toolResults } from "../support/harness.js";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

/** The shipped bin (package.json "bin"); CI runs `npm run build` before the tests. */
const BIN = fileURLToPath(new URL("../../dist/bin/main.js", import.meta.url));

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({
    "home/.keep": "",
    "home-switch/.claude/settings.json": JSON.stringify({ skillModelSwitch: true }),
    "project/.git": { dir: true },
    "project/notes.txt": "alpha\n",
    "project/.claude/skills/pdf-tools/SKILL.md": skillMd(
      "name: pdf\ndescription: PDF work",
      "Use pdftk on $ARGUMENTS.",
    ),
    "project/.claude/skills/scan/SKILL.md": skillMd(
      "description: Scans the notes\ncontext: fork",
      "SCAN-TASK",
    ),
    "project/.claude/skills/quick/SKILL.md": skillMd(
      "description: Fast\nmodel: haiku\neffort: high",
      "Be quick.",
    ),
    "project/.claude/skills/internal/SKILL.md": skillMd(
      "description: Model only\nuser-invocable: false",
      "I.",
    ),
  });
});
afterAll(() => tree.cleanup());

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function runBin(turns: ScriptTurnInput[], prompt: string, home = "home") {
  expect(existsSync(BIN), `${BIN} is missing: run \`npm run build\` before the tests`).toBe(true);
  await model?.close();
  model = await startTestModel(turns);
  const run = await execa(
    process.execPath,
    [BIN, "-p", prompt, "--allowedTools", "Skill", "--cwd", tree.path("project"), "--home", tree.path(home)],
    {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: tree.path(home),
        ANTHROPIC_API_KEY: TEST_API_KEY,
        ANTHROPIC_BASE_URL: model.server.url,
        SKILLWRIGHT_MANAGED_DIR: tree.path("managed"),
      },
      extendEnv: false,
      reject: false,
      timeout: 30_000,
    },
  );
  const requests = model.server.requests.filter((r) => r.path === "/v1/messages");
  return { run, requests, bodies: requests.map((r) => r.body as RequestBody) };
}

describe("node dist/bin/main.js -p (SPEC §14)", () => {
  it("medium effort, the alias as called, and re-invocations of one skill in one run", async () => {
    const { run, bodies } = await runBin(
      [
        toolTurn("Skill", { skill: "pdf", args: "a.pdf" }),
        toolTurn("Skill", { skill: "pdf-tools", args: "a.pdf" }),
        toolTurn("Skill", { skill: "/pdf", args: "b.pdf" }),
        textTurn("merged"),
      ],
      "merge the pdfs",
    );
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    expect(run.stdout.trim()).toBe("merged");
    expect(bodies.map((b) => b.output_config)).toEqual(Array(4).fill({ effort: "medium" }));
    const base = `Base directory for this skill: ${tree.path("project/.claude/skills/pdf-tools")}`;
    const answer = (index: number) => {
      const body = bodies[index];
      if (body === undefined) throw new Error(`no request #${index}`);
      const [result] = toolResults(body);
      const texts = textBlocks(lastUser(body).content).filter((t) => !t.startsWith("<system-reminder>"));
      return [result === undefined ? "" : resultText(result), ...texts];
    };
    expect(answer(1)).toEqual(["Launching skill: pdf", `${base}\n\nUse pdftk on a.pdf.`]);
    expect(answer(2)).toEqual([
      "Launching skill: pdf-tools",
      "Skill /pdf-tools is already loaded above; instructions unchanged.",
    ]);
    expect(answer(3)).toEqual([
      "Launching skill: pdf",
      "(Re-invocation of /pdf — the skill instructions were previously loaded; the arguments or dynamic output " +
        "below are new.)",
      // The body as the first call sent it (a.pdf), as Claude Code re-sends it.
      `${base}\n\nUse pdftk on a.pdf.`,
    ]);
  });

  it("a fork that used tools answers with the tools line, then the result", async () => {
    const { run, requests } = await runBin(
      [
        toolTurn("Skill", { skill: "scan" }, { match: { agentId: null, lastUserTextIncludes: "scan" } }),
        toolTurn(
          "Glob",
          { pattern: "*.txt" },
          { match: { agentId: "*", lastUserTextIncludes: "SCAN-TASK" } },
        ),
        textTurn("Found notes.txt.", { agentId: "*", hasToolResultFor: "Glob" }),
        textTurn("Scanned.", { agentId: null, hasToolResultFor: "Skill" }),
      ],
      "scan the notes",
    );
    expect(run.exitCode).toBe(0);
    expect(run.stdout.trim()).toBe("Scanned.");
    const sub = requests.filter((r) => r.headers[AGENT_ID_HEADER] !== undefined);
    expect(sub.map((r) => (r.body as RequestBody).output_config)).toEqual([
      { effort: "medium" },
      { effort: "medium" },
    ]);
    const main = requests.filter((r) => r.headers[AGENT_ID_HEADER] === undefined);
    const [result] = toolResults(main.at(-1)?.body as RequestBody);
    expect(result && resultText(result)).toBe(
      "<tools-used-before-summary>Glob</tools-used-before-summary>\n" +
        'Skill "scan" completed (forked execution).\n\nResult:\nFound notes.txt.',
    );
  });

  it("a skill's model: kept with a note when the model calls it; switched when typed or with skillModelSwitch", async () => {
    const SESSION = "claude-sonnet-5-5";
    const HAIKU = "claude-haiku-5-5";
    const called = await runBin([toolTurn("Skill", { skill: "quick" }), textTurn("done")], "be quick");
    expect(called.run.exitCode).toBe(0);
    expect(called.bodies.map((b) => [b.model, b.output_config])).toEqual([
      [SESSION, { effort: "medium" }],
      [SESSION, { effort: "high" }],
    ]);
    const second = called.bodies[1];
    if (second === undefined) throw new Error("no second request");
    expect(textBlocks(lastUser(second).content).at(-1)).toBe(
      `<system-reminder>The skill "quick" names the model ${HAIKU}; this conversation stays on ${SESSION}, ` +
        "so follow its instructions here.</system-reminder>",
    );
    // The second request begins with the first one's messages (cache_control markers aside): the prefix holds.
    const unmarked = (value: unknown) =>
      JSON.stringify(value, (key, v: unknown) => (key === "cache_control" ? undefined : v));
    const firstMessages = called.bodies[0]?.messages ?? [];
    expect(unmarked(second.messages.slice(0, firstMessages.length))).toBe(unmarked(firstMessages));

    const typed = await runBin([textTurn("typed")], "/quick");
    expect(typed.bodies.map((b) => [b.model, b.output_config])).toEqual([[HAIKU, { effort: "high" }]]);

    const switched = await runBin(
      [toolTurn("Skill", { skill: "quick" }), textTurn("done")],
      "be quick",
      "home-switch",
    );
    expect(switched.bodies.map((b) => [b.model, b.output_config])).toEqual([
      [SESSION, { effort: "medium" }],
      [HAIKU, { effort: "high" }],
    ]);
    expect(JSON.stringify(switched.bodies[1]?.messages)).not.toContain("names the model");
  });

  it("a typed model-only skill is answered, exit 0, with no model request", async () => {
    const { run, requests } = await runBin([textTurn("never")], "/internal");
    expect(run.exitCode).toBe(0);
    expect(run.stdout.trim()).toBe(
      'This skill can only be invoked by Claude, not directly by users. Ask Claude to use the "internal" skill for you.',
    );
    expect(requests).toEqual([]);
  });
});
