import { afterEach, describe, expect, it } from "vitest";
import { skillToJson } from "../../src/cli/skill-json.js";
import { type TmpTree, type TreeEntry, tmpTree } from "../support/tmp-tree.js";
import { diagnosticPairs, engineFor, skillMd, treeSkills, where } from "./engine-for.js";
import { spyFs } from "./spy-fs.js";

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

async function build(entries: Record<string, TreeEntry>): Promise<TmpTree> {
  tree = await tmpTree({ "home/repo/.git": { dir: true }, ...entries });
  return tree;
}

const LOCATIONS = {
  managed: "managed/skills/X/SKILL.md",
  "managed-cmd": "managed/commands/X.md",
  user: "home/.claude/skills/X/SKILL.md",
  "user-agents": "home/.agents/skills/X/SKILL.md",
  "user-cmd": "home/.claude/commands/X.md",
  near: "home/repo/pkg/.claude/skills/X/SKILL.md",
  "near-agents": "home/repo/pkg/.agents/skills/X/SKILL.md",
  "near-cmd": "home/repo/pkg/.claude/commands/X.md",
  far: "home/repo/.claude/skills/X/SKILL.md",
  add: "extra/.claude/skills/X/SKILL.md",
  "add-agents": "extra/.agents/skills/X/SKILL.md",
  bundled: "bundled/X/SKILL.md",
} as const;
type Location = keyof typeof LOCATIONS;

describe("precedence (first wins a name clash)", () => {
  it.each<[Location, Location]>([
    ["managed", "user"],
    ["managed", "bundled"],
    ["user", "user-agents"],
    ["user", "near"],
    ["user-agents", "far"],
    ["near", "far"],
    ["near", "near-agents"],
    ["near-agents", "far"],
    ["far", "add"],
    ["add", "add-agents"],
    ["add", "bundled"],
    ["user-cmd", "near-cmd"],
    ["managed-cmd", "user-cmd"],
    // A skill dir beats a legacy command of the same name, whatever their sources.
    ["near", "user-cmd"],
    ["bundled", "managed-cmd"],
    ["far", "near-cmd"],
  ])("%s beats %s", async (winner, loser) => {
    const t = await build({
      [LOCATIONS[winner].replace("X", "clash")]: skillMd(`from ${winner}`),
      [LOCATIONS[loser].replace("X", "clash")]: skillMd(`from ${loser}`),
    });
    const discovery = await engineFor(t, { cwd: "home/repo/pkg", addDirs: ["extra"] }).discover();
    const skills = treeSkills(t, discovery).filter((s) => s.name === "clash");
    expect(skills.map((s) => s.description)).toEqual([`from ${winner}`]);
    const shadowed = discovery.diagnostics.filter((d) => d.code === "shadowed");
    const loserPath = t.path(LOCATIONS[loser].replace("X", "clash"));
    const winnerPath = t.path(LOCATIONS[winner].replace("X", "clash"));
    expect(shadowed).toEqual([expect.objectContaining({ severity: "warning", path: loserPath })]);
    expect(shadowed[0]?.message).toContain(loserPath);
    expect(shadowed[0]?.message).toContain(winnerPath);
  });

  it("a file skill beats a registered bundled skill of the same name", async () => {
    const t = await build({ "home/.claude/skills/clash/SKILL.md": skillMd("user") });
    const engine = engineFor(t);
    engine.bundled.register({ name: "clash", description: "registered", body: "b" });
    const discovery = await engine.discover();
    expect(discovery.skills.filter((s) => s.name === "clash").map((s) => s.description)).toEqual(["user"]);
    expect(discovery.diagnostics.filter((d) => d.code === "shadowed")).toHaveLength(1);
  });
});

