import { afterEach, describe, expect, it } from "vitest";
import { isInside, projectDirs } from "../../src/config/project.js";
import { createNodeFs } from "../../src/io/fs.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

// Tests of src/config/project.ts live here: the project walk-up is the first step of discovery (SPEC §2).

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

describe("projectDirs", () => {
  it.each([
    {
      case: "git root above the cwd",
      git: ["home/repo"],
      cwd: "home/repo/a/b",
      dirs: ["home/repo/a/b", "home/repo/a", "home/repo"],
      gitRoot: "home/repo",
    },
    {
      case: "cwd is the git root",
      git: ["home/repo"],
      cwd: "home/repo",
      dirs: ["home/repo"],
      gitRoot: "home/repo",
    },
    {
      case: "nearest git root wins",
      git: ["home/repo", "home/repo/sub"],
      cwd: "home/repo/sub/x",
      dirs: ["home/repo/sub/x", "home/repo/sub"],
      gitRoot: "home/repo/sub",
    },
    {
      case: "no repo, under home",
      git: [],
      cwd: "home/a/b",
      dirs: ["home/a/b", "home/a"],
      gitRoot: undefined,
    },
    { case: "no repo, cwd is home", git: [], cwd: "home", dirs: [], gitRoot: undefined },
    { case: "no repo, outside home", git: [], cwd: "other/a", dirs: ["other/a"], gitRoot: undefined },
    {
      case: "home is a repo (dotfiles)",
      git: ["home"],
      cwd: "home/proj/src",
      dirs: ["home/proj/src", "home/proj"],
      gitRoot: "home",
    },
    { case: "home is a repo, cwd is home", git: ["home"], cwd: "home", dirs: [], gitRoot: "home" },
  ])("$case", async ({ git, cwd, dirs, gitRoot }) => {
    const entries: Record<string, { dir: true }> = {
      [`${cwd}/.keep`]: { dir: true },
      "home/.keep": { dir: true },
    };
    for (const g of git) entries[`${g}/.git`] = { dir: true };
    const t = await tmpTree(entries);
    tree = t;
    const result = await projectDirs(createNodeFs(), t.path(cwd), t.path("home"));
    expect(result.dirs).toEqual(dirs.map((d) => t.path(d)));
    expect(result.gitRoot).toBe(gitRoot === undefined ? undefined : t.path(gitRoot));
  });

  it("a .git file (worktree, submodule) marks a root too", async () => {
    const t = await tmpTree({ "home/wt/.git": "gitdir: /elsewhere", "home/wt/src/.keep": "" });
    tree = t;
    const result = await projectDirs(createNodeFs(), t.path("home/wt/src"), t.path("home"));
    expect(result.gitRoot).toBe(t.path("home/wt"));
  });
});

describe("isInside", () => {
  it.each([
    ["/a/b", "/a", true],
    ["/a", "/a", true],
    ["/ab", "/a", false],
    ["/", "/a", false],
    ["/a/../b", "/a", false],
    ["/a/..b", "/a", true],
  ])("%s inside %s → %s", (path, dir, expected) => {
    expect(isInside(path, dir)).toBe(expected);
  });
});
