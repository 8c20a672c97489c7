import { afterEach, describe, expect, it } from "vitest";
import { createIgnoredDirCheck } from "../../src/activation/ignored-dirs.js";
import { createNodeFs } from "../../src/io/fs.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

describe("createIgnoredDirCheck", () => {
  it("reads .gitignore files from the cwd down, parents first, with re-includes", async () => {
    tree = await tmpTree({
      "repo/.gitignore": "build/\ngen*\n!generated-keep/\n",
      "repo/pkg/.gitignore": "local/\n",
      "repo/pkg/src/a.ts": "",
    });
    const cwd = tree.path("repo");
    const isIgnored = createIgnoredDirCheck({ fs: createNodeFs(), cwd });
    const table: [dir: string, expected: boolean][] = [
      ["repo/pkg", false],
      ["repo/pkg/src", false],
      ["repo/build", true],
      ["repo/build/deep/er", true],
      ["repo/pkg/build", true],
      ["repo/gen-out", true],
      ["repo/generated-keep", false],
      ["repo/pkg/local", true],
      ["repo/local", false],
      ["repo/node_modules", true],
      ["repo/pkg/node_modules/x", true],
      ["repo/.git", true],
      ["repo", false],
      ["elsewhere", false],
    ];
    for (const [dir, expected] of table) {
      expect([dir, await isIgnored(tree.path(dir))]).toEqual([dir, expected]);
    }
  });

  it("applies the git root's .gitignore when the cwd is below it", async () => {
    tree = await tmpTree({ ".gitignore": "vendor/\n", "app/x": "" });
    const fs = createNodeFs();
    const cwd = tree.path("app");
    expect(await createIgnoredDirCheck({ fs, cwd })(tree.path("app/vendor"))).toBe(false);
    expect(await createIgnoredDirCheck({ fs, cwd, gitRoot: tree.root })(tree.path("app/vendor"))).toBe(true);
  });
});
