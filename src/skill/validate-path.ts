import { basename, dirname, join } from "node:path";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { errorMessage, type FsOps, pathKind } from "../io/fs.js";
import { parseFrontmatter } from "./frontmatter.js";
import { splitFrontmatter } from "./frontmatter-core.js";
import { loadSkillFile } from "./load-skill.js";
import type { Skill } from "./skill.js";
import { checkSpecProfile, type SpecParseInfo } from "./spec-profile.js";

export interface ValidatedFile {
  path: string;
  skill?: Skill;
  /** The engine profile's findings (what discovery would report), engine limits such as file size included. */
  diagnostics: Diagnostic[];
  /** The Agent Skills profile's findings, when it was asked for and the file could be read. */
  spec?: Diagnostic[];
}

/** How much of a file the spec profile reads: the frontmatter must lie within it. */
export const SPEC_READ_BYTES = 4_000_000;

/**
 * Validates a SKILL.md or command file, a skill dir, or a dir of skill dirs, with the engine profile and,
 * when `spec` is set, the Agent Skills strict profile too (kept apart in `spec`: a file the engine skips for
 * its size is still checked against the spec). Never throws.
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
  if ((await pathKind(fs, own)) !== undefined) return [await validateFile(fs, own, spec)];
  const entries = await fs.readdir(path).catch(() => []);
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const candidate = join(path, entry.name, "SKILL.md");
    if ((await pathKind(fs, candidate)) !== undefined) files.push(candidate);
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
  const out: ValidatedFile = { path, diagnostics };
  if (result.skill !== undefined) out.skill = result.skill;
  // A file the engine could not read at all is not checked again; one it skipped for its size is.
  const readable = result.skill !== undefined || diagnostics.some((d) => d.code === "file-too-large");
  if (spec && readable) out.spec = await specProfile(fs, path, name);
  return out;
}

/** The spec profile on the file's frontmatter. Never throws: a failed read is a `file-unreadable` error. */
async function specProfile(fs: FsOps, path: string, name: string): Promise<Diagnostic[]> {
  let text: string;
  try {
    const head = await fs.readHead(path, SPEC_READ_BYTES);
    text = head.complete ? head.text : head.text.slice(0, head.text.lastIndexOf("\n") + 1);
  } catch (error) {
    return [diagnostic("error", "file-unreadable", errorMessage(error), path)];
  }
  const split = splitFrontmatter(text);
  if (split.frontmatter === undefined) {
    return checkSpecProfile({}, name, path, { fence: split.unclosed ? "unclosed" : "missing" });
  }
  const parsed = parseFrontmatter(split.frontmatter);
  const info: SpecParseInfo = {};
  if (parsed.yamlError !== undefined) info.yamlError = parsed.yamlError;
  if (parsed.duplicateKeys !== undefined) info.duplicateKeys = parsed.duplicateKeys;
  return checkSpecProfile(parsed.data, name, path, info);
}
