/** `skillwright search` (issue #25 item 5) on the shipped bin: the ranking the model's SkillSearch gives. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSkillSearchTool } from "../../src/skill-search/tool.js";
import { makeSkill } from "../support/make-skill.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { cli, json } from "./run-cli.js";

const SKILLS = {
  "pdf-forms": "Fills PDF forms from a table of values",
  "pdf-merge": "Merges PDF files into one",
  "sql-tidy": "Formats SQL queries",
  "forms-audit": "Audits web forms for accessibility",
};

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({
    "home/repo/.git": { dir: true },
    ...Object.fromEntries(
      Object.entries(SKILLS).map(([name, d]) => [
        `home/repo/.claude/skills/${name}/SKILL.md`,
        `---\ndescription: ${d}\n---\nB\n`,
      ]),
    ),
    "home/repo/.claude/skills/hidden-forms/SKILL.md":
      "---\ndescription: Fills forms by hand\ndisable-model-invocation: true\n---\nB\n",
    "home/repo/.claude/skills/py-forms/SKILL.md": '---\ndescription: Python forms\npaths: "*.py"\n---\nB\n',
  });
});
afterAll(() => tree.cleanup());

describe("skillwright search", () => {
  it("ranks as SkillSearch does, leaving out what the model cannot call or see yet", async () => {
    const result = await cli(tree, ["search", "fill", "pdf", "forms", "--json"]);
    expect(result.code).toBe(0);
    const ranked = json<{ name: string; score: number; description: string }[]>(result);
    // The model's tool over the same skills gives the same order.
    const tool = createSkillSearchTool({
      // In listing order (by name here), as the session hands them to it: ties keep that order.
      skills: () =>
        Object.entries(SKILLS)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([name, description]) => makeSkill({ name, description })),
    });
    const answer = await tool.run(
      { query: "fill pdf forms" },
      { cwd: "/", signal: new AbortController().signal, toolUseId: "t" },
    );
    const text = answer.content.map((c) => ("text" in c ? c.text : "")).join("");
    const toolOrder = [...text.matchAll(/^- ([a-z-]+):/gm)].map((m) => m[1]);
    expect(ranked.map((r) => r.name)).toEqual(toolOrder);
    expect(ranked[0]).toMatchObject({ name: "pdf-forms", description: SKILLS["pdf-forms"] });
    expect(ranked.map((r) => r.name)).not.toContain("hidden-forms");
    expect(ranked.map((r) => r.name)).not.toContain("py-forms");
    expect(ranked.map((r) => r.score)).toEqual([...ranked.map((r) => r.score)].sort((a, b) => b - a));
  });

  it("text output, --limit, no match, and no query", async () => {
    const top = await cli(tree, ["search", "pdf", "--limit", "1"]);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(
      /^ 1\. pdf-(forms|merge) {2}\[project\] {2}score \d+\.\d\d {2}listed: full\n {4}.+\n$/,
    );
    const none = await cli(tree, ["search", "zebra"]);
    expect(none.stdout).toBe('No skill matches "zebra".\n');
    const empty = await cli(tree, ["search"]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("search needs a query");
  });
});
