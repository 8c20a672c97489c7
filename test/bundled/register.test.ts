import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createBundledRegistry } from "../../src/bundled/register.js";
import { createEngine } from "../../src/engine/engine.js";
import { createNodeFs } from "../../src/io/fs.js";
import { safeJoin } from "../../src/skill/safe-join.js";
import { engineFor, treeSkills } from "../discovery/engine-for.js";
import { spyFs } from "../discovery/spy-fs.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

describe("safeJoin", () => {
  it.each([
    ["reference/api.md", "/x/skill/reference/api.md"],
    ["a/../b.md", "/x/skill/b.md"],
    ["./c.md", "/x/skill/c.md"],
    ["../x", undefined],
    ["..", undefined],
    ["a/../../x", undefined],
    ["/etc/passwd", undefined],
    ["", undefined],
    ["a\0b", undefined],
  ])("%j → %j", (relative, expected) => {
    expect(safeJoin("/x/skill", relative)).toBe(expected);
  });
});

describe("createBundledRegistry", () => {
  it("registers a skill whose files are extracted lazily, once, on the first loadBody", async () => {
    tree = await tmpTree();
    const spy = spyFs();
    const registry = createBundledRegistry({ fs: spy.fs, extractRoot: tree.path("extract") });
    const diagnostics = registry.register({
      name: "helper",
      description: "Helps",
      body: "Read reference/api.md",
      frontmatter: { context: "fork", "allowed-tools": "Read, Grep", description: "ignored" },
      files: { "reference/api.md": "# API", "scripts/run.sh": "echo hi" },
    });
    expect(diagnostics).toEqual([]);
    const [skill] = registry.skills();
    expect(skill).toMatchObject({
      name: "helper",
      description: "Helps",
      source: "bundled",
      kind: "skill",
      filePath: "",
      baseDir: tree.path("extract/helper"),
      root: tree.path("extract"),
      context: "fork",
      allowedTools: ["Read", "Grep"],
    });
    expect(existsSync(tree.path("extract"))).toBe(false);
    expect(spy.calls.writeFile).toEqual([]);

    expect(await skill?.loadBody()).toBe("Read reference/api.md");
    expect(await readFile(tree.path("extract/helper/reference/api.md"), "utf8")).toBe("# API");
    expect(await readFile(tree.path("extract/helper/scripts/run.sh"), "utf8")).toBe("echo hi");
    expect(await skill?.loadBody()).toBe("Read reference/api.md");
    expect(spy.calls.writeFile).toHaveLength(2);
  });

  it("a failed extraction rejects loadBody and is retried on the next use", async () => {
    tree = await tmpTree();
    let failures = 1;
    const spy = spyFs((method) => (method === "writeFile" && failures-- > 0 ? "ENOSPC" : undefined));
    const registry = createBundledRegistry({ fs: spy.fs, extractRoot: tree.path("extract") });
    registry.register({ name: "flaky", description: "d", body: "B", files: { "f.md": "F" } });
    const skill = registry.skills()[0];
    await expect(skill?.loadBody()).rejects.toThrow(/ENOSPC/);
    expect(await skill?.loadBody()).toBe("B");
    expect(await readFile(tree.path("extract/flaky/f.md"), "utf8")).toBe("F");
  });

  it("concurrent first uses extract once", async () => {
    tree = await tmpTree();
    const spy = spyFs();
    const registry = createBundledRegistry({ fs: spy.fs, extractRoot: tree.path("extract") });
    registry.register({ name: "busy", description: "d", body: "B", files: { "f.md": "F" } });
    const skill = registry.skills()[0];
    expect(await Promise.all([skill?.loadBody(), skill?.loadBody(), skill?.loadBody()])).toEqual([
      "B",
      "B",
      "B",
    ]);
    expect(spy.calls.writeFile).toHaveLength(1);
  });

  it("a skill without files writes nothing and has no base directory (no host path for the model)", async () => {
    tree = await tmpTree();
    const registry = createBundledRegistry({ fs: createNodeFs(), extractRoot: tree.path("extract") });
    registry.register({ name: "plain", description: "d", body: "b" });
    expect(await registry.skills()[0]?.loadBody()).toBe("b");
    expect(registry.skills()[0]?.baseDir).toBe("");
    expect(existsSync(tree.path("extract"))).toBe(false);
  });

  it("a skill's files are also its references, read from memory", async () => {
    tree = await tmpTree();
    const registry = createBundledRegistry({ fs: createNodeFs(), extractRoot: tree.path("extract") });
    registry.register({ name: "docs", description: "d", body: "b", files: { "ref/api.md": "# API" } });
    const refs = registry.skills()[0]?.references;
    expect(await refs?.list()).toEqual([{ name: "ref/api.md", description: "file ref/api.md" }]);
    expect(await refs?.read("ref/api.md")).toBe("# API");
    expect(existsSync(tree.path("extract"))).toBe(false);
  });

  it.each(["../x", "/abs/path", "a/../../x", "..", ""])(
    "a file path that escapes (%j) refuses the skill with bundled-path-escape",
    async (relative) => {
      tree = await tmpTree();
      const spy = spyFs();
      const registry = createBundledRegistry({ fs: spy.fs, extractRoot: tree.path("extract") });
      const diagnostics = registry.register({
        name: "evil",
        description: "d",
        body: "b",
        files: { "ok.md": "fine", [relative]: "pwned" },
      });
      expect(diagnostics.map((d) => [d.code, d.severity])).toEqual([["bundled-path-escape", "error"]]);
      expect(registry.skills()).toEqual([]);
      expect(spy.calls.writeFile).toEqual([]);
    },
  );

  it("an invalid name is refused; a second registration of a name is reported and ignored", () => {
    const registry = createBundledRegistry({ fs: createNodeFs(), extractRoot: "/nowhere" });
    expect(registry.register({ name: "Bad Name", description: "d", body: "b" }).map((d) => d.code)).toEqual([
      "name-invalid",
    ]);
    expect(registry.register({ name: "once", description: "first", body: "b" })).toEqual([]);
    expect(registry.register({ name: "once", description: "second", body: "b" }).map((d) => d.code)).toEqual([
      "shadowed",
    ]);
    expect(registry.skills().map((s) => s.description)).toEqual(["first"]);
  });

  it("bad frontmatter fields come back as diagnostics; the skill still registers", () => {
    const registry = createBundledRegistry({ fs: createNodeFs(), extractRoot: "/nowhere" });
    const diagnostics = registry.register({
      name: "odd",
      description: "d",
      body: "b",
      frontmatter: { effort: "extreme", owner: "me" },
    });
    expect(diagnostics.map((d) => d.code).sort()).toEqual(["field-invalid", "field-unknown"]);
    expect(registry.skills()).toHaveLength(1);
  });

  it("skills() is a copy", () => {
    const registry = createBundledRegistry({ fs: createNodeFs(), extractRoot: "/nowhere" });
    registry.register({ name: "a", description: "d", body: "b" });
    registry.skills().pop();
    expect(registry.skills()).toHaveLength(1);
  });
});

