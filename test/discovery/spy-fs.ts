import { createNodeFs, type FsOps } from "../../src/io/fs.js";

/** The FsOps methods a spy counts and can make fail (not the optional `readHeadSync`, `statSync` and `statSyncIfAny`: a spy reads through `readHead` and `stat`). */
export type FsMethod = Exclude<
  keyof FsOps,
  "host" | "atomicWrites" | "readHeadSync" | "statSync" | "statSyncIfAny" | "readChunksSync"
>;

export interface SpyFs {
  fs: FsOps;
  /** Paths each method was called with, in call order. */
  calls: Record<FsMethod, string[]>;
}

/** A Node-style error with a `code`, as `node:fs` throws. */
export function fsError(code: string, path: string): Error {
  return Object.assign(new Error(`${code}: simulated failure, '${path}'`), { code, path });
}

/**
 * The real file system, wrapped: every call is recorded, and `fail(method, path)` may return an error code
 * (e.g. `EACCES`) to throw instead of calling through. Used where the tests run as root and chmod cannot
 * make a path unreadable.
 */
export function spyFs(fail: (method: FsMethod, path: string) => string | undefined = () => undefined): SpyFs {
  const real = createNodeFs();
  const calls = {
    readdir: [],
    stat: [],
    realpath: [],
    readFile: [],
    readBytes: [],
    readHead: [],
    writeFile: [],
    mkdir: [],
    rename: [],
    rm: [],
  } as Record<FsMethod, string[]>;
  const guard = async <T>(method: FsMethod, path: string, call: () => Promise<T>): Promise<T> => {
    calls[method].push(path);
    const code = fail(method, path);
    if (code !== undefined) throw fsError(code, path);
    return call();
  };
  const fs: FsOps = {
    readdir: (path) => guard("readdir", path, () => real.readdir(path)),
    stat: (path) => guard("stat", path, () => real.stat(path)),
    realpath: (path) => guard("realpath", path, () => real.realpath(path)),
    readFile: (path) => guard("readFile", path, () => real.readFile(path)),
    readBytes: (path) => guard("readBytes", path, () => real.readBytes(path)),
    readHead: (path, max) => guard("readHead", path, () => real.readHead(path, max)),
    writeFile: (path, data) => guard("writeFile", path, () => real.writeFile(path, data)),
    mkdir: (path) => guard("mkdir", path, () => real.mkdir(path)),
    rename: (from, to) => guard("rename", from, () => real.rename(from, to)),
    rm: (path) => guard("rm", path, () => real.rm(path)),
  };
  return { fs, calls };
}
