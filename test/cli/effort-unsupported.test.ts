/** A skill asking for an effort its model cannot take is told so by `validate` and `doctor` (issue #27 item 1). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { cli } from "./run-cli.js";

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({
    "home/repo/.git": { dir: true },
    "home/repo/.claude/skills/slow/SKILL.md":
      "---\ndescription: Slow\nmodel: claude-sonnet-4-5\neffort: high\n---\nBody\n",
    "home/repo/.claude/skills/fine/SKILL.md":
      "---\ndescription: Fine\nmodel: claude-haiku-5-5\neffort: high\n---\nBody\n",
    "home/repo/.claude/skills/plain/SKILL.md": "---\ndescription: Plain\neffort: low\n---\nBody\n",
  });
});
afterAll(() => tree.cleanup());

const WARNING =
  "effort-unsupported: effort: high is not sent: the model claude-sonnet-4-5 takes no effort setting";

describe("effort-unsupported", () => {
  it("validate warns for the skill whose model takes no effort, and only for it; exit 0", async () => {
    const result = await cli(tree, ["validate", ".claude/skills"]);
    expect(result.code).toBe(0);
    expect(result.stdout.match(/effort-unsupported/g)).toHaveLength(1);
    expect(result.stdout).toContain(`warning ${WARNING}`);
  });

  it("doctor lists it under the skill's file", async () => {
    const result = await cli(tree, ["doctor"]);
    expect(result.stdout).toContain(
      `${tree.path("home/repo/.claude/skills/slow/SKILL.md")}\n    warning ${WARNING}`,
    );
  });
});
