import { pbkdf2 } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skillRoots } from "../../src/discovery/skill-roots.js";
import { createNodeFs, errorCode, type FsOps } from "../../src/io/fs.js";
import { discoverSkills } from "../support/discover.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree;
beforeAll(async () => {
  tree = await tmpTree({
    "small.md": "hello\n",
    "big.md": `${"x".repeat(10_000)}\n`,
    "empty.md": "",
    "binary.md": new Uint8Array([0x2d, 0x2d, 0x00, 0x41]),
    "link.md": { symlink: "small.md" },
    "dir/a.md": "a",
    "proj/.git": { dir: true },
    "proj/.claude/skills/good/SKILL.md": "---\ndescription: good\n---\nbody\n",
    "proj/.claude/skills/yaml/SKILL.md": "---\ndescription: [unclosed\n---\nbody\n",
    "proj/.claude/skills/linked": { symlink: "good" },
    "proj/.claude/skills/loop": { symlink: "loop" },
    "proj/.claude/skills/empty/SKILL.md": "",
    "proj/.claude/commands/ns/cmd.md": "run it",
  });
});
afterAll(() => tree.cleanup());

const variants: [string, FsOps][] = [
  ["async reads", createNodeFs({ syncReads: false })],
  ["sync reads (the default)", createNodeFs()],
];

describe.each(variants)("createNodeFs (%s)", (_name, fs) => {
  it("readHead reads at most maxBytes and reports size, completeness, binary and identity", async () => {
    const small = await fs.readHead(tree.path("small.md"), 4096);
    expect(small).toMatchObject({ text: "hello\n", size: 6, complete: true, binary: false });
    const big = await fs.readHead(tree.path("big.md"), 4096);
    expect(big).toMatchObject({ size: 10_001, complete: false });
    expect(big.text).toHaveLength(4096);
    expect(await fs.readHead(tree.path("empty.md"), 4096)).toMatchObject({
      text: "",
      size: 0,
      complete: true,
    });
    expect((await fs.readHead(tree.path("binary.md"), 4096)).binary).toBe(true);
    const linked = await fs.readHead(tree.path("link.md"), 4096);
    expect(linked.fileId).toBe(small.fileId);
    expect(linked.fileId).not.toBe(big.fileId);
  });

  it("rejects with Node error codes", async () => {
    const code = (promise: Promise<unknown>) => promise.then(() => "resolved", errorCode);
    expect(await code(fs.readHead(tree.path("missing.md"), 10))).toBe("ENOENT");
    expect(await code(fs.readHead(tree.path("dir"), 10))).toBe("ENOTREG");
    expect(await code(fs.readdir(tree.path("small.md")))).toBe("ENOTDIR");
    expect(await code(fs.readFile(tree.path("missing.md")))).toBe("ENOENT");
  });

  it("readdir reports kinds without following links", async () => {
    const entries = await fs.readdir(tree.root);
    expect(entries.find((e) => e.name === "link.md")?.kind).toBe("symlink");
    expect(entries.find((e) => e.name === "dir")?.kind).toBe("dir");
    expect(entries.find((e) => e.name === "small.md")?.kind).toBe("file");
  });
});

it("discovery gives the same skills and diagnostics with sync and async reads", async () => {
  const roots = skillRoots({
    home: tree.path("home"),
    managedDir: tree.path("managed"),
    projectDirs: [tree.path("proj")],
    addDirs: [],
  });
  const view = async (fs: FsOps) => {
    const discovery = await discoverSkills({ fs, roots });
    return JSON.stringify({
      skills: discovery.skills.map((s) => [s.name, s.filePath]),
      d: discovery.diagnostics,
    });
  };
  const [asyncView, syncView] = await Promise.all([
    view(createNodeFs({ syncReads: false })),
    view(createNodeFs()),
  ]);
  expect(syncView).toBe(asyncView);
  expect(asyncView).toContain("duplicate-realpath");
  expect(asyncView).toContain("symlink-loop");
});

describe("createNodeFs's statSyncIfAny", () => {
  it("is undefined where nothing is, the stat of what is there, and throws on other failures", () => {
    const fs = createNodeFs();
    expect(fs.statSyncIfAny?.(tree.path("missing.md"))).toBeUndefined();
    expect(fs.statSyncIfAny?.(tree.path("missing-dir/agents/openai.yaml"))).toBeUndefined();
    expect(fs.statSyncIfAny?.(tree.path("small.md"))).toEqual(fs.statSync?.(tree.path("small.md")));
    expect(fs.statSyncIfAny?.(tree.path("dir"))?.kind).toBe("dir");
    expect(() => fs.statSyncIfAny?.(tree.path("proj/.claude/skills/loop/x"))).toThrow();
  });
});

describe("createNodeFs's default read strategy", () => {
  /** Keeps every libuv thread-pool thread busy for a while, so an asynchronous fs call waits behind it. */
  const busyThreadPool = () =>
    Promise.all(
      Array.from(
        { length: 16 },
        () => new Promise((resolve) => pbkdf2("x", "salt", 200_000, 32, "sha256", () => resolve(undefined))),
      ),
    );

  it("reads synchronously unless asked not to (the faster strategy for discovery)", async () => {
    const dir = tree.path("dir");
    const seen = async (fs: FsOps, name: string) => {
      const busy = busyThreadPool();
      // A synchronous readdir has listed the dir before this call returns; an asynchronous one runs later.
      const listing = fs.readdir(dir);
      writeFileSync(join(dir, name), "");
      const names = (await listing).map((e) => e.name);
      await busy;
      return names.includes(name);
    };
    expect(await seen(createNodeFs(), "after-default.md")).toBe(false);
    expect(await seen(createNodeFs({ syncReads: false }), "after-async.md")).toBe(true);
  });
});
