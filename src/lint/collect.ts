import { dirname, join } from "node:path";
import type { Diagnostic } from "../diagnostics.js";
import { diagnostic } from "../diagnostics.js";
import { skillHookDiagnostics } from "../hooks/skill-hooks.js";
import { errorMessage, type FsOps, pathKind } from "../io/fs.js";
import type { Skill } from "../skill/skill.js";
import { validateFile } from "../skill/validate-path.js";
import type { LintFile, LintSubject } from "./rules.js";

/** How deep `findSkillFiles` and the skill-dir walk go. */
export const MAX_WALK_DEPTH = 8;
/** Entries the walk of one skill dir records at most (a stray `node_modules` must not stall lint). */
export const MAX_SKILL_ENTRIES = 10_000;
/** Bytes of each `scripts/` file the rules read. */
export const MAX_SCRIPT_BYTES = 256_000;

const SKIPPED_DIRS = new Set(["node_modules", ".git"]);

/**
 * The SKILL.md files at `path`: the file itself, the dir's own SKILL.md, or every SKILL.md below it (a dir of
 * skills, a plugin, a project), sorted. A dir with no SKILL.md but a lowercase `skill.md` gives that file, as
 * the Agent Skills reference tool finds it. Symlinked dirs are not followed. Never throws: an unreadable path
 * gives [].
 */
export async function findSkillFiles(fs: FsOps, path: string): Promise<string[]> {
  const kind = await pathKind(fs, path);
  if (kind === "file") return [path];
  if (kind === undefined) return [];
  for (const name of ["SKILL.md", "skill.md"]) {
    const own = join(path, name);
    if ((await pathKind(fs, own)) === "file") return [own];
  }
  const found: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries = await fs.readdir(dir).catch(() => []);
    const hasUpper = entries.some((e) => e.kind === "file" && e.name === "SKILL.md");
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const child = join(dir, entry.name);
      const skillFile = entry.name === "SKILL.md" || (!hasUpper && entry.name === "skill.md");
      if (entry.kind === "file" && skillFile) found.push(child);
      else if (entry.kind === "dir" && !SKIPPED_DIRS.has(entry.name) && depth < MAX_WALK_DEPTH) {
        await walk(child, depth + 1);
      }
    }
  };
  await walk(path, 0);
  return found;
}

/**
 * Paths (files and dirs, `/`-separated) under `dir`, relative to it. Links to dirs are followed (a shared
 * `references` link is common); {@link MAX_WALK_DEPTH} and {@link MAX_SKILL_ENTRIES} bound a link loop.
 */
async function skillPaths(fs: FsOps, dir: string): Promise<Set<string>> {
  const paths = new Set<string>();
  const walk = async (abs: string, rel: string, depth: number): Promise<void> => {
    const entries = await fs.readdir(abs).catch(() => []);
    for (const entry of entries) {
      if (paths.size >= MAX_SKILL_ENTRIES) return;
      const relative = rel === "" ? entry.name : `${rel}/${entry.name}`;
      paths.add(relative);
      if (SKIPPED_DIRS.has(entry.name) || depth >= MAX_WALK_DEPTH) continue;
      const child = join(abs, entry.name);
      const isDir =
        entry.kind === "dir" || (entry.kind === "symlink" && (await pathKind(fs, child)) === "dir");
      if (isDir) await walk(child, relative, depth + 1);
    }
  };
  await walk(dir, "", 0);
  return paths;
}

/** One skill read for lint: the loaded skill and the rules' input, or the diagnostics that stopped it. */
export interface CollectedSkill {
  /** The SKILL.md path. */
  path: string;
  skill?: Skill;
  subject?: LintSubject;
  /** What `validate` reports (the engine profile), and what could not be read for the rules. */
  diagnostics: Diagnostic[];
  /** What `validate --spec` reports (the Agent Skills profile). */
  spec: Diagnostic[];
}

/**
 * Reads one SKILL.md for lint: the skill and both validate profiles' diagnostics (as `validate --spec` gives
 * them), its whole text, the paths in its dir and the text files under `scripts/` (binary files skipped, each
 * read up to {@link MAX_SCRIPT_BYTES}). Never throws.
 */
export async function collectSkill(fs: FsOps, path: string): Promise<CollectedSkill> {
  const dir = dirname(path);
  const result = await validateFile(fs, path, true);
  const out: CollectedSkill = { path, diagnostics: result.diagnostics, spec: result.spec ?? [] };
  if (result.skill === undefined) return out;
  out.skill = result.skill;
  out.diagnostics = [...out.diagnostics, ...skillHookDiagnostics(result.skill)];
  let text: string;
  try {
    text = await fs.readFile(path);
  } catch (error) {
    out.diagnostics = [...out.diagnostics, diagnostic("error", "file-unreadable", errorMessage(error), path)];
    return out;
  }
  const paths = await skillPaths(fs, dir);
  const scripts: LintFile[] = [];
  for (const rel of [...paths].filter((p) => p.startsWith("scripts/")).sort()) {
    try {
      if ((await fs.stat(join(dir, rel))).kind !== "file") continue;
      const head = await fs.readHead(join(dir, rel), MAX_SCRIPT_BYTES);
      if (!head.binary) scripts.push({ file: rel, text: head.text });
    } catch {
      // A script that vanished or cannot be read has nothing to lint.
    }
  }
  out.subject = { skill: result.skill, skillMd: { file: "SKILL.md", text }, scripts, paths };
  return out;
}
