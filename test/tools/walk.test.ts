import { mkdir, realpath, symlink } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeFs } from "../../src/io/fs.js";
import { WALK_MAX_DEPTH, walkFiles } from "../../src/tools/walk.js";
import { makeTmp, removeTmp, writeTree } from "./helpers.js";

let dir: string;
beforeEach(async () => {
  dir = await realpath(await makeTmp());
});
afterEach(() => removeTmp(dir));

async function walk(root: string, cwd = dir): Promise<string[]> {
  const out: string[] = [];
  for await (const f of walkFiles({ fs: createNodeFs(), root, cwd })) out.push(f.rel);
  return out;
}

describe("walkFiles", () => {
  it(`enters at most ${WALK_MAX_DEPTH} levels of directories and names each one it does not enter`, async () => {
    const levels = (n: number) => Array.from({ length: n }, (_, i) => `d${i}`).join("/");
    await writeTree(dir, {
      [`${levels(WALK_MAX_DEPTH)}/kept.txt`]: "",
      [`${levels(WALK_MAX_DEPTH + 1)}/cut.txt`]: "",
    });
    const tooDeep: string[] = [];
    const out: string[] = [];
    for await (const f of walkFiles({
      fs: createNodeFs(),
      root: dir,
      cwd: dir,
      onTooDeep: (rel) => tooDeep.push(rel),
    })) {
      out.push(f.rel);
    }
    expect(out).toEqual([`${levels(WALK_MAX_DEPTH)}/kept.txt`]);
    expect(tooDeep).toEqual([levels(WALK_MAX_DEPTH + 1)]);
  });

  it("walks depth first in code-point order, skipping .git and node_modules", async () => {
    await writeTree(dir, {
      "b.txt": "",
      "a/z.txt": "",
      "a/B.txt": "",
      ".hidden": "",
      ".git/config": "",
      "node_modules/x/index.js": "",
      "sub/node_modules/y.js": "",
    });
    expect(await walk(dir)).toEqual([".hidden", "a/B.txt", "a/z.txt", "b.txt"]);
  });

  it("honours root and nested .gitignore files, with negation and dir patterns", async () => {
    await writeTree(dir, {
      ".gitignore": "*.log\nbuild/\n",
      "keep.txt": "",
      "x.log": "",
      "build/out.js": "",
      "pkg/.gitignore": "!important.log\nsecret.txt\n",
      "pkg/important.log": "",
      "pkg/other.log": "",
      "pkg/secret.txt": "",
      "pkg/ok.txt": "",
    });
    expect(await walk(dir)).toEqual([
      ".gitignore",
      "keep.txt",
      "pkg/.gitignore",
      "pkg/important.log",
      "pkg/ok.txt",
    ]);
  });

  it("applies ignore files above the walk root up to the repository root", async () => {
    await writeTree(dir, { ".git/HEAD": "", ".gitignore": "gen/\n", "src/a.ts": "", "src/gen/b.ts": "" });
    const cwd = path.join(dir, "src");
    expect(await walk(path.join(dir, "src"), cwd)).toEqual(["a.ts"]);
  });

  it("applies ignore files between the cwd and the walk root outside a repository", async () => {
    await writeTree(dir, { ".gitignore": "*.tmp\n", "src/a.ts": "", "src/b.tmp": "" });
    expect(await walk(path.join(dir, "src"))).toEqual(["a.ts"]);
  });

  it("follows symlinked files but not symlinked dirs", async () => {
    await writeTree(dir, { "real/f.txt": "" });
    await mkdir(path.join(dir, "links"));
    await symlink(path.join(dir, "real/f.txt"), path.join(dir, "links/file-link"));
    await symlink(path.join(dir, "real"), path.join(dir, "links/dir-link"));
    await symlink(dir, path.join(dir, "links/loop"));
    expect(await walk(path.join(dir, "links"))).toEqual(["file-link"]);
  });

  it("stops when the signal is aborted", async () => {
    await writeTree(dir, { "a.txt": "", "b.txt": "" });
    const controller = new AbortController();
    const seen: string[] = [];
    for await (const f of walkFiles({ fs: createNodeFs(), root: dir, cwd: dir, signal: controller.signal })) {
      seen.push(f.rel);
      controller.abort();
    }
    expect(seen).toEqual(["a.txt"]);
  });
});
