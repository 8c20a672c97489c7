import { afterEach, describe, expect, it } from "vitest";
import { createActivationState } from "../../src/activation/activation-state.js";
import { createIgnoredDirCheck } from "../../src/activation/ignored-dirs.js";
import { createNestedDiscovery, dirsBelowCwd, nestedSkillDirs } from "../../src/activation/nested.js";
import { projectDirs } from "../../src/config/project.js";
import { skillRoots } from "../../src/discovery/skill-roots.js";
import { createNodeFs } from "../../src/io/fs.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

const md = (description: string, extra = ""): string =>
  `---\ndescription: ${description}\n${extra}---\nBody\n`;
const fs = createNodeFs();

describe("dirsBelowCwd", () => {
  const table: [touched: string, expected: string[]][] = [
    ["/repo/a/b/c.ts", ["/repo/a/b", "/repo/a"]],
    ["a/b/c.ts", ["/repo/a/b", "/repo/a"]],
    ["/repo/c.ts", []],
    ["/repo", []],
    ["/other/a/c.ts", []],
    ["/repo-2/a/c.ts", []],
  ];
  it.each(table)("%j → %j", (touched, expected) => {
    expect(dirsBelowCwd("/repo", touched)).toEqual(expected);
  });
});

describe("nestedSkillDirs", () => {
  it("finds existing skills dirs deepest first, .claude before .agents, never at or above the cwd", async () => {
    tree = await tmpTree({
      "repo/.claude/skills/top/SKILL.md": md("top"),
      "repo/a/.claude/skills/one/SKILL.md": md("one"),
      "repo/a/b/.agents/skills/two/SKILL.md": md("two"),
      "repo/a/b/.claude/skills/three/SKILL.md": md("three"),
      "repo/a/b/c/file.ts": "",
    });
    const cwd = tree.path("repo");
    const dirs = await nestedSkillDirs({
      fs,
      cwd,
      touched: tree.path("repo/a/b/c/file.ts"),
      isIgnored: createIgnoredDirCheck({ fs, cwd }),
    });
    expect(dirs).toEqual([
      tree.path("repo/a/b/.claude/skills"),
      tree.path("repo/a/b/.agents/skills"),
      tree.path("repo/a/.claude/skills"),
    ]);
  });

  it("skips git-ignored dirs and node_modules", async () => {
    tree = await tmpTree({
      "repo/.gitignore": "ignored-pkg/\n",
      "repo/ignored-pkg/.claude/skills/hidden/SKILL.md": md("hidden"),
      "repo/ignored-pkg/src/.claude/skills/deeper/SKILL.md": md("deeper"),
      "repo/node_modules/lib/.claude/skills/evil/SKILL.md": md("evil"),
      "repo/node_modules/.claude/skills/evil2/SKILL.md": md("evil2"),
    });
    const cwd = tree.path("repo");
    const isIgnored = createIgnoredDirCheck({ fs, cwd });
    for (const touched of ["repo/ignored-pkg/src/a.ts", "repo/node_modules/lib/index.js"]) {
      expect(await nestedSkillDirs({ fs, cwd, touched: tree.path(touched), isIgnored })).toEqual([]);
    }
  });
});

