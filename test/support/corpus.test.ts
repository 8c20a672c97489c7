import { mkdir, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findCorpus } from "./corpus.js";
import { type TmpTree, tmpTree } from "./tmp-tree.js";

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({
    "shared/corpus/anthropics-skills": { dir: true },
    "main/.git/worktrees/wt/commondir": "../..\n",
    "lonely/.git": { dir: true },
  });
  // A worktree placed away from its main checkout: its `.git` file names the main `.git`.
  await mkdir(tree.path("away/wt"), { recursive: true });
  await writeFile(tree.path("away/wt/.git"), `gitdir: ${tree.path("main/.git/worktrees/wt")}\n`);
});
afterAll(() => tree.cleanup());

describe("findCorpus", () => {
  it("finds shared/corpus beside the checkout", () => {
    expect(findCorpus({}, tree.path("main"))).toBe(tree.path("shared/corpus"));
  });

  it("finds it beside the main checkout of a git worktree placed elsewhere", () => {
    expect(findCorpus({}, tree.path("away/wt"))).toBe(tree.path("shared/corpus"));
  });

  it("is undefined for a clone with nothing beside it", () => {
    expect(findCorpus({}, tree.path("lonely/nested"))).toBeUndefined();
  });

  it("SKILLWRIGHT_CORPUS wins, and must exist when set", () => {
    expect(findCorpus({ SKILLWRIGHT_CORPUS: tree.path("lonely") }, tree.path("main"))).toBe(
      tree.path("lonely"),
    );
    expect(() => findCorpus({ SKILLWRIGHT_CORPUS: tree.path("nope") }, tree.path("main"))).toThrow(
      `SKILLWRIGHT_CORPUS=${tree.path("nope")}: no such folder`,
    );
  });
});
