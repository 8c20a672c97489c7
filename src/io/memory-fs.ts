import { posix } from "node:path";
import type { DirEntry, FileHead, FileStat, FsOps } from "./fs.js";

type Node =
  | { kind: "dir"; id: number; entries: Map<string, Node>; mtimeMs: number }
  | { kind: "file"; id: number; data: Uint8Array; mtimeMs: number };

function fsError(code: string, syscall: string, path: string): Error {
  return Object.assign(new Error(`${code}: ${syscall} '${path}'`), { code, syscall, path });
}

/**
 * An in-memory file system with the {@link FsOps} contract: for hosts that want the file tools (Read, Write,
 * Edit, …) or file skills without a disk, and for tests. Paths are POSIX and absolute; `files` maps absolute
 * paths to their text (parent dirs are made). Errors carry Node's codes (ENOENT, ENOTDIR, EISDIR). No symlinks.
 */
export function createMemoryFs(files: Record<string, string> = {}, now: () => number = Date.now): FsOps {
  let nextId = 1;
  const root: Node = { kind: "dir", id: nextId++, entries: new Map(), mtimeMs: now() };
  const parts = (path: string, syscall: string): string[] => {
    if (!posix.isAbsolute(path)) throw fsError("ENOENT", syscall, path);
    return posix
      .normalize(path)
      .split("/")
      .filter((p) => p !== "");
  };
  const find = (path: string, syscall: string): Node => {
    let node: Node = root;
    for (const part of parts(path, syscall)) {
      if (node.kind !== "dir") throw fsError("ENOTDIR", syscall, path);
      const child = node.entries.get(part);
      if (child === undefined) throw fsError("ENOENT", syscall, path);
      node = child;
    }
    return node;
  };
  const dirOf = (path: string, syscall: string) => {
    const node = find(path, syscall);
    if (node.kind !== "dir") throw fsError("ENOTDIR", syscall, path);
    return node;
  };
  const fileOf = (path: string, syscall: string) => {
    const node = find(path, syscall);
    if (node.kind !== "file") throw fsError("EISDIR", syscall, path);
    return node;
  };
  /** The parent dir and the last name; the parent must exist. */
  const parentOf = (path: string, syscall: string) => {
    const all = parts(path, syscall);
    const name = all.pop();
    if (name === undefined) throw fsError("EISDIR", syscall, path);
    return { dir: dirOf(`/${all.join("/")}`, syscall), name };
  };
  const mkdirs = (path: string) => {
    let node: Node = root;
    for (const part of parts(path, "mkdir")) {
      if (node.kind !== "dir") throw fsError("ENOTDIR", "mkdir", path);
      let child: Node | undefined = node.entries.get(part);
      if (child === undefined) {
        child = { kind: "dir", id: nextId++, entries: new Map(), mtimeMs: now() };
        node.entries.set(part, child);
      }
      node = child;
    }
    if (node.kind !== "dir") throw fsError("EEXIST", "mkdir", path);
  };
  const write = (path: string, data: string | Uint8Array) => {
    const { dir, name } = parentOf(path, "open");
    const existing = dir.entries.get(name);
    if (existing?.kind === "dir") throw fsError("EISDIR", "open", path);
    const bytes = typeof data === "string" ? new TextEncoder().encode(data) : new Uint8Array(data);
    dir.entries.set(name, { kind: "file", id: existing?.id ?? nextId++, data: bytes, mtimeMs: now() });
  };
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  for (const [path, text] of Object.entries(files)) {
    mkdirs(posix.dirname(path));
    write(path, text);
  }
  return {
    async readdir(path) {
      return [...dirOf(path, "scandir").entries].map(([name, node]): DirEntry => ({ name, kind: node.kind }));
    },
    async stat(path): Promise<FileStat> {
      const node = find(path, "stat");
      const size = node.kind === "file" ? node.data.length : 0;
      return {
        kind: node.kind,
        size,
        mtimeMs: node.mtimeMs,
        ctimeMs: node.mtimeMs,
        fileId: `mem:${node.id}`,
      };
    },
    async realpath(path) {
      find(path, "realpath");
      return posix.normalize(path);
    },
    readFile: async (path) => decode(fileOf(path, "open").data),
    readBytes: async (path) => new Uint8Array(fileOf(path, "open").data),
    async readHead(path, maxBytes): Promise<FileHead> {
      const file = fileOf(path, "open");
      const bytes = file.data.subarray(0, maxBytes);
      return {
        text: decode(bytes),
        size: file.data.length,
        complete: bytes.length >= file.data.length,
        binary: bytes.includes(0),
        fileId: `mem:${file.id}`,
      };
    },
    writeFile: async (path, data) => write(path, data),
    mkdir: async (path) => mkdirs(path),
    async rename(from, to) {
      const source = parentOf(from, "rename");
      const node = source.dir.entries.get(source.name);
      if (node === undefined) throw fsError("ENOENT", "rename", from);
      const target = parentOf(to, "rename");
      source.dir.entries.delete(source.name);
      target.dir.entries.set(target.name, node);
    },
    async rm(path) {
      const all = parts(path, "rm");
      const name = all.pop();
      if (name === undefined) return;
      try {
        dirOf(`/${all.join("/")}`, "rm").entries.delete(name);
      } catch {
        // force: a missing path is not an error.
      }
    },
  };
}
