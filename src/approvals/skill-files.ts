import { join, relative, sep } from "node:path";
import type { FileModeOps } from "../io/atomic-write.js";
import type { FsOps } from "../io/fs.js";
import type { Skill } from "../skill/skill.js";
import type { SkillScript } from "./capabilities.js";

/** At most this many files of one skill's folder are hashed and looked at for scripts. */
export const MAX_SKILL_FILES = 2000;
/** Folders deeper than this under a skill's folder are not walked. */
export const MAX_SKILL_FILE_DEPTH = 8;
/** The folder whose files are a skill's scripts whatever their mode. */
const SCRIPTS_DIR = "scripts";
/** Never part of a skill's content: version-control data. */
const SKIPPED_DIRS: ReadonlySet<string> = new Set([".git"]);

/** What a skill is made of on disk, for an approval: where it is, its files' hash and its scripts. */
export interface SkillFiles {
  /** The approval's key: `file:{real path}` of the skill's folder (a command's file), or `mcp:{server}/{name}`. */
  identity: string;
  /** Paths relative to the skill's folder (`/`-separated), sorted; a command's own file name alone. */
  files: string[];
  scripts: SkillScript[];
}

/** The hex SHA-256 of some bytes (the global Web Crypto: nothing to load at start-up). */
export async function sha256(data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Buffer.from(digest).toString("hex");
}

/**
 * The regular files under `dir`, sorted, bounded by the limits. A link to a file counts as that file wherever
 * it points (its content is what runs); a link to a folder is not walked; a broken link is no file.
 */
async function walk(fs: FsOps, dir: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (path: string, depth: number): Promise<void> => {
    const entries = await fs.readdir(path).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (out.length >= MAX_SKILL_FILES) return;
      if (SKIPPED_DIRS.has(entry.name)) continue;
      const full = join(path, entry.name);
      const kind = entry.kind === "symlink" ? (await fs.stat(full).catch(() => undefined))?.kind : entry.kind;
      if (kind === "dir" && entry.kind !== "symlink" && depth < MAX_SKILL_FILE_DEPTH)
        await visit(full, depth + 1);
      else if (kind === "file") out.push(relative(dir, full).split(sep).join("/"));
    }
  };
  await visit(dir, 0);
  return out;
}

async function isScript(path: string, full: string, modes: FileModeOps | undefined): Promise<boolean> {
  if (path.startsWith(`${SCRIPTS_DIR}/`)) return true;
  const mode = await modes?.getMode(full).catch(() => undefined);
  return mode !== undefined && (mode & 0o111) !== 0;
}

/**
 * The key an approval of the skill is kept under: `file:{real path}` of its folder (of its file for a legacy
 * command), `mcp:{server}/{name}` for an MCP skill, `{source}:{name}` for one with no file behind it. Never
 * rejects (a path that cannot be resolved is used as found).
 */
export async function skillIdentity(
  fs: FsOps,
  skill: Pick<Skill, "name" | "source" | "kind" | "filePath" | "baseDir" | "mcpServer">,
): Promise<string> {
  if (skill.mcpServer !== undefined) return `mcp:${skill.mcpServer}/${skill.name}`;
  if (skill.filePath === "") return `${skill.source}:${skill.name}`;
  const path = skill.kind === "command" ? skill.filePath : skill.baseDir;
  return `file:${await fs.realpath(path).catch(() => path)}`;
}

/**
 * Reads what a skill is made of: its identity, its files and its scripts (files under `scripts/`, and files
 * with an execute bit when `modes` is given), each script with the hash of its content. A skill with no file
 * behind it (MCP, memory) has none. Never rejects: unreadable parts are left out.
 */
export async function readSkillFiles(
  fs: FsOps,
  skill: Pick<Skill, "name" | "source" | "kind" | "filePath" | "baseDir" | "mcpServer">,
  modes?: FileModeOps,
): Promise<SkillFiles> {
  const identity = await skillIdentity(fs, skill);
  if (skill.mcpServer !== undefined || skill.filePath === "" || skill.kind === "command")
    return { identity, files: [], scripts: [] };
  const files = await walk(fs, skill.baseDir);
  const scripts: SkillScript[] = [];
  for (const path of files) {
    const full = join(skill.baseDir, path);
    if (!(await isScript(path, full, modes))) continue;
    const bytes = await fs.readBytes(full).catch(() => undefined);
    if (bytes !== undefined) scripts.push({ path, hash: await sha256(bytes) });
  }
  return { identity, files, scripts };
}

/**
 * The hash an approval records of a skill's content: SHA-256 over each file's path and content hash (a
 * command: its file; a skill with no file behind it: `text`, its frontmatter and body as loaded). Never rejects:
 * an unreadable file counts as empty.
 */
export async function skillContentHash(
  fs: FsOps,
  skill: Pick<Skill, "kind" | "filePath" | "baseDir">,
  files: readonly string[],
  text: string,
): Promise<string> {
  if (skill.filePath === "") return sha256(text);
  if (skill.kind === "command")
    return sha256(await fs.readBytes(skill.filePath).catch(() => new Uint8Array()));
  const lines: string[] = [];
  for (const path of files) {
    const bytes = await fs.readBytes(join(skill.baseDir, path)).catch(() => new Uint8Array());
    lines.push(`${path}\0${await sha256(bytes)}`);
  }
  return sha256(lines.join("\n"));
}
