import { join } from "node:path";
import { type Diagnostic, diagnostic } from "../diagnostics.js";
import type { FsOps } from "../io/fs.js";
import { dirProblem } from "./scan-dir.js";

/**
 * Says why a dir under a skills root holds no `SKILL.md`: a broken or looping link, a lowercase `skill.md`,
 * a skill nested one level too deep, or simply no skill file. Never throws.
 */
export async function explainMissingSkill(fs: FsOps, dir: string): Promise<Diagnostic> {
  let entries: Awaited<ReturnType<FsOps["readdir"]>>;
  try {
    entries = await fs.readdir(dir);
  } catch (error) {
    return dirProblem(dir, error);
  }
  const nearMiss = entries.find((e) => e.name.toLowerCase() === "skill.md");
  if (nearMiss !== undefined) {
    return diagnostic(
      "warning",
      "ignored-file",
      `not a skill: the file must be named SKILL.md (uppercase), found ${nearMiss.name}`,
      join(dir, nearMiss.name),
    );
  }
  for (const entry of entries) {
    if (entry.kind !== "dir") continue;
    try {
      await fs.stat(join(dir, entry.name, "SKILL.md"));
      return diagnostic(
        "info",
        "ignored-file",
        `not a skill: SKILL.md is one level too deep; only direct children of a skills dir count (a category folder is read under .agents/skills, and under .claude/skills with "skills": { "categories": true } in settings)`,
        join(dir, entry.name, "SKILL.md"),
      );
    } catch {
      // Not there either; keep looking.
    }
  }
  return diagnostic("info", "ignored-file", "directory has no SKILL.md; ignored", dir);
}
