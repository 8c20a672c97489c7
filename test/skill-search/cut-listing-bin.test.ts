/**
 * Issue #25 item 3 on the shipped bin: 100 skills whose names fit the listing easily but whose descriptions do
 * not all fit get `SkillSearch` from the first request (it used to need the names alone to crowd the budget).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../cli/run-cli.js";
import type { RequestBody } from "../support/harness.js";
import { startTestModel, TEST_API_KEY, type TestModel, textTurn } from "../support/model-server.js";
import { type TmpTree, type TreeEntry, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree;
beforeAll(async () => {
  const files: Record<string, TreeEntry> = { "home/.keep": "", "home/repo/.git": { dir: true } };
  for (let i = 0; i < 100; i++) {
    const name = `task-${String(i).padStart(3, "0")}`;
    // ~330 chars each: 100 of them are about 34,000 chars, over the default model's 30,000-char budget.
    files[`home/repo/.claude/skills/${name}/SKILL.md`] =
      `---\ndescription: Handles task ${i} of the release. ${"Covers the checklist, the notes and the sign-off. ".repeat(6)}\n---\nbody\n`;
  }
  tree = await tmpTree(files);
}, 60_000);
afterAll(() => tree.cleanup());

let model: TestModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

describe("SkillSearch whenever the listing can cut a description", () => {
  it("is offered from the first request", async () => {
    model = await startTestModel([textTurn("ok")]);
    const result = await cli(tree, ["-p", "hello"], "home/repo", {
      ANTHROPIC_API_KEY: TEST_API_KEY,
      ANTHROPIC_BASE_URL: model.server.url,
    });
    expect(result.code).toBe(0);
    const [first] = model.server.requests
      .filter((r) => r.path === "/v1/messages")
      .map((r) => r.body as RequestBody);
    expect(first?.tools?.map((t) => t.name)).toContain("SkillSearch");
  });
});
