import * as nodeFs from "node:fs/promises";

/** The kind of a directory entry, as seen without following symlinks. */
export type EntryKind = "file" | "dir" | "symlink" | "other";

export interface DirEntry {
  name: string;
  kind: EntryKind;
}

export interface FileStat {
  kind: EntryKind;
  size: number;
  mtimeMs: number;
}

/** The head of a file: the first bytes (as UTF-8 text) and the file's full size. */
export interface FileHead {
  text: string;
  size: number;
  /** True when `text` holds the whole file. */
  complete: boolean;
  /** True when the bytes read contain a NUL byte (a binary file). */
  binary: boolean;
}

/**
 * File-system operations the engine uses. Every module that touches files receives one of these, so tests and
 * embedders (a database, a remote machine) can supply their own. Methods reject with Node-style errors
 * (`code` = ENOENT, EACCES, ELOOP, ENOTDIR, …).
 */
export interface FsOps {
  readdir(path: string): Promise<DirEntry[]>;
  /** Follows symlinks. */
  stat(path: string): Promise<FileStat>;
  realpath(path: string): Promise<string>;
  readFile(path: string): Promise<string>;
  readBytes(path: string): Promise<Uint8Array>;
  /** Reads at most `maxBytes` from the start of the file. */
  readHead(path: string, maxBytes: number): Promise<FileHead>;
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  mkdir(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  rm(path: string): Promise<void>;
}

function kindOf(d: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): EntryKind {
  if (d.isSymbolicLink()) return "symlink";
  if (d.isFile()) return "file";
  if (d.isDirectory()) return "dir";
  return "other";
}

/** The real file system through `node:fs/promises`. */
export function createNodeFs(): FsOps {
  return {
    async readdir(path) {
      const entries = await nodeFs.readdir(path, { withFileTypes: true });
      return entries.map((e) => ({ name: e.name, kind: kindOf(e) }));
    },
    async stat(path) {
      const s = await nodeFs.stat(path);
      return { kind: kindOf(s), size: s.size, mtimeMs: s.mtimeMs };
    },
    realpath: (path) => nodeFs.realpath(path),
    readFile: (path) => nodeFs.readFile(path, "utf8"),
    readBytes: async (path) => new Uint8Array(await nodeFs.readFile(path)),
    async readHead(path, maxBytes) {
      const handle = await nodeFs.open(path, "r");
      try {
        const buffer = Buffer.allocUnsafe(maxBytes);
        const { bytesRead } = await handle.read(buffer, 0, maxBytes, 0);
        const size = bytesRead < maxBytes ? bytesRead : (await handle.stat()).size;
        const bytes = buffer.subarray(0, bytesRead);
        return {
          text: bytes.toString("utf8"),
          size,
          complete: bytesRead === size,
          binary: bytes.includes(0),
        };
      } finally {
        await handle.close();
      }
    },
    writeFile: (path, data) => nodeFs.writeFile(path, data),
    mkdir: async (path) => {
      await nodeFs.mkdir(path, { recursive: true });
    },
    rename: (from, to) => nodeFs.rename(from, to),
    rm: (path) => nodeFs.rm(path, { recursive: true, force: true }),
  };
}

/** The `code` of a Node error, or undefined. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error === "object" && error !== null && "code" in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === "string" ? code : undefined;
  }
  return undefined;
}

/** A one-line description of an unknown thrown value. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
