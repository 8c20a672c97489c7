// The "fs floor": the least work any discovery over the same roots must do, with the same concurrency.
// readdir + realpath + readFile + a regex split of the frontmatter; no YAML, no diagnostics, no validation.
import { readdir, readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import pLimit from "p-limit";

/** Same fan-out as the engine's discovery (`DISCOVERY_CONCURRENCY`). */
export const FLOOR_CONCURRENCY = 64;
/** Deepest `commands/` nesting followed, as in the engine. */
const MAX_COMMAND_DEPTH = 8;
const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*\r?$/m;

/**
 * @typedef {object} FloorResult
 * @property {number} found candidate skill files listed under the roots
 * @property {number} unique after realpath dedup
 * @property {number} withFrontmatter files whose frontmatter the regex split
 * @property {number} frontmatterChars total characters of frontmatter (keeps the work observable)
 */

/**
 * Lists, dedups and reads every skill file under the roots. Missing roots and files are skipped; never
 * rejects for file-system errors.
 * @param {readonly { dir: string, layout: "skills" | "commands" }[]} roots
 * @returns {Promise<FloorResult>}
 */
export async function fsFloor(roots) {
  const limit = pLimit(FLOOR_CONCURRENCY);
  const lists = await Promise.all(roots.map((root) => limit(() => listRoot(root))));
  const files = lists.flat();
  const reals = await Promise.all(files.map((file) => limit(() => realpath(file).catch(() => undefined))));
  /** @type {Set<string>} */
  const seen = new Set();
  /** @type {string[]} */
  const unique = [];
  reals.forEach((real, i) => {
    if (real === undefined || seen.has(real)) return;
    seen.add(real);
    unique.push(/** @type {string} */ (files[i]));
  });
  const heads = await Promise.all(
    unique.map((file) =>
      limit(async () => {
        const text = await readFile(file, "utf8").catch(() => "");
        // Only the length is kept: a substring would pin the whole file text in memory.
        return FRONTMATTER.exec(text)?.[1]?.length;
      }),
    ),
  );
  let withFrontmatter = 0;
  let frontmatterChars = 0;
  for (const chars of heads) {
    if (chars === undefined) continue;
    withFrontmatter++;
    frontmatterChars += chars;
  }
  return { found: files.length, unique: unique.length, withFrontmatter, frontmatterChars };
}

/**
 * Candidate files under one root: `<dir>/SKILL.md` per child dir or link, or `*.md` under `commands/`.
 * @param {{ dir: string, layout: "skills" | "commands" }} root
 * @returns {Promise<string[]>}
 */
async function listRoot(root) {
  if (root.layout === "skills") {
    const entries = await readdir(root.dir, { withFileTypes: true }).catch(() => []);
    return entries
      .filter((e) => !e.name.startsWith(".") && (e.isDirectory() || e.isSymbolicLink()))
      .map((e) => join(root.dir, e.name, "SKILL.md"));
  }
  /** @type {string[]} */
  const files = [];
  /** @param {string} dir @param {number} depth */
  const walk = async (dir, depth) => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (e.name.startsWith(".")) continue;
      const path = join(dir, e.name);
      if (e.isFile() && e.name.endsWith(".md")) files.push(path);
      else if (e.isDirectory() && depth < MAX_COMMAND_DEPTH) await walk(path, depth + 1);
    }
  };
  await walk(root.dir, 0);
  return files;
}
