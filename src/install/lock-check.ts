import type { FolderHash } from "./folder-hash.js";
import type { LockEntry } from "./skills-lock.js";

/** What the upstream source holds for a locked skill now. */
export type UpstreamState =
  | { kind: "found"; computedHash: string; commit?: string }
  | { kind: "gone" }
  | { kind: "unreachable"; reason: string };

/** A way a locked skill no longer matches its lock. */
export type LockProblem =
  | { kind: "not-installed" }
  /** The installed files differ from the lock; the file lists are empty when the lock has no per-file hashes. */
  | { kind: "drifted"; changed: string[]; added: string[]; removed: string[] }
  | { kind: "upstream-moved"; locked: string; upstream: string; commit?: string }
  | { kind: "upstream-gone"; skillPath: string }
  | { kind: "upstream-unreachable"; reason: string };

/**
 * How the installed copy differs from the lock entry: file by file against our per-file hashes when the entry
 * has them, else the whole folder's hash against `computedHash` (a lock the `skills` installer wrote).
 * Undefined when they match. Pure.
 */
export function installedDrift(entry: LockEntry, installed: FolderHash | undefined): LockProblem | undefined {
  if (installed === undefined) return { kind: "not-installed" };
  const locked = entry.skillwright?.files;
  if (locked === undefined) {
    return installed.computedHash === entry.computedHash
      ? undefined
      : { kind: "drifted", changed: [], added: [], removed: [] };
  }
  const changed: string[] = [];
  const added: string[] = [];
  for (const [path, hash] of Object.entries(installed.files)) {
    const was = locked[path];
    if (was === undefined) added.push(path);
    else if (was !== hash) changed.push(path);
  }
  const removed = Object.keys(locked).filter((path) => installed.files[path] === undefined);
  if (changed.length + added.length + removed.length === 0) return undefined;
  return { kind: "drifted", changed: changed.sort(), added: added.sort(), removed: removed.sort() };
}

/** How the upstream copy differs from the lock entry (by `computedHash`), or undefined when it does not. Pure. */
export function upstreamChange(entry: LockEntry, upstream: UpstreamState): LockProblem | undefined {
  switch (upstream.kind) {
    case "gone":
      return { kind: "upstream-gone", skillPath: entry.skillPath ?? "SKILL.md" };
    case "unreachable":
      return { kind: "upstream-unreachable", reason: upstream.reason };
    case "found":
      if (upstream.computedHash === entry.computedHash) return undefined;
      return {
        kind: "upstream-moved",
        locked: entry.computedHash,
        upstream: upstream.computedHash,
        ...(upstream.commit === undefined ? {} : { commit: upstream.commit }),
      };
  }
}

const short = (hash: string) => hash.slice(0, 12);

/** The problem as one line for the user (after the skill's name). Pure. */
export function describeProblem(problem: LockProblem): string {
  switch (problem.kind) {
    case "not-installed":
      return "locked but not installed";
    case "drifted": {
      const parts = [
        ...problem.changed.map((p) => `changed ${p}`),
        ...problem.added.map((p) => `added ${p}`),
        ...problem.removed.map((p) => `removed ${p}`),
      ];
      return `installed copy differs from the lock${parts.length === 0 ? " (computedHash)" : `: ${parts.join(", ")}`}`;
    }
    case "upstream-moved":
      return `upstream moved: locked ${short(problem.locked)}, upstream ${short(problem.upstream)}${problem.commit === undefined ? "" : ` at commit ${problem.commit.slice(0, 12)}`}`;
    case "upstream-gone":
      return `upstream no longer has ${problem.skillPath}`;
    case "upstream-unreachable":
      return `upstream cannot be read: ${problem.reason}`;
  }
}
