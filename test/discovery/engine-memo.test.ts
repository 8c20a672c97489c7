import { mkdir, writeFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { engineFor, skillMd, treeSkills } from "./engine-for.js";
import { spyFs } from "./spy-fs.js";

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

describe("engine discovery memo", () => {
  it("discover() is memoised; reload() picks up a new skill and fires onChange", async () => {
    tree = await tmpTree({
      "home/repo/.git": { dir: true },
      "home/repo/.claude/skills/first/SKILL.md": skillMd("first"),
    });
    const spy = spyFs();
    const engine = engineFor(tree, { fs: spy.fs });
    const one = await engine.discover();
    const readdirs = spy.calls.readdir.length;
    expect(await engine.discover()).toBe(one);
    expect(spy.calls.readdir.length).toBe(readdirs);

    await mkdir(tree.path("home/repo/.claude/skills/second"));
    await writeFile(tree.path("home/repo/.claude/skills/second/SKILL.md"), skillMd("second"));
    expect(treeSkills(tree, await engine.discover()).map((s) => s.name)).toEqual(["first"]);

    const changes: string[][] = [];
    engine.catalog.onChange((d) => changes.push(treeSkills(tree as TmpTree, d).map((s) => s.name)));
    const two = await engine.reload();
    expect(treeSkills(tree, two).map((s) => s.name)).toEqual(["first", "second"]);
    expect(changes).toEqual([["first", "second"]]);
    expect(await engine.discover()).toBe(two);
  });

  it("a skill registered after the first discovery appears on reload", async () => {
    tree = await tmpTree({ "home/repo/.git": { dir: true } });
    const engine = engineFor(tree);
    expect(treeSkills(tree, await engine.discover())).toEqual([]);
    engine.bundled.register({ name: "late", description: "registered late", body: "b" });
    expect(treeSkills(tree, await engine.reload()).map((s) => s.name)).toEqual(["late"]);
  });
});