describe("engine.bundled", () => {
  it("registered skills are discovered without extraction, listed last, extracted on loadBody", async () => {
    tree = await tmpTree({
      "home/repo/.git": { dir: true },
      "home/repo/.claude/skills/proj/SKILL.md": "---\ndescription: p\n---\n",
    });
    const engine = engineFor(tree);
    engine.bundled.register({
      name: "aaa-first-by-name",
      description: "d",
      body: "B",
      files: { "f.md": "F" },
    });
    const discovery = await engine.discover();
    const skills = treeSkills(tree, discovery);
    expect(skills.map((s) => `${s.name}:${s.source}`)).toEqual(["proj:project", "aaa-first-by-name:bundled"]);
    expect(existsSync(tree.path("extract"))).toBe(false);
    expect(await skills[1]?.loadBody()).toBe("B");
    expect(await readFile(tree.path("extract/aaa-first-by-name/f.md"), "utf8")).toBe("F");
  });

  it("an escaping registration never reaches discovery", async () => {
    tree = await tmpTree({ "home/repo/.git": { dir: true } });
    const engine = engineFor(tree);
    const diagnostics = engine.bundled.register({
      name: "evil",
      description: "d",
      body: "b",
      files: { "../../outside.md": "x" },
    });
    expect(diagnostics.map((d) => d.code)).toEqual(["bundled-path-escape"]);
    expect(treeSkills(tree, await engine.discover())).toEqual([]);
  });
});

describe("engine.registerBundledSkill", () => {
  it("adds a code-defined skill to the next discover(), extracting its files on first use", async () => {
    const root = await mkdtemp(join(tmpdir(), "skillwright-register-"));
    try {
      const engine = createEngine({
        cwd: root,
        home: root,
        env: { SKILLWRIGHT_MANAGED_DIR: join(root, "managed") },
      });
      expect((await engine.discover()).skills.map((s) => s.name)).not.toContain("from-code");
      const diagnostics = engine.registerBundledSkill({
        name: "from-code",
        description: "Made in code",
        body: "Read reference/notes.md",
        files: { "reference/notes.md": "NOTES" },
      });
      expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      const skill = (await engine.discover()).skills.find((s) => s.name === "from-code");
      expect(skill?.source).toBe("bundled");
      expect(await skill?.loadBody()).toBe("Read reference/notes.md");
      expect(await readFile(join(skill?.baseDir ?? "", "reference", "notes.md"), "utf8")).toBe("NOTES");
      const refused = engine.registerBundledSkill({
        name: "bad",
        description: "x",
        body: "",
        files: { "../out.md": "x" },
      });
      expect(refused.map((d) => d.code)).toEqual(["bundled-path-escape"]);
      expect((await engine.discover()).skills.map((s) => s.name)).not.toContain("bad");
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
