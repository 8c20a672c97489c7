import { basename, dirname, join } from "node:path";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { errorMessage, type FsOps, pathKind } from "../io/fs.js";
import { loadSkillFile } from "./load-skill.js";
import type { Skill } from "./skill.js";
import { checkSpecProfile } from "./spec-profile.js";
import { readSpecFile } from "./spec-read.js";

export interface ValidatedFile {
  path: string;
  skill?: Skill;
  /**
   * The engine profile's findings (what discovery would report, with {@link VALIDATION_ERROR_CODES} raised to
   * errors), engine limits such as file size included.
   */
  diagnostics: Diagnostic[];
  /** The Agent Skills profile's findings, when it was asked for (a file it could not read: `file-unreadable`). */
  spec?: Diagnostic[];
}

/**
 * What discovery tolerates but validation refuses: a SKILL.md with NUL bytes (discovery reads it anyway) and
 * frontmatter that is not YAML (discovery reads it line by line). Warnings in discovery, errors here, so
 * `validate` and `lint` both fail such a file.
 */
export const VALIDATION_ERROR_CODES: ReadonlySet<string> = new Set(["file-binary", "yaml-invalid"]);

/** The file names the reference validator looks for in a skill dir, in its order. */
export const SPEC_SKILL_FILES = ["SKILL.md", "skill.md"] as const;

/** The skill file in `dir`: `SKILL.md`, else (with `lowercase`) `skill.md`, as the reference validator looks. */
async function skillFileIn(fs: FsOps, dir: string, lowercase: boolean): Promise<string | undefined> {
  for (const file of lowercase ? SPEC_SKILL_FILES : (["SKILL.md"] as const)) {
    if ((await pathKind(fs, join(dir, file))) !== undefined) return join(dir, file);
  }
  return undefined;
}

/**
 * Validates a SKILL.md or command file, a skill dir, or a dir of skill dirs, with the engine profile and,
 * when `spec` is set, the Agent Skills strict profile too (kept apart in `spec`: a file the engine skips for
 * its size is still checked against the spec). With `spec`, a dir's lowercase `skill.md` is found as the
 * reference validator finds it (`SKILL.md` first); discovery ignores it, which the engine profile says. Never
 * throws.
 */
export async function validatePath(fs: FsOps, path: string, spec: boolean): Promise<ValidatedFile[]> {
  let kind: string;
  try {
    kind = (await fs.stat(path)).kind;
  } catch (error) {
    return [{ path, diagnostics: [diagnostic("error", "file-unreadable", errorMessage(error), path)] }];
  }
  if (kind === "file" || basename(path) === "SKILL.md") return [await validateFile(fs, path, spec)];
  // A directory named SKILL.md is validated too, so the report names that as the cause.
  const own = await skillFileIn(fs, path, spec);
  if (own !== undefined) return [await validateFile(fs, own, spec)];
  const entries = await fs.readdir(path).catch(() => []);
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const candidate = await skillFileIn(fs, join(path, entry.name), spec);
    if (candidate !== undefined) files.push(candidate);
  }
  if (files.length === 0) {
    return [
      {
        path,
        diagnostics: [diagnostic("error", "ignored-file", "no SKILL.md here or in its subdirectories", path)],
      },
    ];
  }
  return Promise.all(files.map((file) => validateFile(fs, file, spec)));
}

/**
 * Validates one skill (or command) file with the engine profile and, when `spec` is set, the Agent Skills
 * profile. `skill.md` in any other case is validated as the skill it was meant to be, with an engine error
 * (discovery skips it); the spec profile accepts the lowercase `skill.md` the reference validator accepts, and
 * refuses other spellings. Never throws.
 */
export async function validateFile(fs: FsOps, path: string, spec: boolean): Promise<ValidatedFile> {
  const file = basename(path);
  const nearMiss = file !== "SKILL.md" && file.toLowerCase() === "skill.md";
  const isSkill = file === "SKILL.md" || nearMiss;
  const dir = dirname(path);
  const name = isSkill ? basename(dir) : file.replace(/\.md$/, "");
  const result = await loadSkillFile(fs, {
    path,
    name,
    kind: isSkill ? "skill" : "command",
    source: "project",
    root: dirname(dir),
    baseDir: dir,
  });
  const diagnostics = result.diagnostics.map((d) =>
    VALIDATION_ERROR_CODES.has(d.code) ? { ...d, severity: "error" as const } : d,
  );
  if (nearMiss) {
    diagnostics.unshift(
      diagnostic("error", "ignored-file", `discovery ignores ${file}: the file must be named SKILL.md`, path),
    );
  }
  const out: ValidatedFile = { path, diagnostics };
  if (result.skill !== undefined) out.skill = result.skill;
  if (spec) out.spec = await specProfile(fs, path, name, nearMiss && file !== "skill.md");
  return out;
}

/** The spec profile on the file. Never throws: a failed read is a `file-unreadable` error. */
async function specProfile(fs: FsOps, path: string, name: string, misnamed: boolean): Promise<Diagnostic[]> {
  const read = await readSpecFile(fs, path);
  if ("severity" in read) return [read];
  const out = checkSpecProfile(read.data, name, path, read.parse);
  if (misnamed) {
    out.unshift(
      diagnostic(
        "error",
        "spec-file-name",
        `the reference validator looks for SKILL.md or skill.md, not ${basename(path)}`,
        path,
      ),
    );
  }
  return out;
}
