import { readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Discovery } from "../../src/catalog/catalog.js";
import { corpusPath, describeWithCorpus } from "../support/corpus.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { engineFor, treeSkills } from "./engine-for.js";

/** Skills we wrote in the shapes real authors use (test/fixtures/skill-shapes). */
const SHAPES = fileURLToPath(new URL("../fixtures/skill-shapes", import.meta.url));

/**
 * A folder of skill folders, read in place as a project's `.claude/skills`: every skill loads cleanly, and
 * `long` is the one with a block-scalar description over 1,024 characters and a body over 500 lines.
 */
function skillsFolder(dir: () => string, long: string, atLeast: number) {
  let tree: TmpTree;
  let discovery: Discovery;
  beforeAll(async () => {
    tree = await tmpTree({
      "home/repo/.git": { dir: true },
      "home/repo/.claude/skills": { symlink: dir() },
    });
    discovery = await engineFor(tree).discover();
  });
  afterAll(() => tree?.cleanup());

  it("every skill loads, with no error or warning diagnostic", async () => {
    const dirs = (await readdir(dir(), { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(dirs.length).toBeGreaterThanOrEqual(atLeast);
    expect(treeSkills(tree, discovery).map((s) => s.name)).toEqual(dirs);
    expect(discovery.diagnostics.filter((d) => d.severity !== "info")).toEqual([]);
  });

  it("names equal their dirs (no alias) and descriptions come from the frontmatter", () => {
    for (const skill of treeSkills(tree, discovery)) {
      expect(skill.alias, skill.name).toBeUndefined();
      expect(skill.descriptionFromBody, skill.name).toBe(false);
      expect(skill.description.length, skill.name).toBeGreaterThan(50);
      expect(skill.description, skill.name).not.toMatch(/\n/);
      expect(skill.baseDir).toBe(tree.path(`home/repo/.claude/skills/${skill.name}`));
    }
  });

  it(`${long}: the long block-scalar description is kept whole; the body loads on demand`, async () => {
    const skill = treeSkills(tree, discovery).find((s) => s.name === long);
    expect(skill?.description.length).toBeGreaterThan(1_024);
    expect(skill?.license).toBeDefined();
    const body = await skill?.loadBody();
    expect(body?.split("\n").length).toBeGreaterThan(500);
    expect(body?.startsWith("---")).toBe(false);
  });
}

describe("skills in the shapes real authors write (test/fixtures/skill-shapes)", () => {
  skillsFolder(() => SHAPES, "api-guide", 5);
});

describeWithCorpus("the anthropics/skills corpus, read in place", () => {
  skillsFolder(() => corpusPath("anthropics-skills"), "claude-api", 10);
});
