import { existsSync } from "node:fs";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../src/dev/model-server.js";
import { BIN, cli, json } from "../cli/run-cli.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

/** The escape character that starts the bar's clear-to-end-of-line sequence. */
const ESC = String.fromCharCode(27);

const FILES = {
  "home/repo/.git/HEAD": "ref: refs/heads/main\n",
  "home/repo/.claude/skills/greet/SKILL.md": "---\nname: greet\ndescription: Greets someone.\n---\nHello\n",
  "home/repo/.claude/skills/greet/tests/trigger.yaml": `cases:
  - name: greetings
    kind: trigger
    should: ["say hello"]
    should_not: ["deploy it"]
    runs: 2
  - name: plain listing
    kind: listing
    expect: full
`,
};

let tree: TmpTree | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  await tree?.cleanup();
  server = undefined;
  tree = undefined;
});

async function setUp(): Promise<{ t: TmpTree; env: Record<string, string> }> {
  server = await startModelServer({
    apiKey: "sk-test",
    script: {
      turns: [
        {
          match: { lastUserTextIncludes: "say hello" },
          repeat: true,
          response: { content: [{ type: "tool_use", name: "Skill", input: { skill: "greet" } }] },
        },
        { repeat: true, response: { content: [{ type: "text", text: "ok" }] } },
      ],
    },
  });
  tree = await tmpTree(FILES);
  return { t: tree, env: { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: server.url } };
}

describe("skillwright test: progress of model runs", () => {
  it("without a terminal: one plain line per model run on stderr, no control characters", async () => {
    const { t, env } = await setUp();
    const result = await cli(t, ["test"], "home/repo", env);
    expect(result.code).toBe(0);
    const lines = result.stderr.split("\n").filter((l) => l !== "");
    expect(lines.map((l) => l.replace(/\(.*?\)/, "(…)"))).toEqual([
      "model run 1/4 (…): greet › greetings",
      "model run 2/4 (…): greet › greetings",
      "model run 3/4 (…): greet › greetings",
      "model run 4/4 (…): greet › greetings",
    ]);
    expect(result.stderr).not.toContain("\r");
    expect(result.stderr).not.toContain("\x1b");
    expect(result.stdout).toContain("2 passed, 0 failed");
  });

  it("never with --json: stderr stays empty and stdout is the report alone", async () => {
    const { t, env } = await setUp();
    const result = await cli(t, ["test", "--json"], "home/repo", env);
    expect(result.stderr).toBe("");
    expect(json<{ ok: boolean }>(result).ok).toBe(true);
  });

  it.skipIf(!existsSync("/usr/bin/script"))("on a terminal: a bar redrawn in place", async () => {
    const { t, env } = await setUp();
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} test`;
    const result = await execa("/usr/bin/script", ["-qec", command, "/dev/null"], {
      cwd: t.path("home/repo"),
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: t.path("home"),
        SKILLWRIGHT_HOME: t.path("home"),
        SKILLWRIGHT_MANAGED_DIR: t.path("managed"),
        SKILLWRIGHT_BUNDLED_DIR: t.path("bundled"),
        ...env,
      },
      extendEnv: false,
      reject: false,
      stdin: "ignore",
      timeout: 30_000,
    });
    const output = String(result.stdout);
    expect(output).toContain(`\r[${"░".repeat(24)}] 0/4 model runs · `);
    expect(output).toMatch(
      new RegExp(`\r\\[█{24}\\] 4/4 model runs · [\\d.]+s · greet › greetings${ESC}\\[K`),
    );
    expect(output).not.toContain("model run 1/4");
    expect(output).toContain("2 passed, 0 failed");
  });
});
