import { join, relative, sep } from "node:path";
import type { FsOps } from "../io/fs.js";
import { isInside } from "./path-inside.js";
import type { ReferenceInfo, SkillReferences } from "./reference.js";
import { safeJoin } from "./safe-join.js";

/** A reference file over this many bytes is refused (the same limit as a SKILL.md, SPEC §1). */
export const MAX_REFERENCE_BYTES = 1_000_000;
/** At most this many files of one skill folder are listed as references. */
export const MAX_FILE_REFERENCES = 200;
/** Folders deeper than this under the skill's folder are not listed. */
export const MAX_REFERENCE_DEPTH = 4;

/** The name of a file skill's own file, never one of its references. */
const SKILL_FILE = "SKILL.md";

/**
 * The files in a file skill's folder as references, named by their path relative to it (`/`-separated).
 * Anything that resolves outside the folder (a symlink out, `..`, an absolute name) is never listed and never
 * read: `read` rejects with a message saying so. Files over `MAX_REFERENCE_BYTES` are refused too.
 */
export function fileReferences(fs: FsOps, baseDir: string): SkillReferences {
  return new FileReferences(fs, baseDir);
}

/**
 * One per file skill, so its methods live on the prototype: closures per skill (three functions and a context)
 * were ~10 MB of a 50k-skill discovery's heap, this is one small object.
 */
class FileReferences implements SkillReferences {
  // `#` fields: not enumerable, so a skill copied or serialised field by field shows what the closures did.
  readonly #fs: FsOps;
  readonly #baseDir: string;

  constructor(fs: FsOps, baseDir: string) {
    this.#fs = fs;
    this.#baseDir = baseDir;
  }

  #realBase(): Promise<string> {
    return this.#fs.realpath(this.#baseDir);
  }

  async list(): Promise<ReferenceInfo[]> {
    const fs = this.#fs;
    const baseDir = this.#baseDir;
    const base = await this.#realBase();
    const out: ReferenceInfo[] = [];
    const walk = async (dir: string, depth: number): Promise<void> => {
      const entries = await fs.readdir(dir).catch(() => []);
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        if (out.length >= MAX_FILE_REFERENCES) return;
        const path = join(dir, entry.name);
        if (depth === 0 && entry.name === SKILL_FILE) continue;
        if (entry.name.startsWith(".")) continue;
        const real = await fs.realpath(path).catch(() => undefined);
        if (real === undefined || !isInside(base, real)) continue;
        const kind =
          entry.kind === "symlink" ? (await fs.stat(path).catch(() => undefined))?.kind : entry.kind;
        if (kind === "dir" && entry.kind !== "symlink" && depth < MAX_REFERENCE_DEPTH) {
          await walk(path, depth + 1);
        } else if (kind === "file") {
          const name = relative(baseDir, path).split(sep).join("/");
          out.push({ name, description: `file ${name} in the skill's folder` });
        }
      }
    };
    await walk(baseDir, 0);
    return out;
  }

  async read(name: string): Promise<string | undefined> {
    const fs = this.#fs;
    const baseDir = this.#baseDir;
    const target = safeJoin(baseDir, name);
    if (target === undefined || name === SKILL_FILE) {
      throw new Error(`reference "${name}" is outside the skill's folder`);
    }
    const real = await fs.realpath(target).catch(() => undefined);
    if (real === undefined) return undefined;
    if (!isInside(await this.#realBase(), real)) {
      throw new Error(`reference "${name}" resolves outside the skill's folder`);
    }
    const stat = await fs.stat(real);
    if (stat.kind !== "file") return undefined;
    if (stat.size > MAX_REFERENCE_BYTES) {
      throw new Error(
        `reference "${name}" is ${stat.size} bytes, over the ${MAX_REFERENCE_BYTES}-byte limit`,
      );
    }
    return fs.readFile(real);
  }
}
