import { afterEach, describe, expect, it } from "vitest";
import { createNodeFs } from "../../src/io/fs.js";
import { isRelevantEvent, watchTargets } from "../../src/watch/watch-targets.js";
import { type TmpTree, tmpTree } from "../support/tmp-tree.js";

let tree: TmpTree | undefined;
afterEach(async () => {
  await tree?.cleanup();
  tree = undefined;
});

describe("watchTargets", () => {
  it("watches roots that exist recursively and the nearest existing parent of those that do not", async () => {
    tree = await tmpTree({ "repo/.claude/skills/a/SKILL.md": "x", "home/.keep": "" });
    const t = tree;
    const targets = await watchTargets(createNodeFs(), [
      t.path("repo/.claude/skills"),
      t.path("repo/.claude/commands"),
      t.path("repo/.agents/skills"),
      t.path("home/.claude/skills"),
      t.path("home/.agents/skills"),
    ]);
    expect(targets).toEqual([
      { dir: t.path("repo/.claude/skills"), recursive: true },
      { dir: t.path("repo/.claude"), recursive: false, toward: ["commands"] },
      { dir: t.path("repo"), recursive: false, toward: [".agents"] },
      { dir: t.path("home"), recursive: false, toward: [".claude", ".agents"] },
    ]);
  });

  it("counts an event on a parent only on the way to a missing root", () => {
    const parent = { dir: "/p", recursive: false, toward: [".claude"] };
    expect(isRelevantEvent(parent, ".claude")).toBe(true);
    expect(isRelevantEvent(parent, "src/index.ts")).toBe(false);
    expect(isRelevantEvent(parent, "README.md")).toBe(false);
    expect(isRelevantEvent({ dir: "/r", recursive: true }, "a/SKILL.md")).toBe(true);
  });
});
