import { basename, dirname, join } from "node:path";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { errorMessage, type FsOps } from "../io/fs.js";
import { parseFrontmatter, splitFrontmatter } from "./frontmatter.js";
import { loadSkillFile } from "./load-skill.js";
import type { Skill } from "./skill.js";
import { checkSpecProfile } from "./spec-profile.js";

export interface ValidatedFile {
  path: string;
  skill?: Skill;
  diagnostics: Diagnostic[];
}

/**
 * Validates a SKILL.md or command file, a skill dir, or a dir of skill dirs, with the engine profile and,
 * when `spec` is set, the Agent Skills strict profile too. Never throws.
 */
export async function validatePath(fs: FsOps, path: string, spec: boolean): Promise<ValidatedFile[]> {
  let kind: string;
  try {
    kind = (await fs.stat(path)).kind;
  } catch (error) {
    return [{ path, diagnostics: [diagnostic("error", "file-unreadable", errorMessage(error), path)] }];
  }
  if (kind === "file" || basename(path) === "SKILL.md") return [await validateFile(fs, path, spec)];
  const own = join(path, "SKILL.md");
  // A directory named SKILL.md is validated too, so the report names that as the cause.
  if ((await kindAt(fs, own)) !== undefined) return [await validateFile(fs, own, spec)];
  const entries = await fs.readdir(path).catch(() => []);
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const candidate = join(path, entry.name, "SKILL.md");
    if ((await kindAt(fs, candidate)) !== undefined) files.push(candidate);
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

async function validateFile(fs: FsOps, path: string, spec: boolean): Promise<ValidatedFile> {
  const file = basename(path);
  // `skill.md` in any other case is validated as the skill it was meant to be, with an error: discovery skips it.
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
  const diagnostics = [...result.diagnostics];
  if (nearMiss) {
    diagnostics.unshift(
      diagnostic("error", "ignored-file", `discovery ignores ${file}: the file must be named SKILL.md`, path),
    );
  }
  if (spec && result.skill !== undefined) {
    try {
      const split = splitFrontmatter(await fs.readFile(path));
      const data = split.frontmatter === undefined ? {} : parseFrontmatter(split.frontmatter).data;
      diagnostics.push(...checkSpecProfile(data, name, path));
    } catch (error) {
      diagnostics.push(diagnostic("error", "file-unreadable", errorMessage(error), path));
    }
  }
  return result.skill === undefined ? { path, diagnostics } : { path, skill: result.skill, diagnostics };
}

async function kindAt(fs: FsOps, path: string): Promise<"file" | "dir" | undefined> {
  try {
    const kind = (await fs.stat(path)).kind;
    return kind === "file" || kind === "dir" ? kind : undefined;
  } catch {
    return undefined;
  }
}
