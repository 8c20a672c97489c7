import { join, sep } from "node:path";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import { errorCode, errorMessage, type FsOps } from "../io/fs.js";
import type { SkillFileRef } from "../skill/load-skill.js";
import { kindOf, type SkillRoot } from "./skill-roots.js";

/** Deepest `commands/` nesting followed (also a guard against symlink cycles the realpath set misses). */
export const MAX_COMMAND_DEPTH = 8;

export interface RootScan {
  root: SkillRoot;
  exists: boolean;
  files: SkillFileRef[];
  diagnostics: Diagnostic[];
  /**
   * Names of markdown files in a skills dir that are not skills (`<root>/x.md` → `x`): found but skipped, so a
   * call of one says so (SPEC §4).
   */
  ignored: string[];
}

/**
 * Lists the skill files under one root without reading them. Never throws: a missing root is `exists:
 * false`, anything else odd is a diagnostic (`ignored-file` hints say why a near-miss is not a skill).
 */
export async function scanRoot(fs: FsOps, root: SkillRoot): Promise<RootScan> {
  const scan: RootScan = { root, exists: false, files: [], diagnostics: [], ignored: [] };
  let entries: Awaited<ReturnType<FsOps["readdir"]>>;
  try {
    entries = await fs.readdir(root.dir);
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT") return scan;
    scan.exists = code !== "ENOTDIR";
    scan.diagnostics.push(dirProblem(root.dir, error));
    return scan;
  }
  scan.exists = true;
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (root.layout === "skills") {
    scanSkillsDir(root, entries, scan);
    if (root.environment !== undefined) await preferLowercaseFile(fs, scan);
  } else await scanCommandsDir(fs, root, root.dir, [], entries, scan, new Set());
  return scan;
}

function scanSkillsDir(
  root: SkillRoot,
  entries: Awaited<ReturnType<FsOps["readdir"]>>,
  scan: RootScan,
): void {
  // `join` normalizes the whole path on every call, most of a scan of a thousand entries. An entry name is one
  // plain segment, so joining it to the dir is concatenating it to the dir joined to a one-character name, cut.
  const base = join(root.dir, "_").slice(0, -1);
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    const dir = base + entry.name;
    if (entry.kind === "file") {
      if (entry.name.endsWith(".md")) {
        scan.ignored.push(entry.name.slice(0, -3));
        scan.diagnostics.push(
          diagnostic(
            "info",
            "ignored-file",
            `not a skill: a skill is a directory holding SKILL.md (try ${entry.name.slice(0, -3)}/SKILL.md)`,
            dir,
          ),
        );
      }
      continue;
    }
    if (entry.kind !== "dir" && entry.kind !== "symlink") continue;
    scan.files.push({
      path: `${dir}${sep}SKILL.md`,
      name: entry.name,
      kind: kindOf(root),
      source: root.source,
      root: root.dir,
      baseDir: dir,
    });
  }
}

/**
 * In an environment's skills dir a skill file may be named `skill.md`: each dir holding that and no `SKILL.md`
 * points at it instead, and its head is read with a frontmatter `name` that is a display title.
 */
async function preferLowercaseFile(fs: FsOps, scan: RootScan): Promise<void> {
  scan.files = await Promise.all(
    scan.files.map(async (ref) => {
      const names = await fs.readdir(ref.baseDir).then(
        (entries) => entries.map((e) => e.name),
        (): string[] => [],
      );
      const file = !names.includes("SKILL.md") && names.includes("skill.md") ? "skill.md" : "SKILL.md";
      return { ...ref, path: `${ref.baseDir}${sep}${file}`, titleName: true };
    }),
  );
}

async function scanCommandsDir(
  fs: FsOps,
  root: SkillRoot,
  dir: string,
  namespace: string[],
  entries: Awaited<ReturnType<FsOps["readdir"]>>,
  scan: RootScan,
  seen: Set<string>,
): Promise<void> {
  try {
    const real = await fs.realpath(dir);
    if (seen.has(real)) {
      scan.diagnostics.push(
        diagnostic("warning", "symlink-loop", "directory reached twice through links; skipped", dir),
      );
      return;
    }
    seen.add(real);
  } catch (error) {
    scan.diagnostics.push(dirProblem(dir, error));
    return;
  }
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    let kind = entry.kind;
    if (kind === "symlink") {
      try {
        kind = (await fs.stat(path)).kind;
      } catch (error) {
        scan.diagnostics.push(dirProblem(path, error));
        continue;
      }
    }
    if (kind === "file" && entry.name.endsWith(".md")) {
      scan.files.push({
        path,
        name: [...namespace, entry.name.slice(0, -3)].join(":"),
        kind: "command",
        source: root.source,
        root: root.dir,
        baseDir: dir,
      });
    } else if (kind === "dir") {
      if (namespace.length + 1 > MAX_COMMAND_DEPTH) {
        scan.diagnostics.push(
          diagnostic(
            "warning",
            "ignored-file",
            `not read: commands nested more than ${MAX_COMMAND_DEPTH} dirs deep`,
            path,
          ),
        );
        continue;
      }
      try {
        const children = await fs.readdir(path);
        children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        await scanCommandsDir(fs, root, path, [...namespace, entry.name], children, scan, seen);
      } catch (error) {
        scan.diagnostics.push(dirProblem(path, error));
      }
    }
  }
}

/** Turns a failure to read a dir or follow a link into a diagnostic. */
export function dirProblem(path: string, error: unknown): Diagnostic {
  switch (errorCode(error)) {
    case "ELOOP":
      return diagnostic("error", "symlink-loop", "symlink loop; skipped", path);
    case "ENOENT":
      return diagnostic("warning", "symlink-broken", "broken symlink; skipped", path);
    case "ENOTDIR":
      return diagnostic("warning", "not-a-directory", "expected a directory, found a file", path);
    default:
      return diagnostic("error", "dir-unreadable", `cannot read directory: ${errorMessage(error)}`, path);
  }
}
