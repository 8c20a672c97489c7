import { afterEach, describe, expect, it } from "vitest";
import { skillRoots } from "../../src/discovery/skill-roots.js";
import { createNodeFs, type FsOps } from "../../src/io/fs.js";
import { discoverSkills } from "../support/discover.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

/** The real fs with each head read counted, by the method that read it. */
function countingFs(): { fs: FsOps; sync: string[]; async: string[]; skipped: string[] } {
  const real = createNodeFs();
  const sync: string[] = [];
  const async: string[] = [];
  const skipped: string[] = [];
  const readHeadSync = real.readHeadSync;
  if (readHeadSync === undefined) throw new Error("createNodeFs() has no readHeadSync");
  const fs: FsOps = {
    ...real,
    readHead: (path, max) => {
      async.push(path);
      return real.readHead(path, max);
    },
    readHeadSync: (path, max, keep) => {
      sync.push(path);
      const head = readHeadSync(path, max, keep);
      if (head.skipped === true) skipped.push(path);
      return head;
    },
  };
  return { fs, sync, async, skipped };
}

const SKILLS = {
  "skills/plain/SKILL.md": '---\ndescription: "Plain one"\nallowed-tools: [Read, Grep]\n---\nBody\n',
  // A nested hook map: the fast path declines, so `yaml` reads it.
  "skills/hooked/SKILL.md":
    "---\ndescription: Hooked\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n---\nBody\n",
  "skills/broken/SKILL.md": "---\ndescription: [unclosed\n---\nBody\n",
  "skills/unclosed/SKILL.md": "---\ndescription: never closed\n\nBody\n",
  "skills/empty-dir/notes.txt": "not a skill",
  "skills/is-dir/SKILL.md/inner.txt": "a dir named SKILL.md",
  // Frontmatter running past the head: read whole.
  "skills/long/SKILL.md": `---\ndescription: Long\nextra: ${"x".repeat(5_000)}\n---\nBody\n`,
  // The same skill dir reached through a link: loaded once, from the first path.
  "skills/z-link": { symlink: "plain" },
};

async function discoverBoth() {
  tree = await tmpTree(SKILLS);
  const roots = skillRoots({ home: tree.path("home"), managedDir: tree.root, projectDirs: [], addDirs: [] });
  const counted = countingFs();
  const viaSync = await discoverSkills({ fs: counted.fs, roots });
  const { readHeadSync: _, ...asyncOnly } = createNodeFs();
  const viaAsync = await discoverSkills({ fs: asyncOnly, roots });
  return { counted, viaSync, viaAsync };
}

describe("discovery through readHeadSync", () => {
  it("reports a too-large file reached through a link once, and the link as a duplicate", async () => {
    tree = await tmpTree({
      "skills/big/SKILL.md": `---\ndescription: Big\n---\n${"x".repeat(1_000_001)}`,
      "skills/big-link": { symlink: "big" },
    });
    const roots = skillRoots({
      home: tree.path("home"),
      managedDir: tree.root,
      projectDirs: [],
      addDirs: [],
    });
    const found = await discoverSkills({ fs: createNodeFs(), roots });
    expect(found.skills).toEqual([]);
    const seen = found.diagnostics.map((d) => `${d.code} ${d.path?.split("/").slice(-2, -1)[0]}`);
    expect(seen.sort()).toEqual(["duplicate-realpath big-link", "file-too-large big"]);
  });

  it("reads heads in one synchronous pass when the fs has readHeadSync", async () => {
    const { counted } = await discoverBoth();
    const synced = counted.sync.map((p) => p.split("/").slice(-2, -1)[0]).sort();
    expect(synced).toEqual([
      "broken",
      "empty-dir",
      "hooked",
      "is-dir",
      "long",
      "plain",
      "unclosed",
      "z-link",
    ]);
    // Only the heads the synchronous pass could not finish alone are read again, asynchronously.
    const rest = counted.async.map((p) => p.split("/").slice(-2, -1)[0]).sort();
    expect(rest).toEqual(["empty-dir", "is-dir", "long"]);
  });

  it("does not read a file again when a link reaches it a second time (as the fs floor does not)", async () => {
    const { counted, viaSync } = await discoverBoth();
    expect(counted.skipped.map((p) => p.split("/").slice(-2, -1)[0])).toEqual(["z-link"]);
    expect(viaSync.diagnostics.filter((d) => d.code === "duplicate-realpath").map((d) => d.path)).toEqual([
      expect.stringMatching(/z-link\/SKILL\.md$/),
    ]);
  });

  it("finds exactly what the asynchronous reads find: skills, yaml heads, diagnostics", async () => {
    const { viaSync, viaAsync } = await discoverBoth();
    const view = (d: typeof viaSync) => ({
      skills: d.skills.map(({ loadBody: _l, references: _r, ...rest }) => rest),
      diagnostics: d.diagnostics,
    });
    expect(view(viaSync)).toEqual(view(viaAsync));
    expect(viaSync.skills.map((s) => s.name).sort()).toEqual([
      "broken",
      "hooked",
      "long",
      "plain",
      "unclosed",
    ]);
    expect(viaSync.skills.find((s) => s.name === "hooked")?.extra).toEqual({});
    expect(viaSync.diagnostics.map((d) => d.code).sort()).toEqual(
      expect.arrayContaining(["frontmatter-unclosed", "not-a-file", "yaml-invalid"]),
    );
  });
});