describe("createNestedDiscovery", () => {
  it("loads new skills once, renames clashes, announces byte-exact", async () => {
    tree = await tmpTree({
      "repo/packages/api/.claude/skills/deploy/SKILL.md": md("Deploys the API"),
      "repo/packages/api/.claude/skills/lint/SKILL.md": md("Lints the API"),
      "repo/packages/api/.claude/skills/only-on-sql/SKILL.md": md("SQL help", "paths: '**/*.sql'\n"),
      "repo/packages/api/.claude/skills/manual/SKILL.md": md("Manual", "disable-model-invocation: true\n"),
      "repo/packages/api/src/server.ts": "",
    });
    const cwd = tree.path("repo");
    const nested = createNestedDiscovery({ fs, cwd });
    const existing = new Set(["deploy", "commit"]);
    const found = await nested.discover([tree.path("repo/packages/api/src/server.ts")], existing);

    expect(found.roots).toEqual([tree.path("repo/packages/api/.claude/skills")]);
    expect(found.skills.map((s) => [s.name, s.source, s.baseDir])).toEqual([
      ["packages/api:deploy", "project", tree.path("repo/packages/api/.claude/skills/deploy")],
      ["lint", "project", tree.path("repo/packages/api/.claude/skills/lint")],
      ["manual", "project", tree.path("repo/packages/api/.claude/skills/manual")],
      ["only-on-sql", "project", tree.path("repo/packages/api/.claude/skills/only-on-sql")],
    ]);
    expect(found.announcements).toEqual([
      "<system-reminder>\n" +
        "New skills discovered in packages/api/.claude/skills, now available via the Skill tool:\n" +
        "- lint\n" +
        "- packages/api:deploy\n" +
        "\n" +
        "The following skills are available for use with the Skill tool:\n" +
        "\n" +
        "- lint: Lints the API (from packages/api/.claude/skills — applies when working on files under packages/api/)\n" +
        '- packages/api:deploy: Deploys the API (scoped to packages/api/ — use this instead of the unscoped "deploy" skill when the files being changed are under packages/api/)\n' +
        "</system-reminder>",
    ]);
    expect(found.diagnostics).toEqual([]);

    const again = await nested.discover([tree.path("repo/packages/api/src/other.ts")], existing);
    expect(again).toEqual({ skills: [], announcements: [], diagnostics: [], roots: [] });
  });

  it("names deepest first (.claude before .agents); a later clash within the session is renamed too", async () => {
    tree = await tmpTree({
      "repo/a/b/.claude/skills/fmt/SKILL.md": md("inner fmt"),
      "repo/a/b/.agents/skills/fmt/SKILL.md": md("agents fmt"),
      "repo/a/.claude/skills/fmt/SKILL.md": md("outer fmt"),
      "repo/c/.claude/skills/fmt/SKILL.md": md("c fmt"),
    });
    const cwd = tree.path("repo");
    const nested = createNestedDiscovery({ fs, cwd });
    const first = await nested.discover([tree.path("repo/a/b/x.ts")], new Set());
    expect(first.skills.map((s) => [s.name, s.description])).toEqual([
      ["fmt", "inner fmt"],
      ["a/b:fmt", "agents fmt"],
      ["a:fmt", "outer fmt"],
    ]);
    const second = await nested.discover([tree.path("repo/c/y.ts")], new Set());
    expect(second.skills.map((s) => s.name)).toEqual(["c:fmt"]);
    expect([...first.diagnostics, ...second.diagnostics]).toEqual([]);
  });

  it("drops a skill whose bare and prefixed names are both taken, as shadowed", async () => {
    tree = await tmpTree({ "repo/p/.claude/skills/x/SKILL.md": md("x") });
    const nested = createNestedDiscovery({ fs, cwd: tree.path("repo") });
    const found = await nested.discover([tree.path("repo/p/f")], new Set(["x", "p:x"]));
    expect(found.skills).toEqual([]);
    expect(found.diagnostics).toMatchObject([
      { severity: "warning", code: "shadowed", path: tree.path("repo/p/.claude/skills/x/SKILL.md") },
    ]);
  });

  it("never loads a gitignored package or node_modules, nor a root loaded at start", async () => {
    tree = await tmpTree({
      "repo/.gitignore": "dist/\n",
      "repo/dist/.claude/skills/built/SKILL.md": md("built"),
      "repo/node_modules/dep/.claude/skills/dep/SKILL.md": md("dep"),
      "repo/extra/.claude/skills/added/SKILL.md": md("added"),
    });
    const cwd = tree.path("repo");
    const nested = createNestedDiscovery({ fs, cwd, loadedRoots: [tree.path("repo/extra/.claude/skills")] });
    const found = await nested.discover(
      [tree.path("repo/dist/a.js"), tree.path("repo/node_modules/dep/x.js"), tree.path("repo/extra/z.md")],
      new Set(),
    );
    expect(found.skills).toEqual([]);
    expect(found.roots).toEqual([]);
  });

  it("drops an alias that is taken and keeps one that is free", async () => {
    tree = await tmpTree({
      "repo/p/.claude/skills/one/SKILL.md": md("one", "name: commit\n"),
      "repo/p/.claude/skills/two/SKILL.md": md("two", "name: twin\n"),
    });
    const nested = createNestedDiscovery({ fs, cwd: tree.path("repo") });
    const found = await nested.discover([tree.path("repo/p/f")], new Set(["commit"]));
    expect(found.skills.map((s) => [s.name, s.alias])).toEqual([
      ["one", undefined],
      ["two", "twin"],
    ]);
  });

  it("a nested conditional skill stays inactive until a matching file is touched", async () => {
    tree = await tmpTree({
      "repo/svc/.claude/skills/sql/SKILL.md": md("SQL", "paths: svc/**/*.sql\n"),
    });
    const cwd = tree.path("repo");
    const state = createActivationState([]);
    const nested = createNestedDiscovery({ fs, cwd });
    const touched = [tree.path("repo/svc/main.go")];
    const found = await nested.discover(touched, new Set());
    state.add(found.skills);
    expect(found.announcements).toEqual([]);
    expect(state.touch(touched, cwd)).toEqual([]);
    expect(state.visible(found.skills)).toEqual([]);
    expect(state.touch([tree.path("repo/svc/db/q.sql")], cwd)).toEqual(["sql"]);
    expect(state.visible(found.skills).map((s) => s.name)).toEqual(["sql"]);
  });

  it("rejects when the signal is aborted, and a later call still finds the skills", async () => {
    tree = await tmpTree({ "repo/p/.claude/skills/one/SKILL.md": md("one") });
    const nested = createNestedDiscovery({ fs, cwd: tree.path("repo") });
    const touched = [tree.path("repo/p/f")];
    await expect(nested.discover(touched, new Set(), AbortSignal.abort())).rejects.toThrow();
    expect((await nested.discover(touched, new Set())).skills.map((s) => s.name)).toEqual(["one"]);
  });

  it("concurrent calls never load the same root twice", async () => {
    tree = await tmpTree({ "repo/p/.claude/skills/one/SKILL.md": md("one") });
    const nested = createNestedDiscovery({ fs, cwd: tree.path("repo") });
    const [a, b] = await Promise.all([
      nested.discover([tree.path("repo/p/f")], new Set()),
      nested.discover([tree.path("repo/p/g")], new Set()),
    ]);
    expect([...a.skills, ...b.skills].map((s) => s.name)).toEqual(["one"]);
  });

  it("loads a skill reached through two nested roots once, and explains a dir without SKILL.md", async () => {
    tree = await tmpTree({
      "repo/a/.claude/skills/shared/SKILL.md": md("shared"),
      "repo/a/.claude/skills/empty/notes.txt": "",
      "repo/b/.claude/skills/linked": { symlink: "../../../a/.claude/skills/shared" },
    });
    const nested = createNestedDiscovery({ fs, cwd: tree.path("repo") });
    const found = await nested.discover([tree.path("repo/a/x"), tree.path("repo/b/y")], new Set());
    expect(found.skills.map((s) => s.name)).toEqual(["shared"]);
    expect(found.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["ignored-file", tree.path("repo/a/.claude/skills/empty")],
      ["duplicate-realpath", tree.path("repo/b/.claude/skills/linked/SKILL.md")],
    ]);
  });
});