describe("project walk-up", () => {
  it("reads from the cwd up to the git root, nearest first, and stops there", async () => {
    const t = await build({
      "home/.claude/skills/above-is-user/SKILL.md": skillMd("user"),
      "home/repo/.claude/skills/at-root/SKILL.md": skillMd("root"),
      "home/repo/a/.claude/skills/in-a/SKILL.md": skillMd("a"),
      "home/repo/a/b/.agents/skills/in-b/SKILL.md": skillMd("b"),
      "home/repo/a/b/c/.claude/skills/below-cwd/SKILL.md": skillMd("below"),
      "home/repo/sibling/.claude/skills/sibling/SKILL.md": skillMd("sibling"),
      "home/outer/.claude/skills/outside/SKILL.md": skillMd("outside"),
    });
    const engine = engineFor(t, { cwd: "home/repo/a/b" });
    const discovery = await engine.discover();
    expect(where(t, discovery)).toEqual([
      "above-is-user@home/.claude/skills/above-is-user/SKILL.md",
      "in-b@home/repo/a/b/.agents/skills/in-b/SKILL.md",
      "in-a@home/repo/a/.claude/skills/in-a/SKILL.md",
      "at-root@home/repo/.claude/skills/at-root/SKILL.md",
    ]);
    const { gitRoot, projectDir } = await engine.roots();
    expect(gitRoot).toBe(t.path("home/repo"));
    expect(projectDir).toBe(t.path("home/repo"));
  });

  it("a git root below other project dirs stops the walk (nested repo)", async () => {
    const t = await build({
      "home/repo/.claude/skills/outer-repo/SKILL.md": skillMd("outer"),
      "home/repo/inner/.git": { dir: true },
      "home/repo/inner/.claude/skills/inner-repo/SKILL.md": skillMd("inner"),
    });
    const discovery = await engineFor(t, { cwd: "home/repo/inner/src" }).discover();
    expect(treeSkills(t, discovery).map((s) => s.name)).toEqual(["inner-repo"]);
  });

  it("without a repo: up to (not including) the home dir", async () => {
    tree = await tmpTree({
      "home/.claude/skills/user-skill/SKILL.md": skillMd("user"),
      "home/work/.claude/skills/work/SKILL.md": skillMd("work"),
      "home/work/proj/.claude/skills/proj/SKILL.md": skillMd("proj"),
    });
    const engine = engineFor(tree, { cwd: "home/work/proj" });
    const discovery = await engine.discover();
    expect(treeSkills(tree, discovery).map((s) => `${s.name}:${s.source}`)).toEqual([
      "user-skill:user",
      "proj:project",
      "work:project",
    ]);
    expect(discovery.diagnostics).toEqual([]);
    expect((await engine.roots()).gitRoot).toBeUndefined();
  });

  it("cwd = home: the home roots load once, as user roots, with no duplicate diagnostics", async () => {
    tree = await tmpTree({ "home/.claude/skills/mine/SKILL.md": skillMd("mine") });
    const discovery = await engineFor(tree, { cwd: "home" }).discover();
    expect(treeSkills(tree, discovery).map((s) => `${s.name}:${s.source}`)).toEqual(["mine:user"]);
    expect(discovery.diagnostics).toEqual([]);
  });

  it("without a repo and outside home: the cwd alone", async () => {
    tree = await tmpTree({
      "elsewhere/.claude/skills/parent/SKILL.md": skillMd("parent"),
      "elsewhere/proj/.claude/skills/here/SKILL.md": skillMd("here"),
      "home/.keep": "",
    });
    const discovery = await engineFor(tree, { cwd: "elsewhere/proj" }).discover();
    expect(treeSkills(tree, discovery).map((s) => s.name)).toEqual(["here"]);
  });

  it("--add-dir roots load after the project, as project skills", async () => {
    const t = await build({
      "extra/.claude/skills/added/SKILL.md": skillMd("added"),
      "extra/.agents/skills/added-agents/SKILL.md": skillMd("added agents"),
      "extra/.claude/commands/added-cmd.md": "Run it",
      "home/repo/.claude/skills/proj/SKILL.md": skillMd("proj"),
    });
    const discovery = await engineFor(t, { addDirs: ["extra"] }).discover();
    expect(treeSkills(t, discovery).map((s) => `${s.name}:${s.source}:${s.kind}`)).toEqual([
      "proj:project:skill",
      "added:project:skill",
      "added-agents:project:skill",
      "added-cmd:project:command",
    ]);
  });
});

