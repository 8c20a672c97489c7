import * as path from "node:path";
import ignore, { type Ignore } from "ignore";
import type { DirEntry, FsOps } from "../io/fs.js";
import { createYieldPoint } from "../io/yield-point.js";

/** Directories never walked into, whatever the ignore files say. */
export const ALWAYS_SKIPPED_DIRS: readonly string[] = [".git", "node_modules"];

/** The ignore file honoured in every walked directory (and its ancestors up to the repository root). */
export const IGNORE_FILE = ".gitignore";

/** A file found by `walkFiles`. */
export interface WalkEntry {
  /** Absolute path. */
  path: string;
  /** Path relative to the walk root, `/`-separated. */
  rel: string;
}

export interface WalkOptions {
  fs: FsOps;
  /** The directory to walk (absolute). */
  root: string;
  /** The session's cwd: ignore files are read from `root`'s ancestors up to the git root or this dir. */
  cwd: string;
  signal?: AbortSignal;
  /** Told each directory not entered because it is deeper than `WALK_MAX_DEPTH` (its path under `root`). */
  onTooDeep?: (rel: string) => void;
}

interface IgnoreLayer {
  base: string;
  rules: Ignore;
}

async function loadLayer(fs: FsOps, dir: string): Promise<IgnoreLayer | undefined> {
  try {
    const text = await fs.readFile(path.join(dir, IGNORE_FILE));
    return { base: dir, rules: ignore().add(text) };
  } catch {
    return undefined;
  }
}

async function exists(fs: FsOps, p: string): Promise<boolean> {
  try {
    await fs.stat(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * The directories above `root` whose ignore files apply to it, outermost first: up to the nearest dir holding
 * `.git` (the repository root); outside a repository, up to `cwd` when `cwd` is an ancestor, else none.
 */
async function ancestorDirs(
  fs: FsOps,
  root: string,
  cwd: string,
  pause: () => Promise<void>,
): Promise<string[]> {
  if (path.dirname(root) === root || (await exists(fs, path.join(root, ".git")))) return [];
  const dirs: string[] = [];
  let cwdIndex = -1;
  for (let dir = path.dirname(root); ; dir = path.dirname(dir)) {
    await pause();
    dirs.push(dir);
    if (dir === cwd) cwdIndex = dirs.length - 1;
    if (await exists(fs, path.join(dir, ".git"))) return dirs.reverse();
    if (path.dirname(dir) === dir) break;
  }
  return cwdIndex < 0 || root === cwd ? [] : dirs.slice(0, cwdIndex + 1).reverse();
}

/** True when the layers (outermost first) ignore `abs`; a deeper `!pattern` re-includes. */
function isIgnored(layers: readonly IgnoreLayer[], abs: string, isDir: boolean): boolean {
  let ignored = false;
  for (const layer of layers) {
    const rel = path.relative(layer.base, abs);
    if (rel === "" || rel.startsWith("..")) continue;
    const result = layer.rules.test(rel.split(path.sep).join("/") + (isDir ? "/" : ""));
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

async function kindOf(fs: FsOps, abs: string, kind: string): Promise<"file" | "dir" | undefined> {
  if (kind === "file" || kind === "dir") return kind;
  if (kind !== "symlink") return undefined;
  try {
    // Symlinked files are followed; symlinked dirs are not walked into (no loops).
    return (await fs.stat(abs)).kind === "file" ? "file" : undefined;
  } catch {
    return undefined;
  }
}

/** Deepest directory a walk enters, counted from its root (the root's own entries are at depth 1). */
export const WALK_MAX_DEPTH = 64;

/** A directory being walked: its entries in order and how far through them the walk is. */
interface Frame {
  dir: string;
  rel: string;
  depth: number;
  layers: IgnoreLayer[];
  entries: DirEntry[];
  next: number;
}

/** A directory's frame: its entries sorted, its own ignore file added; undefined when it cannot be read. */
async function openFrame(
  fs: FsOps,
  at: { dir: string; rel: string; depth: number },
  parentLayers: IgnoreLayer[],
): Promise<Frame | undefined> {
  let entries: DirEntry[];
  try {
    entries = await fs.readdir(at.dir);
  } catch {
    return undefined;
  }
  const own = entries.some((e) => e.name === IGNORE_FILE) ? await loadLayer(fs, at.dir) : undefined;
  const layers = own === undefined ? parentLayers : [...parentLayers, own];
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { ...at, layers, entries, next: 0 };
}

/**
 * Yields every file under `root`, depth first, entries of each directory in code-point order (deterministic).
 * Honours `.gitignore` files in `root`, below it and above it (see `ancestorDirs`), skips
 * `ALWAYS_SKIPPED_DIRS`, follows symlinked files but not symlinked dirs. Unreadable dirs are skipped, and so are
 * dirs deeper than `WALK_MAX_DEPTH` (each reported to `onTooDeep`). Iterative (a stack of open dirs, no
 * recursion), and it lets the event loop in every `YIELD_SLICE_MS` of work. Stops early when `signal` is aborted.
 */
export async function* walkFiles(options: WalkOptions): AsyncGenerator<WalkEntry> {
  const { fs, root, signal } = options;
  const pause = createYieldPoint();
  const above = await Promise.all(
    (await ancestorDirs(fs, root, options.cwd, pause)).map((d) => loadLayer(fs, d)),
  );
  const baseLayers = above.filter((l): l is IgnoreLayer => l !== undefined);
  const first = await openFrame(fs, { dir: root, rel: "", depth: 0 }, baseLayers);
  const stack: Frame[] = first === undefined ? [] : [first];
  for (let frame = stack.at(-1); frame !== undefined; frame = stack.at(-1)) {
    await pause();
    if (signal?.aborted) return;
    const entry = frame.entries[frame.next++];
    if (entry === undefined) {
      stack.pop();
      continue;
    }
    const abs = path.join(frame.dir, entry.name);
    const entryRel = frame.rel === "" ? entry.name : `${frame.rel}/${entry.name}`;
    const kind = await kindOf(fs, abs, entry.kind);
    if (kind === "dir") {
      if (ALWAYS_SKIPPED_DIRS.includes(entry.name) || isIgnored(frame.layers, abs, true)) continue;
      if (frame.depth + 1 > WALK_MAX_DEPTH) {
        options.onTooDeep?.(entryRel);
        continue;
      }
      const child = await openFrame(fs, { dir: abs, rel: entryRel, depth: frame.depth + 1 }, frame.layers);
      if (child !== undefined) stack.push(child);
    } else if (kind === "file" && !isIgnored(frame.layers, abs, false)) {
      yield { path: abs, rel: entryRel };
    }
  }
}
