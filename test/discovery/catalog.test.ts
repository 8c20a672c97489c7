import { mkdir, writeFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { createSkillCatalog } from "../../src/discovery/catalog.js";
import type { Discovery } from "../../src/discovery/discover.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { engineFor, skillMd, treeSkills } from "./engine-for.js";
import { spyFs } from "./spy-fs.js";

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

describe("createSkillCatalog", () => {
  it("get() runs discovery once; reload() runs it again and tells every listener", async () => {
    let runs = 0;
    const catalog = createSkillCatalog(async () => {
      runs += 1;
      return { skills: [], diagnostics: [], roots: [] } satisfies Discovery;
    });
    const seen: number[] = [];
    catalog.onChange(() => seen.push(runs));
    const [a, b] = await Promise.all([catalog.get(), catalog.get()]);
    expect(a).toBe(b);
    expect(runs).toBe(1);
    const c = await catalog.reload();
    expect(c).not.toBe(a);
    expect(await catalog.get()).toBe(c);
    expect(runs).toBe(2);
    expect(seen).toEqual([2]);
  });

  it("an unsubscribed listener is not called", async () => {
    const catalog = createSkillCatalog(async () => ({ skills: [], diagnostics: [], roots: [] }));
    let calls = 0;
    const off = catalog.onChange(() => {
      calls += 1;
    });
    await catalog.reload();
    off();
    await catalog.reload();
    expect(calls).toBe(1);
  });
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
