import { describe, expect, it } from "vitest";
import type { FolderHash } from "../../src/install/folder-hash.js";
import {
  describeProblem,
  installedDrift,
  type LockProblem,
  upstreamChange,
} from "../../src/install/lock-check.js";
import type { LockEntry } from "../../src/install/skills-lock.js";

const theirs: LockEntry = {
  source: "a/b",
  sourceType: "github",
  skillPath: "x/SKILL.md",
  computedHash: "h1",
};
const ours: LockEntry = { ...theirs, skillwright: { files: { "SKILL.md": "f1", "ref.md": "f2" } } };

interface DriftCase {
  case: string;
  entry: LockEntry;
  installed: FolderHash | undefined;
  want: LockProblem | undefined;
}

describe("installedDrift", () => {
  it.each<DriftCase>([
    { case: "not installed", entry: theirs, installed: undefined, want: { kind: "not-installed" } },
    {
      case: "their lock, same hash",
      entry: theirs,
      installed: { computedHash: "h1", files: {} },
      want: undefined,
    },
    {
      case: "their lock, other hash",
      entry: theirs,
      installed: { computedHash: "h2", files: {} },
      want: { kind: "drifted", changed: [], added: [], removed: [] },
    },
    {
      case: "our lock names files",
      entry: ours,
      installed: { computedHash: "x", files: { "SKILL.md": "f9", "new.md": "f3" } },
      want: { kind: "drifted", changed: ["SKILL.md"], added: ["new.md"], removed: ["ref.md"] },
    },
    {
      case: "our lock, same files",
      entry: ours,
      installed: { computedHash: "x", files: { "SKILL.md": "f1", "ref.md": "f2" } },
      want: undefined,
    },
  ])("$case", ({ entry, installed, want }) => {
    expect(installedDrift(entry, installed)).toEqual(want);
  });
});

describe("upstreamChange", () => {
  it("moved only when the folder hash differs", () => {
    expect(upstreamChange(theirs, { kind: "found", computedHash: "h1", commit: "c2" })).toBeUndefined();
    const moved = upstreamChange(theirs, { kind: "found", computedHash: "h2", commit: "c2" });
    expect(moved).toEqual({ kind: "upstream-moved", locked: "h1", upstream: "h2", commit: "c2" });
    expect(upstreamChange(theirs, { kind: "gone" })).toEqual({
      kind: "upstream-gone",
      skillPath: "x/SKILL.md",
    });
    expect(describeProblem({ kind: "drifted", changed: ["a"], added: [], removed: ["b"] })).toBe(
      "installed copy differs from the lock: changed a, removed b",
    );
  });
});