describe("dirs between the cwd and the project root", () => {
  it("are project dirs loaded at start, so nested discovery only looks below the cwd", async () => {
    tree = await tmpTree({
      "home/repo/.git": { dir: true },
      "home/repo/.claude/skills/root-skill/SKILL.md": md("root"),
      "home/repo/mid/.claude/skills/mid-skill/SKILL.md": md("mid"),
      "home/repo/mid/work/a.ts": "",
    });
    const cwd = tree.path("home/repo/mid/work");
    const { dirs, gitRoot } = await projectDirs(fs, cwd, tree.path("home"));
    expect(dirs).toEqual([cwd, tree.path("home/repo/mid"), tree.path("home/repo")]);
    expect(gitRoot).toBe(tree.path("home/repo"));
    const roots = skillRoots({ home: tree.path("home"), projectDirs: dirs, addDirs: [] }).map((r) => r.dir);
    expect(roots).toContain(tree.path("home/repo/mid/.claude/skills"));
    expect(roots).toContain(tree.path("home/repo/.claude/skills"));
    const nested = createNestedDiscovery({ fs, cwd, gitRoot: tree.path("home/repo") });
    expect((await nested.discover([tree.path("home/repo/mid/work/a.ts")], new Set())).roots).toEqual([]);
  });
});
