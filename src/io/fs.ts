import * as callbackFs from "node:fs";
import * as nodeFs from "node:fs/promises";
import { promisify } from "node:util";

/** The kind of a directory entry, as seen without following symlinks. */
export type EntryKind = "file" | "dir" | "symlink" | "other";

/** One entry of a directory listing. */
export interface DirEntry {
  name: string;
  kind: EntryKind;
}

/** What `stat` reports about a path. */
export interface FileStat {
  kind: EntryKind;
  size: number;
  mtimeMs: number;
  /** Status change time: moves on every write, rename or chmod, and cannot be set back by `touch`. */
  ctimeMs: number;
  /** `{dev}:{ino}`, as in {@link FileHead}. */
  fileId: string;
}

/** The head of a file: the first bytes (as UTF-8 text) and the file's full size. */
export interface FileHead {
  text: string;
  size: number;
  /** True when `text` holds the whole file. */
  complete: boolean;
  /** True when the bytes read contain a NUL byte (a binary file). */
  binary: boolean;
  /** `{dev}:{ino}`: the same for every path that reaches this file (symlinks, hard links). */
  fileId: string;
  /** True when the reader's `keep` declined the file by its id: nothing was read and `text` is empty. */
  skipped?: boolean;
  /**
   * The open file's times, from the same fstat as `size` and `fileId` (taken before the bytes were read): with
   * them a discovery cache stamps a head without a stat of its own. Optional: absent, the cache stats the path.
   */
  mtimeMs?: number;
  ctimeMs?: number;
}

/**
 * File-system operations the engine uses. Every module that touches files receives one of these, so tests and
 * embedders (a database, a remote machine) can supply their own. Methods reject with Node-style errors
 * (`code` = ENOENT, EACCES, ELOOP, ENOTDIR, …).
 */
