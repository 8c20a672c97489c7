import { posix } from "node:path";
import type { DirEntry, FileHead, FileStat, FsOps } from "../../io/fs.js";
import { PATH_LIMITS, pathProblem } from "../../io/path-limits.js";
import { ApiError } from "../errors.js";
import type { MountContent } from "../store/mount-content.js";
import { type AttachedResource, SCRATCH_ROOT, SKILLS_MOUNT_ROOT } from "../store/session-resources.js";
import { SCRATCH_FILE_MAX_BYTES, type SessionScratch } from "../store/session-scratch.js";

/** One mount of a served session's file system, from its resources. */
export type Mount =
  | { kind: "memory"; path: string; storeId: string; readOnly: boolean }
  | { kind: "file"; path: string; fileId: string };

/** The mounts a session's resources give it. Pure. */
export function mountsOf(resources: readonly AttachedResource[]): Mount[] {
  return resources.map((r) =>
    r.type === "file"
      ? { kind: "file", path: r.mount_path, fileId: r.file_id }
      : {
          kind: "memory",
          path: r.mount_path,
          storeId: r.memory_store_id,
          readOnly: r.access === "read_only",
        },
  );
}

/**
 * One skill's files as a session mounts them: every path of its version relative to the skill's root
 * (`SKILL.md`, `scripts/calc.py`, …) and their bytes, read from the store when asked.
 */
export interface MountedSkill {
  name: string;
  paths: readonly string[];
  /** The file's bytes, or undefined when the version has no such file. */
  read(path: string): Promise<Uint8Array | undefined>;
}

/**
 * Where a file system over mounts puts its writable scratch space and its skills' folders: a served session's
 * ({@link SESSION_LAYOUT}) or a code execution container's (src/serve/messages/container-layout.ts).
 */
export interface MountLayout {
  /** The writable folder whose files are the scratch space's (e.g. `/workspace`). */
  scratchRoot: string;
  /** The folder holding each skill's files read-only under `<root>/<name>/` (e.g. `/mnt/skills`). */
  skillsRoot: string;
  /** Folders under `scratchRoot` that exist even while empty (a container's outputs folder). Default none. */
  folders?: readonly string[];
}

/** A served session's layout: `/workspace` and `/mnt/skills`. */
export const SESSION_LAYOUT: MountLayout = { scratchRoot: SCRATCH_ROOT, skillsRoot: SKILLS_MOUNT_ROOT };

/** What a session's (or a container's) file system is over. */
export interface MountFsInput {
  workspaceId: string;
  /** The session whose scratch space this is (a container's id under a container's layout); memories' actor. */
  sessionId: string;
  /** Default {@link SESSION_LAYOUT}. */
  layout?: MountLayout;
  mounts: readonly Mount[];
  content: MountContent;
  scratch: SessionScratch;
  /**
   * The session's skills now, whose files (all of them: SKILL.md, references, scripts, binary assets) are
   * mounted read-only at `<skillsRoot>/<name>/<path>` (`/mnt/skills/…`), byte for byte. Absent: no skills' folder.
   */
  skills?: () => Promise<readonly MountedSkill[]>;
}

/**
 * The longest path this file system takes for any operation: a mount path and a store's slug above a memory path
 * at the limit, with room to spare. Longer paths are EINVAL at once.
 */
export const MOUNT_FS_MAX_PATH_BYTES = 2 * PATH_LIMITS.maxBytes + 256;

function fsError(code: string, syscall: string, path: string, why?: string): Error {
  const detail = why === undefined ? "" : ` (${why})`;
  return Object.assign(new Error(`${code}: ${syscall} '${path}'${detail}`), { code, syscall, path });
}

/** A store refusal (a bad memory path 400, content over 100 kB 413, a clash 409) as a file-system error. */
function storeError(error: unknown, syscall: string, path: string): Error {
  if (!(error instanceof ApiError)) return error instanceof Error ? error : new Error(String(error));
  const code = error.status === 404 ? "ENOENT" : error.status === 413 ? "EFBIG" : "EINVAL";
  return fsError(code, syscall, path, error.message);
}

const dirStat = (path: string): FileStat => ({
  kind: "dir",
  size: 0,
  mtimeMs: 0,
  ctimeMs: 0,
  fileId: `dir:${path}`,
});
const fileStat = (path: string, size: number, mtimeMs: number): FileStat => ({
  kind: "file",
  size,
  mtimeMs,
  ctimeMs: mtimeMs,
  fileId: `file:${path}`,
});

/** Where an absolute, normalised path falls. */
type Place =
  | { at: "memory"; mount: Extract<Mount, { kind: "memory" }>; rel: string }
  | { at: "file"; mount: Extract<Mount, { kind: "file" }> }
  | { at: "scratch"; rel: string }
  | { at: "skills"; skill: string; rel: string }
  | { at: "virtual" }
  | { at: "none" };

