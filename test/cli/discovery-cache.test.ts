import { existsSync, readdirSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISCOVERY_CACHE_ENV, discoveryCacheFor } from "../../src/cli/discovery-cache.js";
import { cacheFileFor } from "../../src/discovery/cache-file.js";
import { RACY_WINDOW_MS } from "../../src/discovery/head-cache.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

/** The shipped bin (package.json "bin"); CI builds it before the tests. */
const BIN = fileURLToPath(new URL("../../dist/bin/main.js", import.meta.url));

describe("discoveryCacheFor", () => {
  const base = { home: "/h", env: {}, version: "1.2.3", buildId: "42-1000" };

  it("keeps the cache under ~/.skillwright/cache/discovery, keyed to the version and the build", () => {
    expect(discoveryCacheFor(base)).toEqual({ dir: "/h/.skillwright/cache/discovery", key: "1.2.3+42-1000" });
    expect(discoveryCacheFor({ ...base, version: undefined })?.key).toBe("unknown+42-1000");
  });

  it.each([
    ["off", undefined],
    ["OFF", undefined],
    ["0", undefined],
    [" false ", undefined],
    ["on", "cache"],
    ["", "cache"],
  ])(`${DISCOVERY_CACHE_ENV}=%j`, (value, expected) => {
    const config = discoveryCacheFor({ ...base, env: { [DISCOVERY_CACHE_ENV]: value } });
    expect(config === undefined ? undefined : "cache").toBe(expected);
  });

  it("no cache when the build is unknown (in-process runs, embedders)", () => {
    expect(discoveryCacheFor({ ...base, buildId: undefined })).toBeUndefined();
  });
});

describe("cacheFileFor", () => {
  it("names one file per project dir: its name (made file-safe) and a hash of its path", () => {
    const file = cacheFileFor("/c", "/work/my repo");
    expect(file).toMatch(/^\/c\/my_repo-[0-9a-f]{8}\.json$/);
    expect(cacheFileFor("/c", "/work/my repo")).toBe(file);
    expect(cacheFileFor("/c", "/other/my repo")).not.toBe(file);
    expect(cacheFileFor("/c", "/")).toMatch(/^\/c\/root-[0-9a-f]{8}\.json$/);
  });
});

describe("the CLI's discovery cache, through the shipped bin", () => {
  let tree: TmpTree;
  let written: number;
  beforeAll(async () => {
    tree = await tmpTree({
      "proj/.git": { dir: true },
      "proj/.claude/skills/alpha/SKILL.md": "---\ndescription: first alpha\n---\nAlpha body\n",
      "proj/.claude/skills/beta/SKILL.md": "---\ndescription: |\n  beta in a block\n---\n",
    });
    written = Date.now();
  });
  afterAll(() => tree.cleanup());

  const cacheDir = () => join(tree.path("home"), ".skillwright", "cache", "discovery");
  const list = async (env: Record<string, string> = {}, cwd = "proj") => {
    const result = await execa(
      process.execPath,
      [BIN, "list", "--json", "--cwd", tree.path(cwd), "--home", tree.path("home")],
      { env: { SKILLWRIGHT_MANAGED_DIR: tree.path("managed"), ...env }, reject: false, timeout: 20_000 },
    );
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const skills = JSON.parse(result.stdout) as { name: string; description: string; path: string }[];
    return skills.filter((s) => s.path.startsWith(tree.root)).map((s) => [s.name, s.description]);
  };

  it("is off with SKILLWRIGHT_DISCOVERY_CACHE=off, then kept, reused and refreshed on edits", async () => {
    expect(await list({ [DISCOVERY_CACHE_ENV]: "off" })).toEqual([
      ["alpha", "first alpha"],
      ["beta", "beta in a block"],
    ]);
    expect(existsSync(cacheDir())).toBe(false);

    // Files changed within the racy window are never kept: wait until these are old enough.
    await new Promise((r) => setTimeout(r, Math.max(0, written + RACY_WINDOW_MS + 100 - Date.now())));
    const first = await list();
    expect(readdirSync(cacheDir())).toEqual([expect.stringMatching(/^proj-[0-9a-f]{8}\.json$/)]);
    expect(await list()).toEqual(first);

    await writeFile(tree.path("proj/.claude/skills/alpha/SKILL.md"), "---\ndescription: second alpha\n---\n");
    await mkdir(tree.path("proj/.claude/skills/gamma"));
    await writeFile(tree.path("proj/.claude/skills/gamma/SKILL.md"), "---\ndescription: new gamma\n---\n");
    expect(await list()).toEqual([
      ["alpha", "second alpha"],
      ["beta", "beta in a block"],
      ["gamma", "new gamma"],
    ]);
    // A subdirectory of the repository shares the project's file.
    await mkdir(tree.path("proj/src/deep"), { recursive: true });
    expect(await list({}, "proj/src/deep")).toHaveLength(3);
    expect(readdirSync(cacheDir())).toHaveLength(1);
  }, 30_000);
});
