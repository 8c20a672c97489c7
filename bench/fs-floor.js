// The "fs floors": the least work any discovery over the same roots must do.
// - fsFloorSync (THE floor): synchronous readdir + open/fstat/read of the same head discovery reads (the first
//   HEAD_BYTES of each file, the whole file only when the frontmatter runs past it) + (dev, ino) dedup + a regex
//   split of the frontmatter; no YAML, no diagnostics, no validation. Nothing is faster on one thread.
// - fsStatFloorSync (the warm floor): the same listing and one stat per file, no reads: what a run over a warm
//   head cache must still do (the cache trusts an entry only while its file's stat matches).
// - fsFloor (the async floor, a second row): readdir + realpath + whole-file readFile, p-limit(64).
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  realpathSync,
  statSync,
} from "node:fs";
import { readdir, readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import pLimit from "p-limit";

/** Same fan-out as the engine's asynchronous discovery (`DISCOVERY_CONCURRENCY`). */
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
        return frontmatterLength(text);
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

/** Bytes of each file read first, as discovery does (`HEAD_BYTES` in src/skill/load-skill.ts). */
export const FLOOR_HEAD_BYTES = 4_096;
const HEAD_OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;
const CLOSE_FENCE = /^---[ \t]*\r?$/m;

/**
 * The synchronous floor: lists the roots as discovery does (skill dirs and symlinks → `SKILL.md`; `commands/`
 * walked with a realpath per dir and a stat per symlink), then per file open, fstat, read the head, close; dedup
 * by (dev, ino); decode and split the frontmatter. Reads the whole file only when the head ends inside the
 * frontmatter. Missing and unreadable files are skipped.
 * @param {readonly { dir: string, layout: "skills" | "commands" }[]} roots
 * @returns {FloorResult}
 */
export function fsFloorSync(roots) {
  const files = roots.flatMap(listRootSync);
  /** @type {Set<string>} */
  const seen = new Set();
  let unique = 0;
  let withFrontmatter = 0;
  let frontmatterChars = 0;
  const buffer = Buffer.allocUnsafe(FLOOR_HEAD_BYTES);
  for (const file of files) {
    let fd;
    try {
      fd = openSync(file, HEAD_OPEN_FLAGS);
    } catch {
      continue;
    }
    let text;
    try {
      const stat = fstatSync(fd);
      const id = `${stat.dev}:${stat.ino}`;
      if (!stat.isFile() || seen.has(id)) continue;
      seen.add(id);
      unique++;
      const bytesRead =
        stat.size === 0 ? 0 : readSync(fd, buffer, 0, Math.min(FLOOR_HEAD_BYTES, stat.size), 0);
      text = buffer.toString("utf8", 0, bytesRead);
      if (bytesRead < stat.size && !headCloses(text)) text = readFileSync(fd, "utf8");
    } finally {
      closeSync(fd);
    }
    const chars = frontmatterLength(text);
    if (chars === undefined) continue;
    withFrontmatter++;
    frontmatterChars += chars;
  }
  return { found: files.length, unique, withFrontmatter, frontmatterChars };
}

/**
 * The warm floor (issue 47): what a run over a warm head cache cannot skip. Lists the roots as
 * {@link fsFloorSync} does and stats every listed file (a cache entry is trusted only while the file's stat
 * matches), deduped by (dev, ino); reads no file. Missing files are skipped.
 * @param {readonly { dir: string, layout: "skills" | "commands" }[]} roots
 * @returns {FloorResult}
 */
export function fsStatFloorSync(roots) {
  const files = roots.flatMap(listRootSync);
  /** @type {Set<string>} */
  const seen = new Set();
  for (const file of files) {
    try {
      const stat = statSync(file);
      if (stat.isFile()) seen.add(`${stat.dev}:${stat.ino}`);
    } catch {
      // A dir without SKILL.md.
    }
  }
  return { found: files.length, unique: seen.size, withFrontmatter: 0, frontmatterChars: 0 };
}

/**
 * @param {string} text
 * @returns {boolean}
 */
function headCloses(text) {
  return text.startsWith("---") ? CLOSE_FENCE.test(text.slice(3)) : true;
}

/**
 * The length of the frontmatter block, or undefined without one (a BOM is skipped).
 * @param {string} text
 * @returns {number | undefined}
 */
function frontmatterLength(text) {
  return FRONTMATTER.exec(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)?.[1]?.length;
}

/**
 * Candidate files under one root, synchronously (see {@link listRoot}).
 * @param {{ dir: string, layout: "skills" | "commands" }} root
 * @returns {string[]}
 */
function listRootSync(root) {
  /** @param {string} dir */
  const list = (dir) => {
    try {
      return readdirSync(dir, { withFileTypes: true });
    } catch {
      return [];
    }
  };
  if (root.layout === "skills") {
    /** @type {string[]} */
    const files = [];
    for (const e of list(root.dir)) {
      if (!e.name.startsWith(".") && (e.isDirectory() || e.isSymbolicLink()))
        files.push(`${root.dir}/${e.name}/SKILL.md`);
    }
    return files;
  }
  /** @type {string[]} */
  const files = [];
  /** @type {Set<string>} */
  const dirs = new Set();
  /** @param {string} dir @param {number} depth */
  const walk = (dir, depth) => {
    const real = realpathSync(dir);
    if (dirs.has(real)) return;
    dirs.add(real);
    for (const e of list(dir)) {
      if (e.name.startsWith(".")) continue;
      const path = join(dir, e.name);
      let isFile = e.isFile();
      let isDir = e.isDirectory();
      if (e.isSymbolicLink()) {
        try {
          const s = statSync(path);
          isFile = s.isFile();
          isDir = s.isDirectory();
        } catch {
          continue;
        }
      }
      if (isFile && e.name.endsWith(".md")) files.push(path);
      else if (isDir && depth < MAX_COMMAND_DEPTH) walk(path, depth + 1);
    }
  };
  try {
    walk(root.dir, 0);
  } catch {
    // A missing root: nothing to list.
  }
  return files;
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