describe("listing order (SPEC §2)", () => {
  it("user sorted, project nearest root first each sorted, commands merged, bundled last", async () => {
    const t = await build({
      "managed/skills/policy/SKILL.md": skillMd("managed"),
      "managed/commands/cmd-c.md": "managed command",
      "home/.claude/skills/beta/SKILL.md": skillMd("u"),
      "home/.claude/skills/gamma/SKILL.md": skillMd("u"),
      "home/.agents/skills/Alpha/SKILL.md": skillMd("u"),
      "home/.claude/commands/cmd-b.md": "user command",
      "home/.claude/commands/ns/sub.md": "namespaced command",
      "home/repo/pkg/.claude/skills/zed/SKILL.md": skillMd("near"),
      "home/repo/pkg/.claude/skills/Apple/SKILL.md": skillMd("near"),
      "home/repo/pkg/.agents/skills/aardvark/SKILL.md": skillMd("near agents"),
      "home/repo/.claude/skills/mango/SKILL.md": skillMd("far"),
      "home/repo/.claude/skills/Banana/SKILL.md": skillMd("far"),
      "home/repo/.claude/commands/cmd-A.md": "project command",
      "extra/.claude/skills/added/SKILL.md": skillMd("add"),
      "bundled/bund-z/SKILL.md": skillMd("bundled dir"),
    });
    const engine = engineFor(t, { cwd: "home/repo/pkg", addDirs: ["extra"] });
    engine.bundled.register({ name: "bund-a", description: "registered", body: "b" });
    const discovery = await engine.discover();
    expect(treeSkills(t, discovery).map((s) => s.name)).toEqual([
      "policy",
      "Alpha",
      "beta",
      "gamma",
      "Apple",
      "zed",
      "aardvark",
      "Banana",
      "mango",
      "added",
      "cmd-A",
      "cmd-b",
      "cmd-c",
      "ns:sub",
      "bund-a",
      "bund-z",
    ]);
  });

  it("is deterministic: two engines over the same tree give byte-identical JSON", async () => {
    const entries: Record<string, TreeEntry> = {};
    for (let i = 0; i < 40; i++) {
      entries[`home/.claude/skills/s${(i * 7) % 40}/SKILL.md`] = skillMd(`user ${i}`);
      entries[`home/repo/.claude/skills/p${i}/SKILL.md`] = skillMd(
        `proj ${i}`,
        i % 5 === 0 ? "bad: [\n" : "",
      );
      entries[`home/repo/.claude/commands/c${i}.md`] = `command ${i}`;
    }
    entries["home/repo/.claude/skills/s3/SKILL.md"] = skillMd("shadowed");
    const t = await build(entries);
    const snapshot = async () => {
      const d = await engineFor(t).discover();
      return JSON.stringify({
        skills: d.skills.map(skillToJson),
        diagnostics: d.diagnostics,
        roots: d.roots,
      });
    };
    const first = await snapshot();
    expect(await snapshot()).toBe(first);
    expect(first).toContain('"code":"shadowed"');
  });
});

