import { invalid } from "../errors.js";
import type { SkillFile } from "../store/skill-upload.js";
import { UPLOAD_LIMITS } from "./limits.js";
import { textFileProblem } from "./text-files.js";

/** The uploaded files under their skill root, and the name of the dir that enclosed them (if any). */
export interface SkillTree {
  files: SkillFile[];
  /** The common top-level dir the files were in (`my-skill/SKILL.md` → `my-skill`). */
  dirName: string | undefined;
}

/** Why `path` may not be a file of a skill, or undefined when it may. Pure. */
export function unsafePathReason(path: string): string | undefined {
  if (path === "") return "is empty";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
  if (/[\u0000-\u001f\u007f]/.test(path)) return "holds a control character";
  if (path.includes("\\")) return "holds a backslash";
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return "is absolute";
  const segments = path.split("/");
  if (segments.includes("..")) return "escapes the skill root (..)";
  if (segments.some((s) => s === "" || s === ".")) return "has an empty or . segment";
  return undefined;
}

/**
 * Checks uploaded files and moves them under the skill root: every path safe, no duplicates, at most
 * `maxFiles` files and `maxTotalBytes` bytes, every text file valid UTF-8 (see `textFileProblem`), all in one
 * top-level dir (or none), `SKILL.md` at the root. Throws the 400 that names the first file refused.
 */
export function skillTree(entries: readonly { name: string; content: Uint8Array }[]): SkillTree {
  if (entries.length === 0) throw invalid("no files: upload the skill's files (files[]) or one zip of them");
  if (entries.length > UPLOAD_LIMITS.maxFiles) {
    throw invalid(`${entries.length} files; a skill may hold at most ${UPLOAD_LIMITS.maxFiles}`);
  }
  let total = 0;
  for (const entry of entries) {
    const reason = unsafePathReason(entry.name);
    if (reason !== undefined) throw invalid(`file path ${JSON.stringify(entry.name)} ${reason}`);
    total += entry.content.length;
  }
  if (total > UPLOAD_LIMITS.maxTotalBytes) {
    throw invalid(
      `the files add up to ${total} bytes; a skill may hold at most ${UPLOAD_LIMITS.maxTotalBytes}`,
    );
  }
  for (const entry of entries) {
    const problem = textFileProblem(entry.name, entry.content);
    if (problem !== undefined) throw invalid(problem);
  }
  const tops = new Set(entries.map((e) => (e.name.includes("/") ? e.name.split("/")[0] : "")));
  const [top] = tops;
  let dirName: string | undefined;
  let files: SkillFile[];
  if (tops.size === 1 && top !== undefined && top !== "") {
    dirName = top;
    files = entries.map((e) => ({ path: e.name.slice(top.length + 1), content: e.content }));
  } else if (tops.size === 1) {
    files = entries.map((e) => ({ path: e.name, content: e.content }));
  } else {
    throw invalid(
      `all files must be in the same top-level directory; got ${[...tops].map((t) => (t === "" ? "(root)" : t)).join(", ")}`,
    );
  }
  const seen = new Set<string>();
  for (const file of files) {
    if (seen.has(file.path)) throw invalid(`file ${JSON.stringify(file.path)} is uploaded twice`);
    seen.add(file.path);
  }
  if (!seen.has("SKILL.md")) {
    throw invalid(`no SKILL.md at the root of ${dirName === undefined ? "the upload" : `${dirName}/`}`);
  }
  return { files, dirName };
}
