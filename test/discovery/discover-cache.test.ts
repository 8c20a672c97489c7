import { mkdir, readdir, readFile, rename, rm, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { basename } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import type { Discovery } from "../../src/catalog/catalog.js";
import { cacheFileFor } from "../../src/discovery/cache-file.js";
import { createEngine } from "../../src/engine/engine.js";
import { createNodeFs, type FsOps } from "../../src/io/fs.js";
import { listingFocus } from "../../src/session/listing-focus.js";
import { splitFrontmatter } from "../../src/skill/frontmatter-core.js";
import { analyzedName, analyzedText } from "../../src/skill-search/analyze.js";
import { type TmpTree, type TreeEntry, tmpTree } from "../support/tmp-tree.js";
import { skillMd, treeSkills } from "./engine-for.js";
import { spyFs } from "./spy-fs.js";

const SKILLS = "home/.claude/skills";
const TREE: Record<string, TreeEntry> = {
  "home/repo/.git": { dir: true },
  [`${SKILLS}/plain/SKILL.md`]: skillMd("plain one", "allowed-tools: Read, Grep\n"),
  [`${SKILLS}/scoped/SKILL.md`]: skillMd("only for ts", "paths:\n  - src/**/*.ts\n  - '*.md'\n"),
  [`${SKILLS}/folded/SKILL.md`]:
    "---\ndescription: |\n  first line\n  second line\nodd: { x: [1, 2] }\n---\nBody\n",
  [`${SKILLS}/broken/SKILL.md`]: "---\ndescription: [unclosed\nmodel: x\n---\nbroken body\n",
  [`${SKILLS}/plain-link`]: { symlink: "plain" },
  "home/.claude/commands/legacy.md": "---\ndescription: a legacy command\nname: ignored\n---\nDo it\n",
  "home/repo/.claude/skills/proj/SKILL.md": skillMd("project skill"),
};

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

/** plain's mtime, a whole second in the past, so that a test can set it back exactly after an edit. */
const PINNED_S = Math.floor(Date.now() / 1000) - 60;

async function build(): Promise<TmpTree> {
  tree = await tmpTree(TREE);
  await utimes(tree.path(`${SKILLS}/plain/SKILL.md`), PINNED_S, PINNED_S);
  return tree;
}

interface RunOptions {
  /** Use the discovery cache (default true). */
  cache?: boolean;
  fs?: FsOps;
  /** The cache dir, tree-relative. */
  cacheDir?: string;
}

/** A fresh engine over the tree (a new process, as far as the cache is concerned), discovered once. */
function run(t: TmpTree, options: RunOptions = {}): Promise<Discovery> {
  const engine = createEngine({
    cwd: t.path("home/repo"),
    home: t.path("home"),
    env: { SKILLWRIGHT_MANAGED_DIR: t.path("managed") },
    bundledExtractRoot: t.path("extract"),
    ...(options.fs === undefined ? {} : { fs: options.fs }),
    ...(options.cache === false
      ? {}
      : { discoveryCache: { dir: t.path(options.cacheDir ?? "cache"), key: "test+1" } }),
    // An hour ahead: nothing the test just wrote is racy, so every head is kept.
    now: () => Date.now() + 3_600_000,
  });
  return engine.discover();
}

/** Everything a caller sees but `loadBody` (a function), as JSON text so that key order and -0 count too. */
function observed(t: TmpTree, discovery: Discovery): { skills: string; diagnostics: string } {
  const skills = treeSkills(t, discovery).map(({ loadBody: _, ...data }) => data);
  return {
    skills: JSON.stringify(skills, null, 1),
    diagnostics: JSON.stringify(discovery.diagnostics, null, 1),
  };
}

/** The skill and command files among the paths read (settings and plugin manifests are read every run). */
function skillReads(paths: string[]): string[] {
  return paths.filter((p) => p.endsWith(".md"));
}

function skill(t: TmpTree, discovery: Discovery, name: string) {
  return treeSkills(t, discovery).find((s) => s.name === name);
}

describe("discovery through the head cache", () => {
  it("gives what an uncached run gives, and a warm run reads no heads", async () => {
    const t = await build();
    const uncached = await run(t, { cache: false });
    const codes = uncached.diagnostics.map((d) => d.code);
    expect(codes).toEqual(expect.arrayContaining(["yaml-invalid", "duplicate-realpath", "field-unknown"]));
    expect(skill(t, uncached, "scoped")?.paths).toEqual(["src/**/*.ts", "*.md"]);
    expect(skill(t, uncached, "folded")?.description).toBe("first line second line");
    expect(skill(t, uncached, "legacy")?.kind).toBe("command");

    const cold = await run(t);
    expect(observed(t, cold)).toEqual(observed(t, uncached));
    // One file for the project (the git root, home/repo), named after it.
    expect(await readdir(t.path("cache"))).toEqual([
      basename(cacheFileFor(t.path("cache"), t.path("home/repo"))),
    ]);

    const spy = spyFs();
    const warm = await run(t, { fs: spy.fs });
    expect(observed(t, warm)).toEqual(observed(t, uncached));
    expect(skillReads(spy.calls.readHead)).toEqual([]);
    expect(skillReads(spy.calls.readBytes)).toEqual([]);
    expect(spy.calls.writeFile).toEqual([]);

    // Bodies are never cached: each loadBody reads the file as it is when called.
    await writeFile(
      t.path(`${SKILLS}/plain/SKILL.md`),
      `${skillMd("plain one", "allowed-tools: Read, Grep\n")}more\n`,
    );
    for (const s of treeSkills(t, warm)) {
      expect(await s.loadBody()).toBe(splitFrontmatter(await readFile(s.filePath, "utf8")).body);
    }
    expect(await skill(t, warm, "plain")?.loadBody()).toBe("Body of plain one\nmore\n");
  });

  it("does not keep heads of files changed within the racy window: the next run reads them again", async () => {
    const t = await build();
    const engine = (now: number, fs?: FsOps) =>
      createEngine({
        cwd: t.path("home/repo"),
        home: t.path("home"),
        env: { SKILLWRIGHT_MANAGED_DIR: t.path("managed") },
        ...(fs === undefined ? {} : { fs }),
        discoveryCache: { dir: t.path("cache"), key: "test+1" },
        now: () => now,
      });
    await engine(Date.now()).discover();
    const spy = spyFs();
    await engine(Date.now() + 3_600_000, spy.fs).discover();
    expect(skillReads(spy.calls.readHead)).toHaveLength(7);
  });

  const SAME_SIZE = `${SKILLS}/plain/SKILL.md`;
  it.each<[string, (t: TmpTree) => Promise<void>, (t: TmpTree, d: Discovery) => void]>([
    [
      "content changed, size changed",
      (t) => writeFile(t.path(`${SKILLS}/plain/SKILL.md`), skillMd("a much longer description now")),
      (t, d) => expect(skill(t, d, "plain")?.description).toBe("a much longer description now"),
    ],
    [
      "content changed, same size (mtime and ctime move)",
      async (t) => {
        await sameSizeEdit(t, SAME_SIZE);
      },
      (t, d) => expect(skill(t, d, "plain")?.description).toBe("PLAIN ONE"),
    ],
    [
      "content changed, same size and mtime set back (only ctime moves)",
      async (t) => {
        await sameSizeEdit(t, SAME_SIZE, true);
      },
      (t, d) => expect(skill(t, d, "plain")?.description).toBe("PLAIN ONE"),
    ],
    [
      "a skill dir removed",
      (t) => rm(t.path(`${SKILLS}/scoped`), { recursive: true }),
      (t, d) => expect(skill(t, d, "scoped")).toBeUndefined(),
    ],
    [
      "a skill dir added",
      async (t) => {
        await mkdir(t.path(`${SKILLS}/fresh`));
        await writeFile(t.path(`${SKILLS}/fresh/SKILL.md`), skillMd("brand new"));
      },
      (t, d) => expect(skill(t, d, "fresh")?.description).toBe("brand new"),
    ],
    [
      "a file replaced by a symlink to another skill",
      async (t) => {
        await rm(t.path(`${SKILLS}/folded/SKILL.md`));
        await symlink("../plain/SKILL.md", t.path(`${SKILLS}/folded/SKILL.md`));
      },
      (t, d) => {
        // folded/SKILL.md is now the same file as plain's: one of the two paths loads it, the other is a duplicate.
        const both = ["folded", "plain"].map((n) => skill(t, d, n)?.description);
        expect(both.filter((x) => x !== undefined)).toEqual(["plain one"]);
      },
    ],
    [
      "a SKILL.md removed, its dir kept",
      (t) => rm(t.path(`${SKILLS}/scoped/SKILL.md`)),
      (t, d) => {
        expect(skill(t, d, "scoped")).toBeUndefined();
        expect(d.diagnostics.map((x) => x.path)).toContain(t.path(`${SKILLS}/scoped`));
      },
    ],
    [
      "a file replaced by another of the same size (a new file renamed over it)",
      async (t) => {
        const path = t.path(SAME_SIZE);
        const text = await readFile(path, "utf8");
        await writeFile(`${path}.new`, text.replace("description: plain one", "description: PLAIN ONE"));
        await utimes(`${path}.new`, PINNED_S, PINNED_S);
        await rename(`${path}.new`, path);
      },
      (t, d) => expect(skill(t, d, "plain")?.description).toBe("PLAIN ONE"),
    ],
  ])("sees an edit: %s", async (_, edit, check) => {
    for (const fs of [undefined, createNodeFs({ syncReads: false })]) {
      const t = await build();
      await run(t, { ...(fs === undefined ? {} : { fs }) });
      await edit(t);
      const uncached = await run(t, { cache: false });
      const cached = await run(t, { ...(fs === undefined ? {} : { fs }) });
      check(t, cached);
      expect(observed(t, cached)).toEqual(observed(t, uncached));
      // And the run after it, from the cache as rewritten.
      expect(observed(t, await run(t))).toEqual(observed(t, uncached));
      await t.cleanup();
      tree = undefined;
    }
  });

  it("keeps each head's search terms with it: a warm run's skills carry them, and a changed description changes them", async () => {
    const t = await build();
    const focus = (d: Discovery, prompt: string) => listingFocus(treeSkills(t, d), prompt).relevant;
    // A cold run reads the heads (nothing kept yet); the next one has the terms the cold run kept.
    expect(skill(t, await run(t), "plain")?.terms).toBeUndefined();
    const warm = await run(t);
    expect(skill(t, warm, "plain")?.terms).toEqual({
      name: "plain",
      nameTerms: analyzedName("plain"),
      description: "plain one",
      descriptionTerms: analyzedText("plain one"),
      whenToUse: "",
      whenToUseTerms: "",
      argumentHint: "",
      argumentHintTerms: "",
    });
    expect(await readFile(cacheFileFor(t.path("cache"), t.path("home/repo")), "utf8")).toContain(
      JSON.stringify([analyzedName("plain"), analyzedText("plain one"), "", ""]),
    );
    expect(focus(warm, "tabulate spreadsheets")).not.toContain("plain");

    await writeFile(t.path(`${SKILLS}/plain/SKILL.md`), skillMd("tabulate spreadsheets for a ledger"));
    await run(t);
    const changed = await run(t);
    const terms = skill(t, changed, "plain")?.terms;
    expect(terms?.description).toBe("tabulate spreadsheets for a ledger");
    expect(terms?.descriptionTerms).toBe(analyzedText("tabulate spreadsheets for a ledger"));
    expect(terms?.descriptionTerms).not.toBe(analyzedText("plain one"));
    expect(focus(changed, "tabulate spreadsheets")[0]).toBe("plain");
  });

  it("a warm run with synchronous reads stats each skill file once and reads none, with no promise per file", async () => {
    const t = await build();
    const uncached = await run(t, { cache: false });
    await run(t);
    const calls: Record<"statSync" | "stat" | "readHeadSync" | "readHead", string[]> = {
      statSync: [],
      stat: [],
      readHeadSync: [],
      readHead: [],
    };
    const real = createNodeFs();
    const counting: FsOps = {
      ...real,
      statSync: (path) => {
        calls.statSync.push(path);
        return real.statSync?.(path) ?? expect.unreachable();
      },
      stat: (path) => {
        calls.stat.push(path);
        return real.stat(path);
      },
      readHeadSync: (path, max) => {
        calls.readHeadSync.push(path);
        return real.readHeadSync?.(path, max) ?? expect.unreachable();
      },
      readHead: (path, max) => {
        calls.readHead.push(path);
        return real.readHead(path, max);
      },
    };
    const warm = await run(t, { fs: counting });
    expect(observed(t, warm)).toEqual(observed(t, uncached));
    expect(skillReads(calls.readHeadSync)).toEqual([]);
    expect(skillReads(calls.readHead)).toEqual([]);
    expect(skillReads(calls.stat)).toEqual([]);
    const files = skillReads(calls.statSync);
    // Every skill and command path (the symlinked dir's too) once.
    expect(files).toHaveLength(7);
    expect(new Set(files).size).toBe(7);
  });

  it("a cold run with synchronous reads stamps each head from its own read, with no stat of the path", async () => {
    const t = await build();
    const uncached = await run(t, { cache: false });
    const statSyncs: string[] = [];
    const real = createNodeFs();
    const counting: FsOps = {
      ...real,
      statSync: (path) => {
        statSyncs.push(path);
        return real.statSync?.(path) ?? expect.unreachable();
      },
    };
    const cold = await run(t, { fs: counting });
    expect(observed(t, cold)).toEqual(observed(t, uncached));
    expect(skillReads(statSyncs)).toEqual([]);
    // The stamps kept are the files' own: the next run is served from the cache and reads no skill file.
    const spy = spyFs();
    const warm = await run(t, { fs: spy.fs });
    expect(observed(t, warm)).toEqual(observed(t, uncached));
    expect(skillReads(spy.calls.readHead)).toEqual([]);
  });

  it("an fs whose heads carry no times has each file stat'ed before it is read, and its heads kept", async () => {
    const t = await build();
    const uncached = await run(t, { cache: false });
    const real = createNodeFs();
    const readHeadSync = real.readHeadSync ?? expect.unreachable();
    const statSyncs: string[] = [];
    const timeless: FsOps = {
      ...real,
      statSync: (path) => {
        statSyncs.push(path);
        return real.statSync?.(path) ?? expect.unreachable();
      },
      readHeadSync: (path, max, keep) => {
        const { mtimeMs: _m, ctimeMs: _c, ...head } = readHeadSync(path, max, keep);
        return head;
      },
    };
    const cold = await run(t, { fs: timeless });
    expect(observed(t, cold)).toEqual(observed(t, uncached));
    // The first head shows the fs gives no times (that file is not kept); every later one is stat'ed first.
    expect(skillReads(statSyncs).length).toBeGreaterThan(0);
    const warm = await run(t, { fs: timeless });
    expect(observed(t, warm)).toEqual(observed(t, uncached));
  });

  it("keeps no entry for a path skipped as a link to a file already read: moving the first path away loses no skill", async () => {
    const t = await build();
    // plain-link (a link to plain) is met after plain, so the cold run skips reading it as a duplicate.
    const cold = await run(t);
    expect(cold.diagnostics.some((d) => d.code === "duplicate-realpath")).toBe(true);
    // plain moves out of every root and the link follows it: the same file (same stamp) now has one path.
    await mkdir(t.path("home/elsewhere"));
    await rename(t.path(`${SKILLS}/plain`), t.path("home/elsewhere/plain"));
    await rm(t.path(`${SKILLS}/plain-link`));
    await symlink(t.path("home/elsewhere/plain"), t.path(`${SKILLS}/plain-link`));
    const warm = await run(t);
    expect(skill(t, warm, "plain-link")?.description).toBe("plain one");
    expect(observed(t, warm)).toEqual(observed(t, await run(t, { cache: false })));
  });

  it("a YAML alias cycle in a skill does not break discovery, and is read fresh each run", async () => {
    const t = await build();
    await mkdir(t.path(`${SKILLS}/loop`));
    await writeFile(t.path(`${SKILLS}/loop/SKILL.md`), "---\ndescription: d\nloop: &x\n  again: *x\n---\n");
    const cached = await run(t);
    expect(skill(t, cached, "loop")?.description).toBe("d");
    const spy = spyFs();
    await run(t, { fs: spy.fs });
    expect(skillReads(spy.calls.readHead)).toEqual([t.path(`${SKILLS}/loop/SKILL.md`)]);
  });

  it("reports an unwritable cache as info and still discovers", async () => {
    const t = await build();
    await writeFile(t.path("blocker"), "a file where the cache dir should be");
    const uncached = await run(t, { cache: false });
    const discovery = await run(t, { cacheDir: "blocker/cache" });
    const problems = discovery.diagnostics.filter((d) => d.code === "cache-unwritable");
    expect(problems).toEqual([
      expect.objectContaining({
        severity: "info",
        path: cacheFileFor(t.path("blocker/cache"), t.path("home/repo")),
      }),
    ]);
    const rest = {
      ...discovery,
      diagnostics: discovery.diagnostics.filter((d) => d.code !== "cache-unwritable"),
    };
    expect(observed(t, rest)).toEqual(observed(t, uncached));
  });
});

/**
 * Rewrites `plain` to text of the same size (in place: same inode), after a pause so that the file system's
 * clock has moved. With `keepMtime`, the mtime is put back to {@link PINNED_S} afterwards, so that only the
 * ctime differs from the stamp the warm-up run cached. Asserts which parts of the stamp moved, so the case tests what it says.
 */
async function sameSizeEdit(t: TmpTree, relative: string, keepMtime = false): Promise<void> {
  const path = t.path(relative);
  const before = await stat(path);
  await sleepUntilClockMoves(t, before.ctimeMs);
  const text = await readFile(path, "utf8");
  await writeFile(path, text.replace("description: plain one", "description: PLAIN ONE"));
  if (keepMtime) await utimes(path, PINNED_S, PINNED_S);
  const after = await stat(path);
  expect([after.ino, after.size]).toEqual([before.ino, before.size]);
  expect(after.ctimeMs).not.toBe(before.ctimeMs);
  if (keepMtime) expect(after.mtimeMs).toBe(PINNED_S * 1000);
  else expect(after.mtimeMs).not.toBe(before.mtimeMs);
}

/** Waits until a file written now would get a ctime other than `ctimeMs` (coarse kernel clocks tick in ms). */
async function sleepUntilClockMoves(t: TmpTree, ctimeMs: number): Promise<void> {
  const probe = t.path("probe");
  for (;;) {
    await sleep(5);
    await writeFile(probe, "x");
    if ((await stat(probe)).ctimeMs > ctimeMs) return;
  }
}
