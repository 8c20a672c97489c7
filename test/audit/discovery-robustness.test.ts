/**
 * Audit of SPEC §2 "A failure in one root or file never stops the others" for a special file: a FIFO named
 * SKILL.md (an `other`-kind entry, not a regular file). The malformed corpus covers bad bytes, links and
 * permissions, but never a file that blocks on open.
 */
import { execFileSync } from "node:child_process";
import { closeSync, constants, openSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createEngine } from "../../src/engine/engine.js";
import { createNodeFs } from "../../src/io/fs.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree | undefined;
let fifo: string | undefined;
afterEach(async () => {
  // A reader blocked in open() on the FIFO holds a libuv thread: give it a writer so it returns.
  if (fifo !== undefined) {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // no reader waiting (ENXIO): nothing to release
    }
  }
  await tree?.cleanup();
  tree = undefined;
  fifo = undefined;
});

const timeout = (ms: number) => new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), ms));

describe("a FIFO named SKILL.md (SPEC §2 failures stay local)", () => {
  // A FIFO would block a plain open() until a writer comes: heads are opened non-blocking and must be regular
  // files. The FIFO is skipped with a diagnostic and `good` loads, with both the async and the sync reads.
  it("discovery still finishes, loads the good skill and reports the FIFO", async () => {
    tree = await tmpTree({
      "home/.keep": "",
      "project/.git": { dir: true },
      "project/.claude/skills/good/SKILL.md": "---\ndescription: good\n---\nG\n",
      "project/.claude/skills/pipe/.keep": "",
    });
    fifo = tree.path("project/.claude/skills/pipe/SKILL.md");
    execFileSync("mkfifo", [fifo]);
    for (const fs of [createNodeFs({ syncReads: false }), createNodeFs()]) {
      const engine = createEngine({
        cwd: tree.path("project"),
        home: tree.path("home"),
        env: { SKILLWRIGHT_MANAGED_DIR: tree.path("managed") },
        fs,
      });
      const result = await Promise.race([engine.discover(), timeout(3_000)]);
      expect(result).not.toBe("timeout");
      if (result === "timeout") return;
      expect(result.skills.map((s) => s.name)).toEqual(["good"]);
      expect(result.diagnostics.some((d) => d.path === fifo && d.code === "file-unreadable")).toBe(true);
    }
  });
});
