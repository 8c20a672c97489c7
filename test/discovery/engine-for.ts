import type { Discovery } from "../../src/catalog/catalog.js";
import { createEngine, type Engine } from "../../src/engine/engine.js";
import type { FsOps } from "../../src/io/fs.js";
import type { Skill } from "../../src/skill/skill.js";
import type { TmpTree } from "../support/tmp-tree.js";

export interface EngineForOptions {
  /** Tree-relative cwd; default `home/repo`. */
  cwd?: string;
  /** Tree-relative home; default `home`. */
  home?: string;
  /** Tree-relative `--add-dir` dirs. */
  addDirs?: string[];
  fs?: FsOps;
}

/**
 * An engine over a temp tree: managed dir `managed/`, bundled dir `bundled/`, registered bundled skills
 * extracted under `extract/`. Nothing outside the tree is read except Claude Code's fixed managed dir.
 */
export function engineFor(tree: TmpTree, options: EngineForOptions = {}): Engine {
  return createEngine({
    cwd: tree.path(options.cwd ?? "home/repo"),
    home: tree.path(options.home ?? "home"),
    env: { SKILLWRIGHT_MANAGED_DIR: tree.path("managed") },
    addDirs: (options.addDirs ?? []).map((d) => tree.path(d)),
    bundledDir: tree.path("bundled"),
    bundledExtractRoot: tree.path("extract"),
    ...(options.fs === undefined ? {} : { fs: options.fs }),
  });
}

/** Skills from inside the tree (so a real `/etc/claude-code` on the machine cannot change a result). */
export function treeSkills(tree: TmpTree, discovery: Discovery): Skill[] {
  return discovery.skills.filter((s) => s.root.startsWith(tree.root));
}

/** `name@tree-relative-file` for each skill of the tree, in listing order. */
export function where(tree: TmpTree, discovery: Discovery): string[] {
  return treeSkills(tree, discovery).map(
    (s) => `${s.name}@${(s.filePath === "" ? s.baseDir : s.filePath).slice(tree.root.length + 1)}`,
  );
}

/** Diagnostics as `[code, tree-relative path]` pairs, sorted, for stable comparisons. */
export function diagnosticPairs(tree: TmpTree, discovery: Discovery): [string, string][] {
  return discovery.diagnostics
    .map((d): [string, string] => [d.code, (d.path ?? "").replace(`${tree.root}/`, "")])
    .sort((a, b) => (a.join(" ") < b.join(" ") ? -1 : 1));
}

/** A SKILL.md text with the given description. */
export function skillMd(description: string, extra = ""): string {
  return `---\ndescription: ${description}\n${extra}---\nBody of ${description}\n`;
}
