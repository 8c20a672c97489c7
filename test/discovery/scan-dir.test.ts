import { afterEach, describe, expect, it } from "vitest";
import { explainMissingSkill } from "../../src/discovery/explain.js";
import { dirProblem, MAX_COMMAND_DEPTH, scanRoot } from "../../src/discovery/scan-dir.js";
import type { SkillRoot } from "../../src/discovery/skill-roots.js";
import { createNodeFs } from "../../src/io/fs.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";
import { fsError } from "./spy-fs.js";

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

const root = (t: TmpTree, dir: string, layout: SkillRoot["layout"]): SkillRoot => ({
  dir: t.path(dir),
  source: "project",
  layout,
  label: "test",
});

describe("scanRoot, skills layout", () => {
  it("lists direct child dirs without reading them; hints for a stray .md; skips dot entries", async () => {
    tree = await tmpTree({
      "skills/b/SKILL.md": "x",
      "skills/a/SKILL.md": "x",
      "skills/no-file/readme.txt": "x",
      "skills/stray.md": "x",
      "skills/notes.txt": "x",
      "skills/.hidden/SKILL.md": "x",
      "skills/linked": { symlink: "a" },
    });
    const scan = await scanRoot(createNodeFs(), root(tree, "skills", "skills"));
    expect(scan.exists).toBe(true);
    expect(scan.files.map((f) => [f.name, f.kind, f.path, f.baseDir])).toEqual([
      ["a", "skill", tree.path("skills/a/SKILL.md"), tree.path("skills/a")],
      ["b", "skill", tree.path("skills/b/SKILL.md"), tree.path("skills/b")],
      ["linked", "skill", tree.path("skills/linked/SKILL.md"), tree.path("skills/linked")],
      ["no-file", "skill", tree.path("skills/no-file/SKILL.md"), tree.path("skills/no-file")],
    ]);
    expect(scan.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["ignored-file", tree.path("skills/stray.md")],
    ]);
    expect(scan.diagnostics[0]?.message).toContain("stray/SKILL.md");
  });

  it("a missing root: exists false, no diagnostics", async () => {
    tree = await tmpTree();
    expect(await scanRoot(createNodeFs(), root(tree, "nope", "skills"))).toMatchObject({
      exists: false,
      files: [],
      diagnostics: [],
    });
  });
});

describe("scanRoot, commands layout", () => {
  it("md files become commands; subdirs namespace them; other files are skipped", async () => {
    tree = await tmpTree({
      "commands/top.md": "x",
      "commands/ns/sub.md": "x",
      "commands/ns/deeper/leaf.md": "x",
      "commands/readme.txt": "x",
      "commands/.hidden.md": "x",
      "commands/link.md": { symlink: "top.md" },
    });
    const scan = await scanRoot(createNodeFs(), root(tree, "commands", "commands"));
    expect(scan.files.map((f) => [f.name, f.kind, f.baseDir])).toEqual([
      ["link", "command", tree.path("commands")],
      ["ns:deeper:leaf", "command", tree.path("commands/ns/deeper")],
      ["ns:sub", "command", tree.path("commands/ns")],
      ["top", "command", tree.path("commands")],
    ]);
    expect(scan.diagnostics).toEqual([]);
  });

  it(`commands nested deeper than ${MAX_COMMAND_DEPTH} dirs are reported, not read`, async () => {
    const deep = Array.from({ length: MAX_COMMAND_DEPTH + 1 }, (_, i) => `d${i}`);
    tree = await tmpTree({
      [`commands/${deep.slice(0, MAX_COMMAND_DEPTH).join("/")}/ok.md`]: "x",
      [`commands/${deep.join("/")}/too-deep.md`]: "x",
    });
    const scan = await scanRoot(createNodeFs(), root(tree, "commands", "commands"));
    expect(scan.files.map((f) => f.name)).toEqual([`${deep.slice(0, MAX_COMMAND_DEPTH).join(":")}:ok`]);
    expect(scan.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["ignored-file", tree.path(`commands/${deep.join("/")}`)],
    ]);
  });

  it("a link back up the commands tree is a symlink-loop warning, read once", async () => {
    tree = await tmpTree({ "commands/a.md": "x", "commands/sub/up": { symlink: ".." } });
    const scan = await scanRoot(createNodeFs(), root(tree, "commands", "commands"));
    expect(scan.files.map((f) => f.name)).toEqual(["a"]);
    expect(scan.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["symlink-loop", tree.path("commands/sub/up")],
    ]);
  });
});

describe("explainMissingSkill", () => {
  it.each([
    [{ "s/x/skill.md": "x" }, "warning", "s/x/skill.md", /uppercase/],
    [{ "s/x/Skill.MD": "x" }, "warning", "s/x/Skill.MD", /uppercase/],
    [{ "s/x/inner/SKILL.md": "x" }, "info", "s/x/inner/SKILL.md", /too deep/],
    [{ "s/x/readme.md": "x" }, "info", "s/x", /no SKILL\.md/],
  ])("%j → %s at %s", async (entries, severity, path, message) => {
    tree = await tmpTree(entries);
    const d = await explainMissingSkill(createNodeFs(), tree.path("s/x"));
    expect(d).toMatchObject({ code: "ignored-file", severity, path: tree.path(path) });
    expect(d.message).toMatch(message);
  });
});

describe("dirProblem", () => {
  it.each([
    ["ELOOP", "symlink-loop", "error"],
    ["ENOENT", "symlink-broken", "warning"],
    ["ENOTDIR", "not-a-directory", "warning"],
    ["EACCES", "dir-unreadable", "error"],
    ["EIO", "dir-unreadable", "error"],
  ])("%s → %s", (code, expected, severity) => {
    expect(dirProblem("/p", fsError(code, "/p"))).toMatchObject({ code: expected, severity, path: "/p" });
  });

  it("a thrown non-error is dir-unreadable", () => {
    expect(dirProblem("/p", "boom").code).toBe("dir-unreadable");
  });
});
