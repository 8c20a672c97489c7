import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestModel, TEST_API_KEY, textTurn } from "../support/model-server.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { cli, json } from "./run-cli.js";

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({
    "home/repo/.git": { dir: true },
    "home/repo/.claude/skills/lint-docs/SKILL.md": "---\ndescription: Project lint\n---\nPROJECT\n",
    "home/.skillwright/environments/work/skills/release-notes/skill.md":
      "---\nname: Release Notes\ndescription: Writes release notes\n---\nENV-BODY\n",
    "home/.skillwright/environments/play/skills/.keep": "",
  });
});
afterAll(() => tree.cleanup());

describe("--env NAME (named environments)", () => {
  it("list: the environment's skills, with their display title", async () => {
    const result = await cli(tree, ["list", "--env", "work", "--json"]);
    expect(result.code).toBe(0);
    const skills = json<{ name: string; title?: string; path: string }[]>(result);
    expect(skills.map((s) => [s.name, s.title])).toEqual([
      ["release-notes", "Release Notes"],
      ["lint-docs", undefined],
    ]);
    const text = await cli(tree, ["list", "--env", "work"]);
    expect(text.stdout).toContain('release-notes "Release Notes"  [user]');
    // Without --env the environment is not used.
    const plain = json<{ name: string }[]>(await cli(tree, ["list", "--json"]));
    expect(plain.map((s) => s.name)).toEqual(["lint-docs"]);
  });

  it("show and doctor use it too", async () => {
    const show = await cli(tree, ["show", "release-notes", "--env", "work"]);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain("ENV-BODY");
    const doctor = await cli(tree, ["doctor", "--env", "work"]);
    expect(doctor.stdout).toContain("environment work");
  });

  it("an unknown environment exits 2 and names the ones that exist", async () => {
    const result = await cli(tree, ["list", "--env", "nope"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain('unknown environment "nope"');
    expect(result.stderr).toContain("play, work");
  });

  it("-p --env --watch: the model is offered the environment's skills, and the run ends", async () => {
    const model = await startTestModel([textTurn("done")]);
    try {
      const result = await cli(tree, ["-p", "hello", "--env", "work", "--watch"], "home/repo", {
        ANTHROPIC_API_KEY: TEST_API_KEY,
        ANTHROPIC_BASE_URL: model.server.url,
      });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe("done\n");
      const body = JSON.stringify(model.server.requests.find((r) => r.path === "/v1/messages")?.body);
      expect(body).toContain("- release-notes: Writes release notes");
    } finally {
      await model.close();
    }
  });
});
