import { basename, dirname, join, relative, sep } from "node:path";
import type { Diagnostic } from "../diagnostics.js";
import { hasErrors } from "../diagnostics.js";
import type { FileModeOps } from "../io/atomic-write.js";
import { errorCode, type FsOps } from "../io/fs.js";
import { findSkillFiles } from "../lint/collect.js";
import type { Skill } from "../skill/skill.js";
import { validatePath } from "../skill/validate-path.js";

/** Dirs left out of an installed copy (as the `skills` installer copies). */
export const COPY_SKIPPED_DIRS: ReadonlySet<string> = new Set([".git", "__pycache__", "__pypackages__"]);
/** Files left out of an installed copy (as the `skills` installer copies). */
export const COPY_SKIPPED_FILES: ReadonlySet<string> = new Set(["metadata.json"]);
/** How deep a copy goes (links to dirs are followed, so this also ends a link loop). */
export const MAX_COPY_DEPTH = 16;

/** A skill found in a fetched source. */
export interface FoundSkill {
  /** The name it is installed under: the frontmatter `name` when valid, else its dir's name. */
  installName: string;
  /** Its dir. */
  dir: string;
  /** Its SKILL.md's path inside the source, `/`-separated (the lock's `skillPath`). */
  skillPath: string;
  skill?: Skill;
  /** What validation found (engine profile). */
  diagnostics: Diagnostic[];
}

/** A problem that refuses a skill: a link out of the source, a path that escapes, a skill that does not validate. */
export interface Refusal {
  skill: string;
  reason: string;
}

/** Whether `path` is `root` or inside it (both real paths). Pure. */
export function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

/**
 * The skills under `searchDir` (its own SKILL.md, or every SKILL.md below it, sorted; see `findSkillFiles`),
 * each validated. `root` is the source's top, the base of `skillPath`. Never throws.
 */
export async function findSkills(fs: FsOps, root: string, searchDir: string): Promise<FoundSkill[]> {
  const out: FoundSkill[] = [];
  for (const file of await findSkillFiles(fs, searchDir)) {
    const dir = dirname(file);
    const [validated] = await validatePath(fs, file, false);
    const skill = validated?.skill;
    out.push({
      installName: skill?.alias ?? skill?.name ?? basename(dir),
      dir,
      skillPath: relative(root, file).split(sep).join("/"),
      ...(skill === undefined ? {} : { skill }),
      diagnostics: validated?.diagnostics ?? [],
    });
  }
  return out;
}

/** Whether `name` can be a folder an install makes: a plain name, no `..`. Pure. */
export function isPlainFolderName(name: string): boolean {
  return /^[A-Za-z0-9][\w.-]*$/.test(name) && !name.includes("..");
}

/**
 * The first link under `dir` that is broken or resolves outside `realRoot`, as a line naming it (relative to
 * `dir`), or undefined. Skipped folders (`.git`, …) are not walked. Never throws.
 */
export async function linkOutOf(fs: FsOps, realRoot: string, dir: string): Promise<string | undefined> {
  const walk = async (at: string, depth: number): Promise<string | undefined> => {
    for (const entry of await fs.readdir(at).catch(() => [])) {
      const child = join(at, entry.name);
      const shown = relative(dir, child).split(sep).join("/");
      if (entry.kind === "symlink") {
        let target: string;
        try {
          target = await fs.realpath(child);
        } catch {
          return `${shown} is a broken link`;
        }
        if (!isInside(realRoot, target)) return `${shown} is a link out of the source (to ${target})`;
      } else if (entry.kind === "dir" && !COPY_SKIPPED_DIRS.has(entry.name) && depth < MAX_COPY_DEPTH) {
        const inner = await walk(child, depth + 1);
        if (inner !== undefined) return inner;
      }
    }
    return undefined;
  };
  return walk(dir, 0);
}

/**
 * Why `found` must not be installed, or undefined: a link under its dir that resolves outside `realRoot` (or
 * is broken), its dir outside `realRoot`, an install name that is not a plain folder name, or a validation
 * error. Never throws.
 */
export async function refusalOf(fs: FsOps, realRoot: string, found: FoundSkill): Promise<string | undefined> {
  if (!isPlainFolderName(found.installName)) {
    return `"${found.installName}" is not a folder name a skill can be installed under`;
  }
  let realDir: string;
  try {
    realDir = await fs.realpath(found.dir);
  } catch {
    return `${found.skillPath}: its folder cannot be read`;
  }
  if (!isInside(realRoot, realDir)) return `${found.skillPath}: its folder is a link out of the source`;
  const link = await linkOutOf(fs, realRoot, found.dir);
  if (link !== undefined) return link;
  if (found.skill === undefined || hasErrors(found.diagnostics)) {
    const first = found.diagnostics.find((d) => d.severity === "error");
    return `fails validation${first === undefined ? "" : `: ${first.code}: ${first.message}`}`;
  }
  return undefined;
}

/**
 * Copies a skill dir as the `skills` installer does: links are followed (their target's content is copied;
 * {@link refusalOf} has checked they stay inside the source), `.git`, `__pycache__`, `__pypackages__` dirs and
 * `metadata.json` files are left out, and file modes are kept. `to` must not exist. Throws on I/O errors.
 */
export async function copySkillDir(fs: FsOps, modes: FileModeOps, from: string, to: string): Promise<void> {
  const copy = async (src: string, dest: string, depth: number): Promise<void> => {
    await fs.mkdir(dest);
    for (const entry of await fs.readdir(src)) {
      const srcPath = join(src, entry.name);
      const destPath = join(dest, entry.name);
      let kind = entry.kind;
      if (kind === "symlink") {
        try {
          kind = (await fs.stat(srcPath)).kind;
        } catch (error) {
          if (errorCode(error) === "ENOENT") continue;
          throw error;
        }
      }
      if (kind === "dir") {
        if (!COPY_SKIPPED_DIRS.has(entry.name) && depth < MAX_COPY_DEPTH)
          await copy(srcPath, destPath, depth + 1);
      } else if (kind === "file" && !COPY_SKIPPED_FILES.has(entry.name)) {
        await fs.writeFile(destPath, await fs.readBytes(srcPath));
        const mode = await modes.getMode(srcPath);
        if (mode !== undefined) await modes.setMode(destPath, mode & 0o777);
      }
    }
  };
  await copy(from, to, 0);
}
