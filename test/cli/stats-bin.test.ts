import { execa } from "execa";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn, toolTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { assertBuilt, BIN } from "./run-cli.js";

beforeAll(() => {
  assertBuilt();
});

let tree: TmpTree | undefined;
let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  await tree?.cleanup();
});

describe("skillwright stats (issue #31 item 3)", () => {
  it("counts each skill's invocations by trigger, with the last use, and names the skills never invoked", async () => {
    tree = await tmpTree({
      "home/.claude/skills/greet/SKILL.md": "---\ndescription: Greets people\n---\nSay hello.\n",
      "home/.claude/skills/unused/SKILL.md": "---\ndescription: Never called\n---\nNothing.\n",
      "repo/.git": { dir: true },
    });
    const t = tree;
    model = await startTestModel([
      toolTurn("Skill", { skill: "greet" }, { match: { lastUserTextIncludes: "say hi" } }),
      textTurn("Hello!", { hasToolResultFor: "Skill" }),
      textTurn("Typed hello!"),
    ]);
    const m = model;
    const run = (args: string[]) =>
      execa(process.execPath, [BIN, "--cwd", t.path("repo"), "--home", t.path("home"), ...args], {
        env: {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: t.path("home"),
          ANTHROPIC_BASE_URL: m.server.url,
          ANTHROPIC_API_KEY: TEST_API_KEY,
        },
        extendEnv: false,
        reject: false,
        timeout: 60_000,
      });
    expect((await run(["-p", "say hi"])).exitCode).toBe(0);
    expect((await run(["-p", "/greet"])).exitCode).toBe(0);
    const json = await run(["stats", "--json"]);
    expect(json.exitCode, json.stderr).toBe(0);
    const parsed = JSON.parse(json.stdout) as {
      skills: { name: string; invocations: number; triggers: Record<string, number>; lastUsedAt: string }[];
      neverInvoked: string[];
    };
    expect(parsed.skills).toEqual([
      { name: "greet", invocations: 2, triggers: { model: 1, user: 1 }, lastUsedAt: expect.any(String) },
    ]);
    expect(Date.parse(parsed.skills[0]?.lastUsedAt ?? "")).toBeGreaterThan(Date.now() - 600_000);
    expect(parsed.neverInvoked).toContain("unused");
    expect(parsed.neverInvoked).not.toContain("greet");
    const text = await run(["stats"]);
    expect(text.stdout).toMatch(
      /^skill +invocations +triggers +last used\ngreet +2 +user 1, model 1 +\d{4}-\d\d-\d\d \d\d:\d\d\n/,
    );
    expect(text.stdout).toMatch(/Never invoked \(\d+\): .*unused/);
  });
});