export interface FsOps {
  /**
   * Set only by {@link createNodeFs}: its paths are this machine's own, so what works on host paths alone (mode
   * bits, transcripts on disk, a directory watcher) may be used beside it. Absent on memory and embedder file
   * systems, where nothing falls back to the host.
   */
  readonly host?: true;
  /**
   * Set by a file system whose `writeFile` replaces a file whole in one step (a row in a database): a reader
   * never sees half a write, so atomic writes go straight to the target, with no temp file and rename.
   */
  readonly atomicWrites?: true;
  readdir(path: string): Promise<DirEntry[]>;
  /** Follows symlinks. */
  stat(path: string): Promise<FileStat>;
  realpath(path: string): Promise<string>;
  readFile(path: string): Promise<string>;
  readBytes(path: string): Promise<Uint8Array>;
  /** Reads at most `maxBytes` from the start of the file. */
  readHead(path: string, maxBytes: number): Promise<FileHead>;
  /**
   * {@link FsOps.readHead} done synchronously (throws instead of rejecting), for a file system whose reads are
   * synchronous anyway. Optional: discovery reads heads in one synchronous pass when it is there (no promise per
   * file), and through `readHead` otherwise. `keep`, when given, sees the file's id before any byte is read:
   * false returns a {@link FileHead.skipped} head (discovery skips a file it already read through another
   * path, as the fs floor does). An implementation may ignore it and read anyway.
   */
  readHeadSync?(path: string, maxBytes: number, keep?: (fileId: string) => boolean): FileHead;
  /**
   * {@link FsOps.stat} done synchronously (throws instead of rejecting). Optional: a warm discovery cache is
   * checked in one synchronous pass (one stat per file, no promise) when it is there and `readHeadSync` is too.
   */
  statSync?(path: string): FileStat;
  /**
   * {@link FsOps.statSync}, but undefined where nothing is at `path` (other failures still throw). Optional:
   * asking after a file that is usually absent (a skill's `agents/openai.yaml`) then builds no error per miss.
   */
  statSyncIfAny?(path: string): FileStat | undefined;
  /**
   * Reads a whole regular file synchronously through one open file, in chunks of at most `chunkBytes`: a reader
   * that parses as it goes never holds the whole text. Each chunk is valid only until the next is asked for.
   * Optional: the discovery cache reads its file this way when it is there, and whole otherwise.
   */
  readChunksSync?(path: string, chunkBytes: number): Iterable<Uint8Array>;
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

const open = promisify(callbackFs.open);
const fstat = promisify(callbackFs.fstat);
const close = promisify(callbackFs.close);
const read = (fd: number, buffer: Buffer, offset: number, length: number, position: number) =>
  new Promise<number>((resolve, reject) =>
    callbackFs.read(fd, buffer, offset, length, position, (error, bytesRead) =>
      error ? reject(error) : resolve(bytesRead),
    ),
  );

/**
 * Heads are opened non-blocking, then checked to be regular files: opening a FIFO for reading would otherwise
 * wait for a writer forever, and a device like /dev/zero never ends.
 */
const HEAD_OPEN_FLAGS = callbackFs.constants.O_RDONLY | callbackFs.constants.O_NONBLOCK;

function notRegularFile(path: string): Error {
  return Object.assign(new Error(`not a regular file (a FIFO, device or socket): ${path}`), {
    code: "ENOTREG",
  });
}

function statOf(s: callbackFs.Stats): FileStat {
  return {
    kind: kindOf(s),
    size: s.size,
    mtimeMs: s.mtimeMs,
    ctimeMs: s.ctimeMs,
    fileId: `${s.dev}:${s.ino}`,
  };
}

/** The head in the first `length` bytes of `buffer` (no subarray: one object less per file). */
function headOf(buffer: Buffer, length: number, stat: callbackFs.Stats, fileId: string): FileHead {
  const text = buffer.toString("utf8", 0, length);
  const size = stat.size;
  return {
    text,
    size,
    complete: length >= size,
    // A NUL byte decodes to U+0000 and nothing else does: search the text, not a view of the bytes.
    binary: text.includes("\0"),
    fileId,
    mtimeMs: stat.mtimeMs,
    ctimeMs: stat.ctimeMs,
  };
}

/**
 * Reads with the synchronous calls (the methods still return promises, and errors still reject). Discovery reads
 * thousands of small heads with nothing else to do meanwhile, and the thread pool's hand-offs cost more than
 * the reads: with synchronous reads discovery took 0.71× the time of asynchronous ones on the bench corpus
 * (1k skills; `npm run bench`, discovery section, "default fs" vs "syncReads" rows). The event loop is blocked
 * for the length of each call (one small file), so this is the default; a host that must stay responsive while
 * it discovers can ask for the asynchronous reads.
 */
function syncReads(): Pick<
  FsOps,
  | "readdir"
  | "stat"
  | "statSync"
  | "statSyncIfAny"
  | "realpath"
  | "readFile"
  | "readBytes"
  | "readHead"
  | "readHeadSync"
  | "readChunksSync"
> {
  // One buffer for every head: each is decoded before the call returns (nothing in between can run), so a
  // discovery allocates no 4 KB buffer per file.
  let headBuffer = Buffer.allocUnsafe(0);
  const readHeadSync = (path: string, maxBytes: number, keep?: (fileId: string) => boolean): FileHead => {
    const fd = callbackFs.openSync(path, HEAD_OPEN_FLAGS);
    try {
      const stat = callbackFs.fstatSync(fd);
      if (!stat.isFile()) throw notRegularFile(path);
      const fileId = `${stat.dev}:${stat.ino}`;
      if (keep !== undefined && !keep(fileId)) {
        return { text: "", size: stat.size, complete: false, binary: false, fileId, skipped: true };
      }
      const length = Math.min(maxBytes, stat.size);
      if (headBuffer.length < length) headBuffer = Buffer.allocUnsafe(Math.max(length, 4_096));
      const bytesRead = length === 0 ? 0 : callbackFs.readSync(fd, headBuffer, 0, length, 0);
      return headOf(headBuffer, bytesRead, stat, fileId);
    } finally {
      callbackFs.closeSync(fd);
    }
  };
  function* readChunksSync(path: string, chunkBytes: number): Generator<Uint8Array> {
    const fd = callbackFs.openSync(path, HEAD_OPEN_FLAGS);
    try {
      if (!callbackFs.fstatSync(fd).isFile()) throw notRegularFile(path);
      const buffer = Buffer.allocUnsafe(chunkBytes);
      for (;;) {
        const bytesRead = callbackFs.readSync(fd, buffer, 0, chunkBytes, null);
        if (bytesRead === 0) return;
        yield buffer.subarray(0, bytesRead);
      }
    } finally {
      callbackFs.closeSync(fd);
    }
  }
  return {
    readdir: async (path) =>
      callbackFs.readdirSync(path, { withFileTypes: true }).map((e) => ({ name: e.name, kind: kindOf(e) })),
    stat: async (path) => statOf(callbackFs.statSync(path)),
    statSync: (path) => statOf(callbackFs.statSync(path)),
    statSyncIfAny: (path) => {
      // An absent file comes back as undefined, not as a thrown error: Node then captures no stack for it.
      const stat = callbackFs.statSync(path, { throwIfNoEntry: false });
      return stat === undefined ? undefined : statOf(stat);
    },
    realpath: async (path) => callbackFs.realpathSync(path),
    readFile: async (path) => callbackFs.readFileSync(path, "utf8"),
    readBytes: async (path) => new Uint8Array(callbackFs.readFileSync(path)),
    readHead: async (path, maxBytes) => readHeadSync(path, maxBytes),
    readHeadSync,
    readChunksSync,
  };
}

/**
 * The real file system through `node:fs`. Reads (readdir, stat, realpath, readFile, readBytes, readHead) are
 * synchronous unless `syncReads: false` (see {@link syncReads}: the fastest strategy for discovery); writes are
 * always asynchronous.
 */
export function createNodeFs(options: { syncReads?: boolean } = {}): FsOps {
  const fs: FsOps = {
    host: true,
    async readdir(path) {
      const entries = await nodeFs.readdir(path, { withFileTypes: true });
      return entries.map((e) => ({ name: e.name, kind: kindOf(e) }));
    },
    stat: async (path) => statOf(await nodeFs.stat(path)),
    realpath: (path) => nodeFs.realpath(path),
    readFile: (path) => nodeFs.readFile(path, "utf8"),
    readBytes: async (path) => new Uint8Array(await nodeFs.readFile(path)),
    async readHead(path, maxBytes) {
      // Callback fs, not FileHandle: discovery reads thousands of heads and FileHandle's per-call
      // overhead made it ~15% slower than a plain readFile floor.
      const fd = await open(path, HEAD_OPEN_FLAGS);
      try {
        const stat = await fstat(fd);
        if (!stat.isFile()) throw notRegularFile(path);
        const buffer = Buffer.allocUnsafe(Math.min(maxBytes, stat.size));
        const bytesRead = buffer.length === 0 ? 0 : await read(fd, buffer, 0, buffer.length, 0);
        return headOf(buffer, bytesRead, stat, `${stat.dev}:${stat.ino}`);
      } finally {
        await close(fd);
      }
    },
    writeFile: (path, data) => nodeFs.writeFile(path, data),
    mkdir: async (path) => {
      await nodeFs.mkdir(path, { recursive: true });
    },
    rename: (from, to) => nodeFs.rename(from, to),
    rm: (path) => nodeFs.rm(path, { recursive: true, force: true }),
  };
  return options.syncReads === false ? fs : { ...fs, ...syncReads() };
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

/** Whether `path` (links followed) is a file or a dir; undefined for anything else or when it cannot be stat'ed. */
export async function pathKind(fs: FsOps, path: string): Promise<"file" | "dir" | undefined> {
  try {
    const kind = (await fs.stat(path)).kind;
    return kind === "file" || kind === "dir" ? kind : undefined;
  } catch {
    return undefined;
  }
}