describe("realpath dedup and symlinks", () => {
  it("the same SKILL.md via a symlinked dir loads once, at its first path (the base dir)", async () => {
    const t = await build({
      "shared/tool/SKILL.md": skillMd("shared tool"),
      "home/.claude/skills/tool": { symlink: "../../../shared/tool" },
      "home/repo/.claude/skills/tool": { symlink: "../../../../shared/tool" },
      "home/repo/.claude/skills/tool-again": { symlink: "tool" },
    });
    const discovery = await engineFor(t).discover();
    const skills = treeSkills(t, discovery);
    expect(skills.map((s) => [s.name, s.source, s.baseDir, s.filePath])).toEqual([
      ["tool", "user", t.path("home/.claude/skills/tool"), t.path("home/.claude/skills/tool/SKILL.md")],
    ]);
    expect(diagnosticPairs(t, discovery)).toEqual([
      ["duplicate-realpath", "home/repo/.claude/skills/tool-again/SKILL.md"],
      ["duplicate-realpath", "home/repo/.claude/skills/tool/SKILL.md"],
    ]);
    expect(discovery.diagnostics.some((d) => d.code === "shadowed")).toBe(false);
    expect(await skills[0]?.loadBody()).toBe("Body of shared tool\n");
  });

  it("a symlinked skills root is followed", async () => {
    const t = await build({
      "library/one/SKILL.md": skillMd("one"),
      "home/repo/.claude/skills": { symlink: "../../../library" },
    });
    const discovery = await engineFor(t).discover();
    expect(where(t, discovery)).toEqual(["one@home/repo/.claude/skills/one/SKILL.md"]);
  });

  it("symlink loops and broken links become diagnostics; the others still load", async () => {
    const t = await build({
      "home/repo/.claude/skills/good/SKILL.md": skillMd("good"),
      "home/repo/.claude/skills/self-loop": { symlink: "self-loop" },
      "home/repo/.claude/skills/ping": { symlink: "pong" },
      "home/repo/.claude/skills/pong": { symlink: "ping" },
      "home/repo/.claude/skills/broken": { symlink: "../../nowhere" },
      "home/repo/.claude/commands/good-cmd.md": skillMd("ok"),
      "home/repo/.claude/commands/loop": { symlink: "." },
      "home/repo/.claude/commands/dangling.md": { symlink: "missing.md" },
    });
    const discovery = await engineFor(t).discover();
    expect(treeSkills(t, discovery).map((s) => s.name)).toEqual(["good", "good-cmd"]);
    const pairs = diagnosticPairs(t, discovery);
    expect(pairs).toEqual([
      ["symlink-broken", "home/repo/.claude/commands/dangling.md"],
      ["symlink-broken", "home/repo/.claude/skills/broken"],
      ["symlink-loop", "home/repo/.claude/commands/loop"],
      ["symlink-loop", "home/repo/.claude/skills/ping"],
      ["symlink-loop", "home/repo/.claude/skills/pong"],
      ["symlink-loop", "home/repo/.claude/skills/self-loop"],
    ]);
    const severity = (path: string) => discovery.diagnostics.find((d) => d.path === t.path(path))?.severity;
    expect(severity("home/repo/.claude/skills/self-loop")).toBe("error");
    expect(severity("home/repo/.claude/skills/broken")).toBe("warning");
  });
});

describe("clashes", () => {
  it("a skill dir beats a legacy command of the same name in the same project", async () => {
    const t = await build({
      "home/repo/.claude/skills/deploy/SKILL.md": skillMd("skill"),
      "home/repo/.claude/commands/deploy.md": skillMd("command"),
    });
    const discovery = await engineFor(t).discover();
    expect(treeSkills(t, discovery).map((s) => `${s.name}:${s.kind}`)).toEqual(["deploy:skill"]);
    expect(diagnosticPairs(t, discovery)).toEqual([["shadowed", "home/repo/.claude/commands/deploy.md"]]);
  });

  it("an alias does not shadow another skill's dir name", async () => {
    const t = await build({
      "home/repo/.claude/skills/one/SKILL.md": skillMd("one", "name: two\n"),
      "home/repo/.claude/skills/two/SKILL.md": skillMd("two"),
    });
    const discovery = await engineFor(t).discover();
    expect(treeSkills(t, discovery).map((s) => [s.name, s.alias])).toEqual([
      ["one", "two"],
      ["two", undefined],
    ]);
  });
});

