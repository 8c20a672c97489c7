// Prompt templates follow a reload (`engine.reload()`, which `/reload` runs) and the live-reload watcher, as
// skills do: an open session expands a template added or edited after it opened.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createNodeWatch, type WatchFn } from "../../src/watch/node-watch.js";
import { type Harness, lastUser, startHarness, textBlocks } from "../support/harness.js";
import { createManualTimers } from "../support/manual-timers.js";
import { textTurn } from "../support/model-server.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

/** Waits until `check` holds (the test's own timeout bounds the wait). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** The text of the last user message of the `index`-th request. */
function sent(harness: Harness, index: number): string {
  return textBlocks(lastUser(harness.body(index)).content).join("\n");
}

describe("prompt templates follow reloads", () => {
  it("after engine.reload() (/reload), a template added or edited since the session opened expands", async () => {
    h = await startHarness({
      files: { "project/.skillwright/prompts/review.md": "Review $1 (v1)." },
      turns: [textTurn("a"), textTurn("b"), textTurn("c")],
    });
    const s = h;
    await s.send("/review a.ts");
    expect(sent(s, 0)).toContain("Review a.ts (v1).");
    await put(join(s.cwd, ".skillwright/prompts/review.md"), "Review $1 (v2).");
    await put(join(s.home, ".skillwright/prompts/fresh.md"), "Fresh $ARGUMENTS.");
    await s.engine.reload();
    await s.send("/review b.ts");
    expect(sent(s, 1)).toContain("Review b.ts (v2).");
    await s.send("/fresh x y");
    expect(sent(s, 2)).toContain("Fresh x y.");
  });

  it("the watcher watches the template folders: a template written there expands on the next turn", async () => {
    const timers = createManualTimers();
    const inner = createNodeWatch();
    const dirs: string[] = [];
    const watch: WatchFn = (dir, recursive, listener) => {
      dirs.push(dir);
      return inner(dir, recursive, listener);
    };
    h = await startHarness({
      files: { "project/.skillwright/prompts/keep.md": "Keep." },
      engine: { watch: { timers, watch } },
      turns: [textTurn("a")],
    });
    const s = h;
    const promptsDir = join(s.cwd, ".skillwright", "prompts");
    await until(() => dirs.includes(promptsDir));
    let reloads = 0;
    s.engine.catalog.onChange(() => reloads++);
    await put(join(promptsDir, "ship.md"), "Ship $1 now.");
    await until(() => timers.pending() === 1);
    timers.fireAll();
    await until(() => reloads === 1);
    await s.send("/ship v2");
    expect(sent(s, 0)).toContain("Ship v2 now.");
  });
});
