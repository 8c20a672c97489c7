import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Discovery } from "../../src/discovery/discover.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { engineFor, treeSkills } from "./engine-for.js";

/** The real skills of anthropics/skills, read in place (never copied into the project). */
const CORPUS = fileURLToPath(new URL("../../../shared/corpus/anthropics-skills", import.meta.url));

let tree: TmpTree;
let discovery: Discovery;

beforeAll(async () => {
  expect(existsSync(CORPUS), `corpus missing at ${CORPUS}`).toBe(true);
  tree = await tmpTree({
    "home/repo/.git": { dir: true },
    "home/repo/.claude/skills": { symlink: CORPUS },
  });
  discovery = await engineFor(tree).discover();
});
afterAll(() => tree.cleanup());

describe("the anthropics/skills corpus", () => {
  it("every skill loads, with no error or warning diagnostic", async () => {
    const dirs = (await readdir(CORPUS, { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(dirs.length).toBeGreaterThanOrEqual(10);
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

  it("claude-api: the long block-scalar description is kept whole; the body loads on demand", async () => {
    const skill = treeSkills(tree, discovery).find((s) => s.name === "claude-api");
    expect(skill?.description.length).toBeGreaterThan(1_024);
    expect(skill?.license).toBeDefined();
    const body = await skill?.loadBody();
    expect(body?.split("\n").length).toBeGreaterThan(500);
    expect(body?.startsWith("---")).toBe(false);
  });
});
