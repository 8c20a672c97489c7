import { mkdir, writeFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/io.js";
import { runCli } from "../../src/cli/run.js";
import type { Engine } from "../../src/engine/engine.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

/**
 * Writes a new skill, again every second until the engine reloads by itself (the first write may come before
 * the watches are open).
 */
async function reloadsByItself(engine: Engine, dir: string): Promise<string[]> {
  let reloaded: string[] | undefined;
  const stop = engine.catalog.onChange((d) => {
    reloaded = d.skills.map((s) => s.name);
  });
  await mkdir(`${dir}/fresh`, { recursive: true });
  for (let i = 0; reloaded === undefined; i++) {
    await writeFile(`${dir}/fresh/SKILL.md`, `---\ndescription: Fresh ${i}\n---\n`);
    // Well over the watcher's quiet time (150 ms): each write is followed by a pause the reload can run in.
    for (let wait = 0; wait < 20 && reloaded === undefined; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  stop();
  return reloaded;
}

describe("interactive mode watches the skill roots", () => {
  it("an engine for the interactive mode reloads when a skill file appears (no /reload typed)", async () => {
    tree = await tmpTree({
      "repo/.git": { dir: true },
      "repo/.claude/skills/greet/SKILL.md": "---\ndescription: Greets\n---\nG\n",
      "home/.keep": "",
    });
    const t = tree;
    let names: string[] = [];
    const io: CliIo = {
      stdout: () => {},
      stderr: () => {},
      env: { SKILLWRIGHT_MANAGED_DIR: t.path("managed") },
      cwd: t.path("repo"),
      home: t.path("home"),
      bundledDir: t.path("no-bundled"),
      interactive: async (engine) => {
        await engine.discover();
        names = await reloadsByItself(engine, t.path("repo/.claude/skills"));
        return 0;
      },
    };
    expect(await runCli([], io)).toBe(0);
    expect(names).toEqual(["fresh", "greet"]);
  }, 15_000);
});
