// `skillwright search` shows progress while the search index is built from the skills' bodies (issue #45 item 2),
// as `add` and `serve` do (src/cli/progress.ts decides when and how it shows: after a second, a spinner on a
// terminal, nothing with --json); not when the index cache of an earlier run is still valid.
import { stat } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { searchCommand } from "../../src/cli/commands/search.js";
import type { CliIo } from "../../src/cli/io.js";
import { RACY_WINDOW_MS } from "../../src/discovery/head-cache.js";
import { createEngine } from "../../src/engine/engine.js";
import { createNodeFs } from "../../src/io/fs.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

/** One `search` run in a fresh engine (a new process's view), recording the progress it starts and ends. */
async function search(root: TmpTree, query: string) {
  const events: string[] = [];
  const out: string[] = [];
  const io: CliIo = {
    stdout: (t) => out.push(t),
    stderr: (t) => out.push(t),
    env: {},
    cwd: root.path("home/repo"),
    home: root.path("home"),
    bundledDir: root.path("no-bundled"),
  };
  const engine = createEngine({
    fs: createNodeFs(),
    cwd: io.cwd,
    home: io.home,
    env: {},
    bundledDir: io.bundledDir,
    discoveryCache: { dir: root.path("home/.skillwright/cache/discovery"), key: "test" },
  });
  try {
    const code = await searchCommand(engine, io, {
      query,
      json: false,
      limit: undefined,
      progress: (label) => {
        events.push(`start ${label}`);
        return () => events.push("done");
      },
    });
    return { code, events, output: out.join("") };
  } finally {
    await engine.close();
  }
}

/** Resolves once every file was last changed longer ago than the caches' racy window. */
async function outOfRacyWindow(files: readonly string[]): Promise<void> {
  const changed = Math.max(
    ...(await Promise.all(
      files.map(async (f) => {
        const s = await stat(f);
        return Math.max(s.mtimeMs, s.ctimeMs);
      }),
    )),
  );
  const wait = changed + RACY_WINDOW_MS + 50 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

describe("search's progress", () => {
  it("shows while the first run builds the index, and not when a later run loads it", async () => {
    tree = await tmpTree({
      "home/repo/.git": { dir: true },
      "home/repo/.claude/skills/vault/SKILL.md": "---\ndescription: Rotates vault keys\n---\nRotate.\n",
      "home/repo/.claude/skills/tables/SKILL.md": "---\ndescription: Formats tables\n---\nFormat.\n",
    });
    // Files changed within the last moments are not trusted to a cache (src/discovery/head-cache.ts isRacy): the
    // first run starts once they are older than that, so it may write the index for the next one.
    await outOfRacyWindow([
      tree.path("home/repo/.claude/skills/vault/SKILL.md"),
      tree.path("home/repo/.claude/skills/tables/SKILL.md"),
    ]);
    const first = await search(tree, "rotate keys");
    expect(first.code).toBe(0);
    expect(first.output).toContain("vault");
    // The two files and the engine's built-in skills.
    expect(first.events).toEqual([
      expect.stringMatching(/^start building the search index of \d+ skills$/),
      "done",
    ]);
    const later = await search(tree, "format tables");
    expect(later.code).toBe(0);
    expect(later.output).toContain("tables");
    expect(later.events).toEqual([]);
  }, 120_000);
});