/**
 * A served session's file system, every byte in the database: its memory stores under
 * `/mnt/memory/<store-slug>/…` (a write is a new version of the memory, by the session; a read-only mount
 * refuses writes with EROFS), its uploaded files at their mount paths (read-only), and its own scratch space
 * under `/workspace`. The directories above the mounts are listed but hold nothing else; every other path is
 * ENOENT, and nothing here reaches the host. Memories cannot be removed or renamed through it (EPERM).
 */
export function createMountFs(input: MountFsInput): FsOps {
  const { workspaceId, sessionId, content, scratch } = input;
  const { scratchRoot, skillsRoot, folders = [] } = input.layout ?? SESSION_LAYOUT;
  /** Whether `path` is the scratch root or a folder of the layout's: a directory even with nothing in it. */
  const standing = (path: string) => path === scratchRoot || folders.includes(path);
  const roots = [
    ...input.mounts.map((m) => m.path),
    scratchRoot,
    ...(input.skills === undefined ? [] : [skillsRoot]),
  ];
  /** The skill's files as absolute paths under its mount, or undefined when there is no such skill. */
  const skillFiles = async (skill: string): Promise<{ paths: string[]; found: MountedSkill } | undefined> => {
    const found = (await input.skills?.())?.find((s) => s.name === skill);
    if (found === undefined) return undefined;
    return { paths: found.paths.map((p) => `${skillsRoot}/${skill}/${p}`), found };
  };
  const skillPlace = async (where: { skill: string; rel: string }, path: string, syscall: string) => {
    if (where.skill === "") return { kind: "dir" as const, paths: [] };
    const files = await skillFiles(where.skill);
    if (files === undefined) throw fsError("ENOENT", syscall, path);
    if (where.rel !== "" && files.paths.includes(path)) {
      const bytes = await files.found.read(where.rel);
      if (bytes === undefined) throw fsError("ENOENT", syscall, path);
      return { kind: "file" as const, bytes };
    }
    const under = files.paths.filter((p) => p.startsWith(`${path}/`));
    if (where.rel !== "" && under.length === 0) throw fsError("ENOENT", syscall, path);
    return { kind: "dir" as const, paths: under };
  };
  const actor = { type: "session_actor" as const, session_id: sessionId };

  const normal = (path: string, syscall: string): string => {
    if (!posix.isAbsolute(path)) throw fsError("ENOENT", syscall, path);
    // No place here holds a longer path: refused before any work that follows its length.
    const size = Buffer.byteLength(path, "utf8");
    if (size > MOUNT_FS_MAX_PATH_BYTES) {
      const why = `a path is at most ${MOUNT_FS_MAX_PATH_BYTES} bytes; this one is ${size}`;
      throw fsError("EINVAL", syscall, `${path.slice(0, 100)}…`, why);
    }
    const n = posix.normalize(path);
    return n.length > 1 && n.endsWith("/") ? n.slice(0, -1) : n;
  };
  const place = (path: string): Place => {
    for (const mount of input.mounts) {
      if (mount.kind === "file" && path === mount.path) return { at: "file", mount };
      if (mount.kind === "memory" && (path === mount.path || path.startsWith(`${mount.path}/`))) {
        return { at: "memory", mount, rel: path.slice(mount.path.length) };
      }
    }
    if (path === scratchRoot || path.startsWith(`${scratchRoot}/`)) return { at: "scratch", rel: path };
    if (input.skills !== undefined && (path === skillsRoot || path.startsWith(`${skillsRoot}/`))) {
      const [skill = "", ...rest] = path.slice(skillsRoot.length + 1).split("/");
      return { at: "skills", skill, rel: rest.join("/") };
    }
    if (roots.some((root) => path === "/" || root.startsWith(`${path}/`))) return { at: "virtual" };
    return { at: "none" };
  };
  /** The names directly under `dir` of `paths` (absolute, all under `dir/`), files and dirs apart. */
  const children = (dir: string, paths: readonly string[]): DirEntry[] => {
    const base = dir === "/" ? "/" : `${dir}/`;
    const out = new Map<string, DirEntry>();
    for (const p of paths) {
      if (!p.startsWith(base)) continue;
      const rest = p.slice(base.length);
      const slash = rest.indexOf("/");
      const name = slash < 0 ? rest : rest.slice(0, slash);
      if (name === "") continue;
      if (slash >= 0) out.set(name, { name, kind: "dir" });
      else if (!out.has(name)) out.set(name, { name, kind: "file" });
    }
    return [...out.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  };
  const memoryPaths = async (mount: Extract<Mount, { kind: "memory" }>, rel: string, path: string) => {
    try {
      const listed = await content.listMemories(workspaceId, mount.storeId, `${rel}/`);
      return listed.map((m) => ({ path: `${mount.path}${m.path}`, size: m.size }));
    } catch (error) {
      throw storeError(error, "scandir", path);
    }
  };

  const stat = async (raw: string): Promise<FileStat> => {
    const path = normal(raw, "stat");
    const where = place(path);
    switch (where.at) {
      case "virtual":
        return dirStat(path);
      case "file":
        try {
          const bytes = await content.readFile(workspaceId, where.mount.fileId);
          return fileStat(path, bytes.length, 0);
        } catch (error) {
          throw storeError(error, "stat", path);
        }
      case "memory": {
        if (where.rel === "") return dirStat(path);
        let memory: Awaited<ReturnType<MountContent["readMemory"]>>;
        try {
          memory = await content.readMemory(workspaceId, where.mount.storeId, where.rel);
        } catch {
          memory = undefined;
        }
        if (memory !== undefined) {
          return fileStat(
            path,
            Buffer.byteLength(memory.content ?? "", "utf8"),
            Date.parse(memory.updated_at),
          );
        }
        if ((await memoryPaths(where.mount, where.rel, path)).length > 0) return dirStat(path);
        throw fsError("ENOENT", "stat", path);
      }
      case "skills": {
        const found = await skillPlace(where, path, "stat");
        return found.kind === "file" ? fileStat(path, found.bytes.length, 0) : dirStat(path);
      }
      case "scratch": {
        if (standing(path)) return dirStat(path);
        const file = await scratch.read(sessionId, path);
        if (file !== undefined) return fileStat(path, file.content.length, file.mtimeMs);
        if ((await scratch.list(sessionId, `${path}/`)).length > 0) return dirStat(path);
        throw fsError("ENOENT", "stat", path);
      }
      default:
        throw fsError("ENOENT", "stat", path);
    }
  };

  const readBytes = async (raw: string): Promise<Uint8Array> => {
    const path = normal(raw, "open");
    const where = place(path);
    switch (where.at) {
      case "file":
        try {
          return await content.readFile(workspaceId, where.mount.fileId);
        } catch (error) {
          throw storeError(error, "open", path);
        }
      case "memory": {
        if (where.rel === "") throw fsError("EISDIR", "read", path);
        let memory: Awaited<ReturnType<MountContent["readMemory"]>>;
        try {
          memory = await content.readMemory(workspaceId, where.mount.storeId, where.rel);
        } catch (error) {
          throw storeError(error, "open", path);
        }
        if (memory !== undefined) return new Uint8Array(Buffer.from(memory.content ?? "", "utf8"));
        if ((await memoryPaths(where.mount, where.rel, path)).length > 0)
          throw fsError("EISDIR", "read", path);
        throw fsError("ENOENT", "open", path);
      }
      case "scratch": {
        const file = await scratch.read(sessionId, path);
        if (file !== undefined) return file.content;
        if (standing(path) || (await scratch.list(sessionId, `${path}/`)).length > 0) {
          throw fsError("EISDIR", "read", path);
        }
        throw fsError("ENOENT", "open", path);
      }
      case "skills": {
        const found = await skillPlace(where, path, "open");
        if (found.kind === "dir") throw fsError("EISDIR", "read", path);
        return found.bytes;
      }
      case "virtual":
        throw fsError("EISDIR", "read", path);
      default:
        throw fsError("ENOENT", "open", path);
    }
  };

  const readHead = async (raw: string, maxBytes: number): Promise<FileHead> => {
    const all = await readBytes(raw);
    const path = normal(raw, "open");
    const text = Buffer.from(all.subarray(0, maxBytes)).toString("utf8");
    return {
      text,
      size: all.length,
      complete: maxBytes >= all.length,
      binary: text.includes("\0"),
      fileId: `file:${path}`,
    };
  };

  /**
   * A write's target, checked: only a writable memory mount or the scratch space takes one, and a scratch path
   * keeps the limits every path keeps (`pathProblem`, below `/workspace`: EINVAL).
   */
  const writable = (path: string, syscall: string): Place => {
    const where = place(path);
    if (where.at === "scratch" && path !== scratchRoot) {
      const problem = pathProblem(path.slice(scratchRoot.length), `a path under ${scratchRoot}`);
      if (problem !== undefined) throw fsError("EINVAL", syscall, path.slice(0, 200), problem);
    }
    if (where.at === "file") throw fsError("EROFS", syscall, path, "an uploaded file is mounted read-only");
    if (where.at === "skills") throw fsError("EROFS", syscall, path, "skills' files are mounted read-only");
    if (where.at === "memory" && where.mount.readOnly) {
      throw fsError("EROFS", syscall, path, "this memory store is mounted read-only");
    }
    if (where.at === "virtual" || where.at === "none") {
      throw fsError(
        "EACCES",
        syscall,
        path,
        `only ${scratchRoot} and the writable memory mounts take writes`,
      );
    }
    return where;
  };

  return {
    // A memory, a scratch file: each write replaces one row whole.
    atomicWrites: true,
    async readdir(raw) {
      const path = normal(raw, "scandir");
      const where = place(path);
      switch (where.at) {
        case "virtual":
          // A memory mount and the scratch space are directories (a name under them makes them one).
          return children(path, [
            ...input.mounts.map((m) => (m.kind === "file" ? m.path : `${m.path}/.`)),
            `${scratchRoot}/.`,
            ...(input.skills === undefined ? [] : [`${skillsRoot}/.`]),
          ]);
        case "memory": {
          const listed = await memoryPaths(where.mount, where.rel, path);
          if (listed.length === 0 && where.rel !== "") {
            await stat(path); // ENOENT, or ENOTDIR below for a memory
            throw fsError("ENOTDIR", "scandir", path);
          }
          return children(
            path,
            listed.map((m) => m.path),
          );
        }
        case "scratch": {
          const listed = await scratch.list(sessionId, `${path}/`);
          const here = folders.filter((f) => posix.dirname(f) === path).map((f) => `${f}/.`);
          if (listed.length === 0 && here.length === 0 && !standing(path)) {
            await stat(path);
            throw fsError("ENOTDIR", "scandir", path);
          }
          return children(path, [...listed.map((f) => f.path), ...here]);
        }
        case "skills": {
          if (where.skill === "") {
            const names = ((await input.skills?.()) ?? []).map((s) => `${skillsRoot}/${s.name}/.`);
            return children(path, names);
          }
          const found = await skillPlace(where, path, "scandir");
          if (found.kind === "file") throw fsError("ENOTDIR", "scandir", path);
          return children(path, found.paths);
        }
        case "file":
          throw fsError("ENOTDIR", "scandir", path);
        default:
          throw fsError("ENOENT", "scandir", path);
      }
    },
    stat,
    async realpath(raw) {
      const path = normal(raw, "realpath");
      await stat(path);
      return path;
    },
    readFile: async (path) => Buffer.from(await readBytes(path)).toString("utf8"),
    readBytes,
    readHead,
    async writeFile(raw, data) {
      const path = normal(raw, "open");
      const where = writable(path, "open");
      const bytes = typeof data === "string" ? new Uint8Array(Buffer.from(data, "utf8")) : data;
      if (where.at === "memory") {
        if (where.rel === "") throw fsError("EISDIR", "open", path);
        const text = Buffer.from(bytes).toString("utf8");
        // A memory is text in a PostgreSQL `text` column, which has no NUL (bytes that are not UTF-8 become U+FFFD).
        if (text.includes("\u0000"))
          throw fsError("EINVAL", "write", path, "a memory is text and cannot hold a NUL character (U+0000)");
        try {
          await content.writeMemory(workspaceId, where.mount.storeId, where.rel, text, actor);
        } catch (error) {
          throw storeError(error, "write", path);
        }
        return;
      }
      if (path === scratchRoot) throw fsError("EISDIR", "open", path);
      if (bytes.length > SCRATCH_FILE_MAX_BYTES) {
        throw fsError("EFBIG", "write", path, `a scratch file holds at most ${SCRATCH_FILE_MAX_BYTES} bytes`);
      }
      await scratch.write(sessionId, path, bytes);
    },
    async mkdir(raw) {
      // Directories are the prefixes of what is stored: making one stores nothing.
      const path = normal(raw, "mkdir");
      if (place(path).at === "virtual") return;
      writable(path, "mkdir");
    },
    async rename(rawFrom, rawTo) {
      const from = normal(rawFrom, "rename");
      const to = normal(rawTo, "rename");
      const a = writable(from, "rename");
      const b = writable(to, "rename");
      if (a.at !== "scratch" || b.at !== "scratch") {
        throw fsError("EPERM", "rename", from, "memories are not renamed through the file system");
      }
      await scratch.remove(sessionId, to);
      if ((await scratch.rename(sessionId, from, to)) === 0) throw fsError("ENOENT", "rename", from);
    },
    async rm(raw) {
      const path = normal(raw, "rm");
      const where = writable(path, "rm");
      if (where.at !== "scratch") {
        throw fsError("EPERM", "rm", path, "memories are not deleted through the file system");
      }
      await scratch.remove(sessionId, path);
    },
  };
}