describe("failures stay local", () => {
  it("an unreadable root (EACCES) is a diagnostic; the other roots still load", async () => {
    const t = await build({
      "home/.claude/skills/user-ok/SKILL.md": skillMd("u"),
      "home/repo/.claude/skills/locked/SKILL.md": skillMd("locked"),
      "home/repo/.agents/skills/agents-ok/SKILL.md": skillMd("a"),
    });
    const locked = t.path("home/repo/.claude/skills");
    const { fs } = spyFs((method, path) => (method === "readdir" && path === locked ? "EACCES" : undefined));
    const engine = engineFor(t, { fs });
    const discovery = await engine.discover();
    expect(treeSkills(t, discovery).map((s) => s.name)).toEqual(["user-ok", "agents-ok"]);
    expect(discovery.diagnostics).toEqual([
      expect.objectContaining({ code: "dir-unreadable", severity: "error", path: locked }),
    ]);
    expect(discovery.roots.find((r) => r.dir === locked)).toMatchObject({ exists: true, count: 0 });
  });

  it("an unreadable skill file, skill dir or commands subdir is a diagnostic naming it", async () => {
    const t = await build({
      "home/repo/.claude/skills/ok/SKILL.md": skillMd("ok"),
      "home/repo/.claude/skills/file-locked/SKILL.md": skillMd("x"),
      "home/repo/.claude/skills/dir-locked/SKILL.md": skillMd("x"),
      "home/repo/.claude/commands/top.md": skillMd("top"),
      "home/repo/.claude/commands/sub/inner.md": "inner",
    });
    const fail = (method: string, path: string) => {
      if (method === "readHead" && path === t.path("home/repo/.claude/skills/file-locked/SKILL.md"))
        return "EACCES";
      // A locked dir refuses everything below it: listing it, resolving it and opening files in it.
      const inLockedDir = path.startsWith(t.path("home/repo/.claude/skills/dir-locked"));
      if (inLockedDir && (method === "realpath" || method === "readdir" || method === "readHead"))
        return "EACCES";
      if (method === "readdir" && path === t.path("home/repo/.claude/commands/sub")) return "EACCES";
      return undefined;
    };
    const discovery = await engineFor(t, { fs: spyFs(fail).fs }).discover();
    expect(treeSkills(t, discovery).map((s) => s.name)).toEqual(["ok", "top"]);
    expect(diagnosticPairs(t, discovery)).toEqual([
      ["dir-unreadable", "home/repo/.claude/commands/sub"],
      ["dir-unreadable", "home/repo/.claude/skills/dir-locked"],
      ["file-unreadable", "home/repo/.claude/skills/file-locked/SKILL.md"],
    ]);
  });

  it("`.claude/skills` being a file: not-a-directory, root reported missing", async () => {
    const t = await build({
      "home/repo/.claude/skills": "I am a file",
      "home/repo/.agents/skills/fine/SKILL.md": skillMd("fine"),
    });
    const discovery = await engineFor(t).discover();
    expect(treeSkills(t, discovery).map((s) => s.name)).toEqual(["fine"]);
    expect(diagnosticPairs(t, discovery)).toEqual([["not-a-directory", "home/repo/.claude/skills"]]);
    expect(discovery.roots.find((r) => r.dir === t.path("home/repo/.claude/skills"))?.exists).toBe(false);
  });

  it("roots that do not exist are reported, without diagnostics", async () => {
    const t = await build({});
    const discovery = await engineFor(t).discover();
    expect(discovery.diagnostics).toEqual([]);
    const mine = discovery.roots.filter((r) => r.dir.startsWith(t.root));
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((r) => !r.exists && r.count === 0)).toBe(true);
  });
});

describe("lazy bodies", () => {
  it("discovery reads only heads; loadBody reads the file", async () => {
    const t = await build({
      "home/.claude/skills/a/SKILL.md": skillMd("a"),
      "home/repo/.claude/skills/b/SKILL.md": skillMd("b"),
      "home/repo/.claude/commands/c.md": "command c body",
    });
    const spy = spyFs();
    const discovery = await engineFor(t, { fs: spy.fs }).discover();
    const skills = treeSkills(t, discovery);
    expect(skills).toHaveLength(3);
    // Settings and .mcp.json are read whole; no skill file is.
    const skillReads = () => spy.calls.readFile.filter((path) => path.endsWith(".md"));
    expect(skillReads()).toEqual([]);
    expect(spy.calls.readBytes).toEqual([]);
    expect(await skills[2]?.loadBody()).toBe("command c body");
    expect(skillReads()).toEqual([t.path("home/repo/.claude/commands/c.md")]);
  });
});
